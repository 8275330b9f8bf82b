/**
 * The check ids of the resource model's oracles, written out here (not read from the code under test): the item
 * oracles (src/contract/stateful/resource-oracles.ts) and the collection oracles (collection-oracles.ts).
 */
export const ITEM_ORACLE_CHECKS: readonly string[] = [
  'resource.created-readable',
  'resource.filter',
  'resource.replace-exact',
  'resource.merge-patch',
  'resource.delete-gone',
  'resource.refused-unchanged',
  'resource.unknown-id',
];

export const COLLECTION_ORACLE_CHECKS: readonly string[] = [
  'resource.refused-create',
  'resource.unique-ids',
  'resource.nested-parent',
  'resource.children-gone',
  'resource.limit',
  'resource.create-echo',
];
