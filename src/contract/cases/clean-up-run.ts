import type { CaseContext } from '../engine/run-case.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import { runItems, type RunItem } from '../transport/created-items.js';
import { StopRun } from '../base/stop-run.js';
import { RequestCapReached } from '../base/suite-error.js';

/** How many ids a note names before it counts the rest. */
const SHOWN_IDS = 20;

/**
 * The run's clean-up, at its end: every item the run created (a 2xx to a create, whichever case sent it) and did
 * not delete is deleted where the document has a delete, children before their parents; what it cannot delete is
 * listed in a `resource.cleanup` note with why (the document has no delete, the delete was refused, the request cap
 * or the deadline came). Only items the run created are ever deleted: seeds and other clients' items are never
 * touched. A read-only run created nothing and sends nothing here.
 */
export async function cleanUpRun(ctx: CaseContext): Promise<void> {
  if (ctx.session.config.readOnly) return;
  const left = runItems(ctx.session)
    .filter((item) => !item.deleted)
    .sort((a, b) => depth(b.collection) - depth(a.collection));
  const kept = new Map<string, { ids: string[]; why: string }>();
  const keep = (item: RunItem, why: string) => {
    const entry = kept.get(`${item.collection.path}\u0000${why}`) ?? { ids: [], why };
    entry.ids.push(item.id);
    kept.set(`${item.collection.path}\u0000${why}`, entry);
  };
  let stopped: string | undefined;
  let deleted = 0;
  for (const item of left) {
    const remove = item.collection.operations.delete;
    if (!remove) keep(item, 'the document has no delete');
    else if (stopped) keep(item, stopped);
    else {
      const outcome = await deleteItem(ctx, remove.operationId, item);
      if (outcome === 'deleted') deleted++;
      else if (outcome.startsWith('stopped: ')) keep(item, (stopped = outcome.slice(9)));
      else keep(item, outcome);
    }
  }
  if (deleted > 0)
    ctx.note(
      'resource.cleanup',
      `deleted at the end: ${deleted} item${deleted === 1 ? '' : 's'} this run created and left`,
    );
  for (const [key, { ids, why }] of kept)
    ctx.note(
      'resource.cleanup',
      `${key.split('\u0000')[0]}: left behind ${ids.length} item${ids.length === 1 ? '' : 's'} this run created (${why}): ${shownIds(ids)}`,
    );
}

/** Sends the delete of one item; `deleted` (a 2xx, or a 404/410: already gone), else why not. */
async function deleteItem(ctx: CaseContext, operation: string, item: RunItem): Promise<string> {
  try {
    const { sent } = await ctx.probe({ operation, path: item.path });
    if (sent.status !== undefined && ((sent.status >= 200 && sent.status < 300) || [404, 410].includes(sent.status)))
      return 'deleted';
    return `its delete was answered ${sent.status ?? sent.error ?? 'with nothing'}`;
  } catch (error) {
    if (error instanceof RequestCapReached) return `stopped: ${error.message}`;
    if (error instanceof StopRun) return `stopped: ${error.message}`;
    throw error;
  }
}

function depth(collection: ResourceCollection): number {
  return collection.path.split('/').length;
}

function shownIds(ids: string[]): string {
  const shown = ids.slice(0, SHOWN_IDS).join(', ');
  return ids.length > SHOWN_IDS ? `${shown} and ${ids.length - SHOWN_IDS} more` : shown;
}
