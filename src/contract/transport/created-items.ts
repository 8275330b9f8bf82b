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
 * Called by the sender after each answer: a 2xx to a create of the resource model naming an id (createdIdOf) adds an
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
    const id = createdIdOf(exchange, collection);
    if (id === undefined) return;
    const path = { ...exchange.pathValues, [collection.itemParameter]: id };
    items.set(keyOf(collection, path), { collection, id, path, deleted: false });
  } else if (role.role === 'delete' && exchange.pathValues) {
    const item = items.get(keyOf(collection, exchange.pathValues));
    if (item) item.deleted = true;
  }
}

/**
 * The id of the item a create made, as its answer names it: the id property of the body where the answer carries the
 * item, else the last segment of its `Location` (RFC 9110 §15.3.2: the created resource "is identified by either a
 * Location header field in the response or, if no Location header field is received, by the target URI"), resolved
 * against the create's URL (§10.2.2) and directly under it: a 201 declared without content names its item so. Text,
 * for a path; undefined when the answer names none.
 * @example createdIdOf({ body: undefined, headers: { location: '/v1/things/7' }, url: 'http://h/v1/things' }, things) // '7'
 */
export function createdIdOf(
  answer: Pick<Exchange, 'body' | 'headers' | 'url'>,
  collection: Pick<ResourceCollection, 'id'>,
): string | undefined {
  const id = (answer.body as Record<string, unknown> | null | undefined)?.[collection.id.property];
  if (typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint') return String(id);
  const location = answer.headers.location;
  if (!location) return undefined;
  let named: URL;
  let created: URL;
  try {
    created = new URL(answer.url);
    named = new URL(location, created);
  } catch {
    return undefined;
  }
  const under = `${created.pathname.replace(/\/+$/, '')}/`;
  if (named.origin !== created.origin || !named.pathname.startsWith(under)) return undefined;
  const segment = named.pathname.slice(under.length).replace(/\/$/, '');
  if (segment === '' || segment.includes('/')) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function keyOf(collection: ResourceCollection, path: Record<string, string>): string {
  return `${collection.name}\u0000${JSON.stringify(Object.entries(path).sort(([a], [b]) => a.localeCompare(b)))}`;
}
