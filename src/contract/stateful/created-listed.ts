import { listMaxItems } from '../../openapi/list-wrapper.js';
import { show } from '../generate/same-pet.js';
import { mayBeCutShort } from '../engine/page-bounds.js';
import { announcesNextPage } from '../engine/next-page.js';
import { rowsOf } from './gone-from-list.js';
import { succeeded, type ItemRequests } from './resource-items.js';

/**
 * How many items the case has made and read back before it lists them: more than a server that stops its list at a
 * few items of its own (no page parameter, no `next` link) shows.
 */
export const LISTED_ITEMS = 4;

/**
 * RFC 9110 §9.3.1: a GET transfers "a current selected representation for the target resource", and for a list that
 * takes no page parameter, whose answer sets no `maxItems` and links to no next page (RFC 8288 §3.3, next-page.ts),
 * that representation is the whole collection: every item the case created and read back is in it (no stale index,
 * no silent page). Lists that take a `limit` are judged by resource.limit and the sequences.
 * @example await createdListed(items, firstId) // creates LISTED_ITEMS - 1 more, reads each, lists once
 */
export async function createdListed(items: ItemRequests, first: string): Promise<void> {
  const list = items.role('list');
  const { collection, ctx } = items;
  if (!list || collection.limit !== undefined) return;
  const made = [first];
  for (let i = 1; i < LISTED_ITEMS; i++) {
    const item = await items.create(`listed-${i}`, 'resource.created-readable');
    const read = await items.send('read', item.id);
    if (succeeded(read)) made.push(item.id);
  }
  const listed = await items.list({});
  const rows = rowsOf(listed, list.wrapper);
  if (!rows || announcesNextPage(listed, list.wrapper)) return;
  if (mayBeCutShort(rows.length, listMaxItems(list), false)) return;
  const ids = new Set(rows.map((row) => String(row[collection.id.property])));
  const missing = made.filter((id) => !ids.has(id));
  ctx.verify(
    'resource.created-readable',
    listed,
    missing.length === 0,
    `every ${collection.id.property} created and read back (${made.join(', ')}) in ${list.operationId}, which takes no page parameter and links to no next page`,
    `${rows.length} items, without ${show(missing)}`,
  );
}
