import { objectShape } from '../../openapi/schema-shape.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import type { Sent } from '../engine/run-case.js';
import { show } from '../generate/same-pet.js';
import { itemPathMismatch, succeeded, type ItemRequests } from './resource-items.js';

/**
 * An item's own link, as a document may declare it: a member `self` inside an object member `links` of the item
 * (Bump.sh's Train Travel: `links: {self: https://api.example.com/bookings/{id}}`). RFC 8288 §2 makes a link "a typed
 * connection between two resources", its relation type a registered name (§2.1.1); the IANA Link Relations registry
 * gives `self` as "Conveys an identifier for the link's context" (RFC 4287 §4.2.7.2: it "identifies a resource
 * equivalent to the containing element"). The context of a link inside an item is that item, so `links.self` names
 * it: its own path in the collection that created it, as a `Location` does (resource-items.ts, itemPathMismatch).
 * Only the names exactly `links` and `self` are read, and only where the document declares them in the answer and a
 * client cannot write them: another name (`_links`, `href`) is another convention, which the document would have to
 * say it follows.
 */

/** The member that holds an item's links, and the registered relation read in it. */
const LINKS = 'links';
const SELF = 'self';

/**
 * Whether the collection's create or read answer declares `links.self` on the item and the create's request body
 * does not declare `links` (a member the client writes is the client's data, whatever its name).
 */
export function declaresSelfLink(collection: ResourceCollection): boolean {
  const { create, read } = collection.operations;
  if (objectShape(create?.request?.schema).properties[LINKS] !== undefined) return false;
  return [create, read].some((operation) => {
    const links = objectShape(operation?.success.schema).properties[LINKS];
    return links !== undefined && objectShape(links).properties[SELF] !== undefined;
  });
}

/** The `links.self` string of an answer's body, or undefined where it has none (the document makes it optional). */
export function selfLinkOf(body: unknown): string | undefined {
  const links = isJsonObject(body) ? body[LINKS] : undefined;
  const self = isJsonObject(links) ? links[SELF] : undefined;
  return typeof self === 'string' ? self : undefined;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Creates an item and reads it back: where the create's answer and the read's carry `links.self`, each resolves
 * (against the URL of its own request, RFC 3986 §5.1.3) to the item's own path. Where neither answer carries one,
 * nothing is judged: the case says so.
 */
export async function selfLinkNamesItem(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  const item = await items.create('self-link', 'resource.self-link');
  const read = await items.send('read', item.id);
  const path = new URL(items.itemUrl(item.id)).pathname;
  let judged = 0;
  for (const [answer, role] of [
    [item.created, 'create'],
    [read, 'read'],
  ] as const) {
    const self = succeeded(answer) ? selfLinkOf(answer.body) : undefined;
    if (self === undefined) continue;
    judged++;
    judgeSelfLink(items, answer, self, item.id, `${collection.operations[role]!.operationId}'s answer for ${path}`);
  }
  if (judged === 0)
    ctx.skip(
      `neither the answer of ${collection.operations.create!.operationId} nor that of ${collection.operations.read!.operationId} carries ${LINKS}.${SELF}`,
    );
}

function judgeSelfLink(items: ItemRequests, answer: Sent, self: string, id: string, where: string): void {
  const mismatch = itemPathMismatch(items, self, answer.url, id);
  items.ctx.verify(
    'resource.self-link',
    answer,
    mismatch === undefined,
    `${LINKS}.${SELF} of ${where} names that item (RFC 8288 §2; IANA link relation "self": "Conveys an identifier for the link's context")`,
    mismatch && `${LINKS}.${SELF} ${show(self)}, ${mismatch}`,
  );
}
