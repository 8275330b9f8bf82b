import type { Spec } from '../../openapi/load-spec.js';
import type { Pet } from '../store/pet-store.js';
import { readJsonFile } from '../../fs/read-json-file.js';
import { checkFixtures } from '../store/check-fixtures.js';

export { checkFixtures } from '../store/check-fixtures.js';

/**
 * Reads the seed pets and checks each against the document's `Pet` schema, so that the mock never serves a
 * response its own contract forbids. A bad file stops start-up with a message naming the file, record and field.
 */
export async function loadFixtures(file: string, spec: Spec): Promise<Pet[]> {
  const records = await readJsonFile(file);
  return checkFixtures(records, file, spec);
}
