import { createHash } from 'node:crypto';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import type { Session } from './session.js';

/**
 * Ids the run names for items it creates, where the document makes the id the client's (`IdRule.clientSends`: the
 * create's body declares the id property, `readOnly` nowhere; OpenAPI 3.0.3 §4.7.24.1). Such an id is the item's key,
 * so two creates naming one id are one item and a conflict (RFC 9110 §15.5.10), the server's right to refuse. An id
 * a body fills with its smallest value (`id: 1`) or an example's UUID is taken after the first create of a run, or
 * by a seed; each body the run builds gets one of its own instead: unique in the run (a counter per run) and unlikely
 * to be any other run's (derived from the run id), deterministic for a given `--run-id`.
 */

/** The next counter value of each run (keyed by its session). */
const counters = new WeakMap<Session, { next: number }>();

/** How many ids one run takes from its own block of integers (ten times the default --max-requests). */
const BLOCK = 100_000;

/**
 * A run's own block of integers: within int32 (a `format: int32` id holds it), above the small ids seeds use. Taken
 * downwards from its top: a server whose counter continues above the highest id a client named (as our mock's does,
 * docs/mock.md "Ids") hands out ids above the block, never one the run names next.
 */
function integerFrom(runId: string, n: number): number {
  return 1_000_000_000 + (fold(runId) % 10_000) * BLOCK + (BLOCK - 1 - (n % BLOCK));
}

function fold(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return hash;
}

/** RFC 9562 §5.4's layout (version 4, variant 10), its bits taken from the run id and the counter. */
function uuidFrom(runId: string, n: number): string {
  const hex = createHash('sha256').update(`${runId}:${n}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A new id for an item of `collection`, of the id's kind; never the same twice in one run. */
export function freshId(session: Session, collection: Pick<ResourceCollection, 'id'>): string | number {
  let counter = counters.get(session);
  if (!counter) counters.set(session, (counter = { next: 0 }));
  const n = counter.next++;
  const { runId } = session.config;
  switch (collection.id.kind) {
    case 'int64':
      return integerFrom(runId, n);
    case 'uuid':
      return uuidFrom(runId, n);
    default:
      return `contract-${runId}-id${n}`;
  }
}

/**
 * `body` with its id replaced by a fresh one, where the client names the id and the body sends one; the body as it
 * was when the client does not name it, or when the document's validator (`accepts`) refuses the fresh id (a
 * `maximum`, a `pattern`, an `enum` of ids): then the body's own id is the only valid one it has, and is sent.
 */
export function withFreshId<T>(
  session: Session,
  collection: Pick<ResourceCollection, 'id'>,
  body: T,
  accepts: (body: unknown) => boolean,
): T {
  const { property, clientSends } = collection.id;
  if (!clientSends || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  if (record[property] === undefined || record[property] === null) return body;
  const fresh = { ...record, [property]: freshId(session, collection) };
  return (accepts(fresh) ? fresh : body) as T;
}

/** What a create naming a taken id may be answered: RFC 9110 §15.5.10's 409, or the 400 a document declares for it. */
const TAKEN_STATUSES = [400, 409];

/**
 * Whether a create's refusal is the server's right because the id the body names is taken: the client names ids,
 * the answer is a 409 or 400, and a read of that id (`read`, the collection's read sent for the id) finds an item.
 * A run names fresh ids, so this is rare; a seed or another client may hold one all the same.
 */
export async function refusedAsTaken(
  collection: Pick<ResourceCollection, 'id' | 'operations'>,
  body: unknown,
  status: number | undefined,
  read: (id: string) => Promise<{ status?: number }>,
): Promise<boolean> {
  const { property, clientSends } = collection.id;
  if (!clientSends || !collection.operations.read || !TAKEN_STATUSES.includes(status ?? 0)) return false;
  const id = (body as Record<string, unknown> | null | undefined)?.[property];
  if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') return false;
  const found = await read(String(id));
  return found.status !== undefined && found.status >= 200 && found.status < 300;
}
