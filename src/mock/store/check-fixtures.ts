import { InputFileError } from '../../input-errors.js';
import { describeErrors } from '../../openapi/describe-errors.js';
import type { Spec } from '../../openapi/spec.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import type { ValidateFunction } from '../../openapi/ajv.js';
import { MAX_ITEM_ID, type Item, type Pet } from './collection-store.js';
import { nounOf } from './collection-rules.js';

/**
 * Checks seed items against their collection's item schema, so that the mock never serves a response its own
 * contract forbids; the message names the file (or option), record and field. No file access: the browser build
 * checks fixtures given as values with it.
 */
export function checkItems(records: unknown, file: string, spec: Spec, collection: ResourceCollection): Item[] {
  const noun = nounOf(collection.name);
  const title = noun.charAt(0).toUpperCase() + noun.slice(1);
  if (!Array.isArray(records)) throw new InputFileError(`${file}: must hold a JSON array of ${title} records`);
  const validate = itemValidator(spec, collection);
  const idProperty = collection.id.property;
  // Keyed by digits: a caller's bigint 5n and a parsed 5 are the same id.
  const ids = new Map<string, number>();
  records.forEach((record: unknown, index) => {
    const id = (record as Record<string, unknown> | null)?.[idProperty];
    const label = `${file}: record ${index}${describeId(id)}`;
    if (validate && !validate(record)) {
      const [first] = describeErrors(validate.errors, noun);
      throw new InputFileError(`${label}: ${first?.message ?? `does not match the ${title} schema`}`);
    }
    if (id === undefined || id === null) throw new InputFileError(`${label}: ${noun}.${idProperty} is required`);
    // Every int64 but the largest: the store's next id is one above every id and must itself be an int64.
    if (collection.id.kind === 'int64' && (id as bigint) > MAX_ITEM_ID)
      throw new InputFileError(
        `${label}: ${noun}.${idProperty} must be at most ${MAX_ITEM_ID} (2^63 − 2: the next id, one above every id, must be an int64)`,
      );
    const key = typeof id === 'bigint' ? id.toString() : typeof id === 'string' ? id : JSON.stringify(id);
    const earlier = ids.get(key);
    if (earlier !== undefined)
      throw new InputFileError(`${label}: ${noun}.${idProperty} ${key} is already used by record ${earlier}`);
    ids.set(key, index);
  });
  return records as Item[];
}

/**
 * Checks the fixtures of the collection they seed (`fixtures/pets.json` seeds `pets`): the collection named like
 * the file, else the document's first collection.
 */
export function checkFixtures(records: unknown, file: string, spec: Spec): Pet[] {
  const collection = fixtureCollection(spec, file);
  if (!collection) {
    if (Array.isArray(records) && records.length === 0) return [];
    throw new InputFileError(
      `${file}: the document has no collection to seed (docs/mock.md: Your document, your resources)`,
    );
  }
  return checkItems(records, file, spec, collection) as Pet[];
}

/** The collection a fixtures file seeds: named like the file (`pets.json` → `pets`), else the first. */
export function fixtureCollection(spec: Spec, file?: string): ResourceCollection | undefined {
  return namedLike(spec, file) ?? spec.resources.collections.find((c) => c.parent === undefined);
}

/** The collection named like a fixtures file (`pets.json` → `pets`), if any. */
export function namedLike(spec: Spec, file: string | undefined): ResourceCollection | undefined {
  const base = file
    ?.split(/[\\/]/)
    .at(-1)
    ?.replace(/\.json$/, '');
  return spec.resources.collections.find((c) => c.name === base);
}

const validators = new WeakMap<object, ValidateFunction>();

/** The item schema compiled once per document (a reload's new document compiles its own). */
export function itemValidator(spec: Spec, collection: ResourceCollection): ValidateFunction | undefined {
  const schema = collection.itemSchema;
  if (!schema) return undefined;
  let validate = validators.get(schema);
  if (!validate) {
    validate = spec.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

function describeId(id: unknown): string {
  return typeof id === 'number' || typeof id === 'bigint' || typeof id === 'string' ? ` (id ${String(id)})` : '';
}
