import { dirname, join, resolve } from 'node:path';
import { defaultFixturesFile, defaultSpecFile } from '../../paths.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { ResourceCollection } from '../../openapi/resource-model.js';
import type { Pet } from '../store/collection-store.js';
import type { CollectionSeed, StoreSeeds } from '../store/resource-store.js';
import { readJsonFile } from '../../fs/read-json-file.js';
import { checkFixtures, checkItems, fixtureCollection, namedLike } from '../store/check-fixtures.js';
import { examplesOf } from '../store/example-seeds.js';

export { checkFixtures } from '../store/check-fixtures.js';

/**
 * Reads the seed pets and checks each against the document's `Pet` schema, so that the mock never serves a
 * response its own contract forbids. A bad file stops start-up with a message naming the file, record and field.
 */
export async function loadFixtures(file: string, spec: Spec): Promise<Pet[]> {
  const records = await readJsonFile(file);
  return checkFixtures(records, file, spec);
}

/**
 * Every collection's seed: the fixtures file seeds the collection named like it (`pets.json` → `pets`); each other
 * top-level collection is seeded from `<name>.json` in the same folder (`store/orders.json`) when it exists, else
 * from the examples the document gives its items. The package's own fixtures (`bundled`) seed only a collection named
 * like them. Each record is checked against its item schema; a bad one stops
 * the start naming the file, the record and the rule.
 */
export async function loadSeeds(file: string, spec: Spec, options: { bundled?: boolean } = {}): Promise<StoreSeeds> {
  const seeds = new Map<string, CollectionSeed>();
  // The package's own fixtures are pets: they seed a collection named like them or none, never another document's
  // first collection (an orders-only document would refuse them at start as orders).
  const main = options.bundled ? namedLike(spec, file) : fixtureCollection(spec, file);
  if (main) seeds.set(main.name, { items: await loadFixtures(file, spec) });
  for (const collection of spec.resources.collections) {
    if (collection === main || collection.parent !== undefined) continue;
    const sibling = join(dirname(file), `${collection.name}.json`);
    const records = await readJsonFile(sibling, { missingOk: true });
    const items =
      records === undefined ? seedExamples(collection, spec) : checkItems(records, sibling, spec, collection);
    seeds.set(collection.name, { items });
  }
  return seeds;
}

/**
 * The seeds when no fixtures are named: the bundled fixtures for the bundled document only (a pet of ours is no
 * record of another document's, whatever its collection is called); another document's from its own fixtures
 * folder, `fixtures/<collection>.json` beside the document (`fixtures/store/orders.json` for `/store/orders`), each
 * collection without a file from the examples of its list answer. A document given as a value or a URL has no
 * folder: its examples seed it.
 * @example await defaultSeeds('api/openapi.yaml', spec) // pets from api/fixtures/pets.json, if it exists
 */
export async function defaultSeeds(source: unknown, spec: Spec): Promise<StoreSeeds> {
  if (isBundledDocument(source)) return loadSeeds(defaultFixturesFile, spec, { bundled: true });
  const folder = ownFixturesFolder(source);
  const seeds = new Map<string, CollectionSeed>();
  for (const collection of spec.resources.collections) {
    if (collection.parent !== undefined) continue;
    const file = folder === undefined ? undefined : join(folder, `${collection.name}.json`);
    const records = file === undefined ? undefined : await readJsonFile(file, { missingOk: true });
    const items = records === undefined ? seedExamples(collection, spec) : checkItems(records, file!, spec, collection);
    seeds.set(collection.name, { items });
  }
  return seeds;
}

/** Whether a document source is the package's own `openapi.yaml` (the default when none is named). */
export function isBundledDocument(source: unknown): boolean {
  return source === undefined || (typeof source === 'string' && resolve(source) === defaultSpecFile);
}

/** Another document's fixtures folder: `fixtures/` beside its file; undefined for a value or a URL. */
export function ownFixturesFolder(source: unknown): string | undefined {
  if (typeof source !== 'string' || /^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return undefined;
  return join(dirname(resolve(source)), 'fixtures');
}

/** The seeds of fixtures given as values: the records of the first collection; the others from the examples. */
export function seedsOf(records: unknown, spec: Spec): StoreSeeds {
  const seeds = new Map<string, CollectionSeed>();
  const main = fixtureCollection(spec);
  if (main) seeds.set(main.name, { items: checkFixtures(records, 'fixtures', spec) });
  for (const collection of spec.resources.collections) {
    if (collection === main || collection.parent !== undefined) continue;
    seeds.set(collection.name, {
      items: seedExamples(collection, spec),
    });
  }
  return seeds;
}

/**
 * The examples of a collection's list answer that its item schema takes, as seeds: an example that breaks its
 * schema is the document's to fix (OpenAPI: examples SHOULD match; the examples check says where), never a record.
 */
function seedExamples(collection: ResourceCollection, spec: Spec): ReturnType<typeof checkItems> {
  const where = `the examples of ${collection.path}`;
  const valid = examplesOf(collection, spec.document).filter((record) => {
    try {
      checkItems([record], where, spec, collection);
      return true;
    } catch {
      return false;
    }
  });
  return checkItems(valid, where, spec, collection);
}
