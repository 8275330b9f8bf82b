import type { Sent } from '../engine/run-case.js';
import { show } from '../generate/same-pet.js';
import { succeeded, type ItemRequests } from './resource-items.js';
import { listedItems } from '../../openapi/list-wrapper.js';

/**
 * The rows of a list answer, or undefined when it is no 2xx holding an array: the body itself, or for a list wrapped
 * in an object (the resource model's `wrapper`, list-wrapper.ts) the array in that property.
 */
export function rowsOf(listed: Sent, wrapper: string | undefined): Record<string, unknown>[] | undefined {
  if (!succeeded(listed)) return undefined;
  return listedItems(listed.body, wrapper) as Record<string, unknown>[] | undefined;
}

/**
 * RFC 9110 §9.3.5 and §15.5.5: a deleted item is gone from its collection's list as well as from its address (the
 * list part of resource.delete-gone). Its presence in any page is the failure; its absence needs no full list.
 */
export async function goneFromList(items: ItemRequests, id: string): Promise<void> {
  if (!items.role('list')) return;
  const { collection } = items;
  const query: Record<string, string> =
    collection.limit?.maximum === undefined ? {} : { [collection.limit.parameter]: String(collection.limit.maximum) };
  const listed = await items.list(query);
  const rows = rowsOf(listed, collection.operations.list?.wrapper);
  if (!rows) return;
  items.ctx.verify(
    'resource.delete-gone',
    listed,
    !rows.some((row) => String(row[collection.id.property]) === id),
    `the deleted ${collection.id.property} ${id} listed no more`,
    `still listed: ${show(rows.find((row) => String(row[collection.id.property]) === id))}`,
  );
}
