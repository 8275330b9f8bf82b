import type { CheckId } from '../base/check-ids.js';
import { show } from '../generate/same-pet.js';
import { differenceFrom } from './resource-items.js';

/** One item a sequence created, as the target must now hold it. */
export interface ModelItem {
  id: string;
  /** Every field the item must hold, with its value (what was created, replaced or merged into it). */
  expected: Record<string, unknown>;
  /** Fields the item must no longer hold: left out of a PUT, or set to null by a merge patch. */
  absent: Set<string>;
  /** The check whose write made the item what it is now: a difference read back is that write's fault. */
  by: CheckId;
  /** True once a read showed the item as expected since its last write: only then may a list be held to it. */
  confirmed: boolean;
}

/**
 * What a sequence over one collection knows the target must hold: the items it created, their state after each
 * write, and the ids it deleted. Other items may exist (seeds, other sequences, other clients): the model claims
 * nothing of them.
 */
export class ResourceState {
  readonly items = new Map<string, ModelItem>();
  /**
   * Ids this sequence deleted, each with what the item held then: an answer that is another item (an id reused after
   * a delete, which nothing forbids) is told apart from the deleted one still there.
   */
  readonly deleted = new Map<string, Record<string, unknown>>();

  /** An item the sequence made: by a create, or by a PUT that created it (`by`: the check that write answers to). */
  add(id: string, expected: Record<string, unknown>, by: CheckId = 'resource.created-readable'): void {
    this.items.set(id, { id, expected, absent: new Set(), by, confirmed: false });
    this.deleted.delete(id);
  }

  /** The live item at `pick` (modulo), or undefined when the sequence holds none. */
  pick(pick: number): ModelItem | undefined {
    const items = [...this.items.values()];
    return items.length === 0 ? undefined : items[pick % items.length];
  }

  remove(id: string): void {
    const item = this.items.get(id);
    this.items.delete(id);
    this.deleted.set(id, item?.expected ?? {});
  }
}

/** Whether an answer is the item this sequence deleted as `id` (it holds every field the item last held). */
export function stillThere(state: ResourceState, id: string, answer: unknown): boolean {
  const last = state.deleted.get(id);
  return last !== undefined && differenceFrom(last, answer) === undefined;
}

/** How the write that made an item removed a field, in a failure's words. */
const REMOVED_BY: Partial<Record<CheckId, string>> = {
  'resource.merge-patch': 'merge patch set it to null',
  'resource.json-patch': 'JSON Patch removed it',
};

/** What of `item` an answer fails to hold: a field not as expected, or one that should be gone; else undefined. */
export function itemDifference(item: ModelItem, answer: unknown): string | undefined {
  const difference = differenceFrom(item.expected, answer);
  if (difference) return difference;
  const body = answer as Record<string, unknown>;
  const kept = [...item.absent].find((name) => body[name] !== undefined);
  return kept === undefined
    ? undefined
    : `${kept} ${show(body[kept])} still there, though the last ${REMOVED_BY[item.by] ?? 'replacement left it out'}`;
}
