import type { ResourceCollection, ResourceModel } from '../../openapi/resource-types.js';
import type { CollectionRule } from './collection-store.js';

/**
 * How the store makes and keeps each collection's items, from the resource model: the id property and kind; the
 * stored properties in the item schema's order (then those only a request declares), the id and the parent's
 * property left to their own rules; what one item is called in messages.
 */
export function collectionRules(model: ResourceModel): Map<string, CollectionRule> {
  return new Map(model.collections.map((collection) => [collection.name, collectionRule(collection)]));
}

export function collectionRule(collection: ResourceCollection): CollectionRule {
  const { id, parent } = collection;
  const requested = [
    ...(collection.operations.create?.request?.properties ?? []),
    ...(collection.operations.replace?.request?.properties ?? []),
  ];
  const unknownShape =
    collection.itemProperties === undefined ||
    (collection.operations.create !== undefined && collection.operations.create.request?.properties === undefined);
  const fields = unknownShape
    ? undefined
    : [...new Set([...collection.itemProperties!, ...requested])].filter(
        (name) => name !== id.property && name !== parent?.property,
      );
  return {
    idProperty: id.property,
    idKind: id.kind,
    fields,
    parentProperty: parent?.property,
    nested: parent !== undefined,
    parentCollection: parent?.collection,
    filters: [...new Set(collection.filters.map((filter) => filter.property))],
    noun: nounOf(collection.name),
  };
}

/** `pets` → `pet`, `store/orders` → `order`, `categories` → `category`: the last segment, singular by English rule. */
export function nounOf(name: string): string {
  const last = name.split('/').at(-1) ?? name;
  if (/ies$/.test(last)) return last.slice(0, -3) + 'y';
  if (/(ss|x|ch|sh)es$/.test(last)) return last.slice(0, -2);
  if (/[^s]s$/.test(last)) return last.slice(0, -1);
  return last;
}
