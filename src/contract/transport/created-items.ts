import type { Exchange } from '../base/exchange.js';
import type { Session } from '../base/session.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';

/** One item the run created (a 2xx to a create of the resource model), and how to name it in a path. */
export interface RunItem {
  collection: ResourceCollection;
  id: string;
  /** The item's path parameters: its parent's id (nested collections) and its own. */
  path: Record<string, string>;
  /** True once a delete of it got a 2xx (from any case, or the clean-up). */
  deleted: boolean;
}

/** The items each run created, in the order their creates were answered; keyed by the session (one run). */
const itemsOfRun = new WeakMap<Session, Map<string, RunItem>>();

/** Every item the run created, as far as the answers to its creates tell (deleted ones marked). */
export function runItems(session: Session): RunItem[] {
  return [...(itemsOfRun.get(session)?.values() ?? [])];
}

/**
 * Called by the sender after each answer: a 2xx to a create of the resource model with an id in its body adds an
 * item the run made; a 2xx to a delete of one marks it deleted. Only what the run created is ever listed, so the
 * clean-up never touches an item it did not make (seeds, other clients' items).
 */
export function trackCreated(session: Session, exchange: Exchange): void {
  if (exchange.status === undefined || exchange.status < 200 || exchange.status >= 300) return;
  const role = session.spec.resources.operations.find((o) => o.operationId === exchange.operation);
  const collection = session.spec.resources.collections.find((c) => c.name === role?.collection);
  if (!role || !collection?.itemParameter) return;
  let items = itemsOfRun.get(session);
  if (!items) itemsOfRun.set(session, (items = new Map<string, RunItem>()));
  if (role.role === 'create') {
    const id = (exchange.body as Record<string, unknown> | undefined)?.[collection.id.property];
    if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') return;
    const path = { ...exchange.pathValues, [collection.itemParameter]: String(id) };
    items.set(keyOf(collection, path), { collection, id: String(id), path, deleted: false });
  } else if (role.role === 'delete' && exchange.pathValues) {
    const item = items.get(keyOf(collection, exchange.pathValues));
    if (item) item.deleted = true;
  }
}

function keyOf(collection: ResourceCollection, path: Record<string, string>): string {
  return `${collection.name}\u0000${JSON.stringify(Object.entries(path).sort(([a], [b]) => a.localeCompare(b)))}`;
}
