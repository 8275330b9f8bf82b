import type { Spec } from '../../openapi/load-spec.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import { MAX_NEXT_ID, type CollectionSnapshot, type ItemId } from '../store/collection-store.js';
import type { StoreState } from '../store/resource-store.js';
import { checkItems } from '../store/check-fixtures.js';
import { InputFileError } from '../../input-errors.js';
import { maxInt64, normaliseInteger, plusOne, type Int64 } from '../../json/int64.js';

/**
 * The store's state as JSON (`GET`/`PUT /__admin/state`, `snapshot()`/`restore()`, the `--state` file), in one of
 * two forms:
 * - one collection: `{"pets": [Pet, …], "nextId": 4}` — its items under its name, as every release before wrote it;
 * - several: `{"collections": {"pets": {"items": […], "nextId": 4}, "store/orders": {…}}}`.
 * A store writes the first form when the document has one collection, the second otherwise; both are read.
 */
export type StateJson = Record<string, unknown>;

/** The JSON form of a store's state (see StateJson). */
export function stateJson(state: StoreState): StateJson {
  const names = Object.keys(state);
  if (names.length === 1 && !state[names[0]!]!.parents) {
    const [name] = names as [string];
    return { [name]: state[name]!.items, nextId: state[name]!.nextId };
  }
  const collections: Record<string, CollectionSnapshot> = {};
  for (const name of names) collections[name] = state[name]!;
  return { collections };
}

/**
 * Checks a state in either JSON form against the document: every item against its collection's item schema with
 * unique ids, as fixtures are, and `nextId` above every int64 id. `nextId` may be left out: it is then the highest
 * id + 1. Throws an InputFileError whose message is rooted at `where` (`body`, `snapshot`, `state.json: state`) and
 * names the field and the rule.
 */
export function parseSnapshot(value: unknown, spec: Spec, where: string): StoreState {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputFileError(`${where} must be a JSON object ${expectedForm(spec)}`);
  }
  const record = value as Record<string, unknown>;
  const collections = spec.resources.collections;
  if (record.collections !== undefined) {
    const named = record.collections;
    if (typeof named !== 'object' || named === null || Array.isArray(named)) {
      throw new InputFileError(`${where}.collections must be an object of collections by name`);
    }
    const state: StoreState = {};
    for (const [name, part] of Object.entries(named as Record<string, unknown>)) {
      const collection = collections.find((c) => c.name === name);
      if (!collection) {
        throw new InputFileError(
          `${where}.collections.${name} is no collection of the document (its collections: ${collections.map((c) => c.name).join(', ') || 'none'})`,
        );
      }
      if (typeof part !== 'object' || part === null || Array.isArray(part)) {
        throw new InputFileError(`${where}.collections.${name} must be an object {"items": […], "nextId": integer}`);
      }
      const { items, nextId, parents } = part as { items?: unknown; nextId?: unknown; parents?: unknown };
      if (items === undefined) throw new InputFileError(`${where}.collections.${name}.items is required`);
      state[name] = collectionState(spec, collection, items, nextId, parents, `${where}.collections.${name}`);
    }
    return state;
  }
  const named = collections.filter((c) => record[c.name] !== undefined);
  const first = collections.find((c) => c.parent === undefined);
  if (named.length === 0) {
    if (!first) throw new InputFileError(`${where}: the document has no collection to hold a state`);
    throw new InputFileError(`${where}.${first.name} is required`);
  }
  if (named.length > 1) {
    throw new InputFileError(
      `${where}: the one-collection form holds one collection (got ${named.map((c) => c.name).join(', ')}); use {"collections": {…}} for several`,
    );
  }
  const collection = named[0]!;
  return {
    [collection.name]: collectionState(
      spec,
      collection,
      record[collection.name],
      record.nextId,
      undefined,
      where,
      collection.name,
    ),
  };
}

function collectionState(
  spec: Spec,
  collection: ResourceCollection,
  items: unknown,
  nextId: unknown,
  parents: unknown,
  where: string,
  itemsKey = 'items',
): CollectionSnapshot {
  const checked = checkItems(items, `${where}.${itemsKey}`, spec, collection);
  const needsParents = collection.parent !== undefined && collection.parent.property === undefined;
  let parentIds: ItemId[] | undefined;
  if (needsParents) {
    if (!Array.isArray(parents) || parents.length !== checked.length) {
      throw new InputFileError(`${where}.parents must be an array with one parent id per item`);
    }
    parentIds = parents as ItemId[];
  }
  const ids = checked.map((item) => item[collection.id.property]);
  const highest = ids.reduce<Int64>((max, id) => (isInteger(id) ? maxInt64(max, id) : max), 0);
  const after = collection.id.kind === 'int64' ? plusOne(highest) : 1;
  const snapshot: CollectionSnapshot = { items: checked, nextId: after };
  if (parentIds) snapshot.parents = parentIds;
  if (nextId === undefined) return snapshot;
  const next = toNextId(nextId);
  if (next === undefined && isInteger(nextId) && nextId > MAX_NEXT_ID) {
    throw new InputFileError(
      `${where}.nextId must be at most ${MAX_NEXT_ID} (2^63 − 1, the largest int64; got ${describeValue(nextId)})`,
    );
  }
  if (next === undefined || next <= highest) {
    throw new InputFileError(
      `${where}.nextId must be an integer greater than every ${nounFor(collection)} id (highest: ${highest}; got ${describeValue(nextId)})`,
    );
  }
  snapshot.nextId = next;
  return snapshot;
}

function nounFor(collection: ResourceCollection): string {
  const last = collection.name.split('/').at(-1)!;
  return last.endsWith('s') ? last.slice(0, -1) : last;
}

function expectedForm(spec: Spec): string {
  const first = spec.resources.collections.find((c) => c.parent === undefined);
  const title = first ? first.name : 'items';
  const noun = first ? nounFor(first) : 'item';
  return `{"${title}": [${noun.charAt(0).toUpperCase() + noun.slice(1)}, …], "nextId": integer}`;
}

/**
 * A `nextId` read from JSON (parse-json.ts gives a bigint past 2^53 − 1) in its in-memory form (a number while safe,
 * else a bigint), or undefined when it is not a whole number from 1 to MAX_NEXT_ID.
 */
export function toNextId(value: unknown): Int64 | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  return typeof value === 'bigint' && value >= 1n && value <= MAX_NEXT_ID ? normaliseInteger(value) : undefined;
}

/** An integer as JSON gives it: a whole number (a double, maybe unsafe) or a bigint. */
function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

/** A value as the message shows it: JSON, with a bigint's digits (JSON.stringify throws on one). */
function describeValue(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value));
}
