import type { Spec } from '../openapi/load-spec.js';
import { MAX_ITEM_ID, type Pet } from '../mock/store/collection-store.js';
import { parseJson } from '../json/parse-json.js';
import { compareInt64 } from '../json/int64.js';
import { checkFixtures } from '../mock/document/load-fixtures.js';
import { readHarEntries } from './har-recorder.js';
import { InputFileError } from '../input-errors.js';

/** What `fixtures --from-har` found. */
export interface HarPets {
  pets: Pet[];
  /** Entries read, and how many of their 2xx JSON answers held pets. */
  entries: number;
  answersWithPets: number;
  /** Objects that looked like pets (an `id`) but broke the Pet schema or the store's id bound (2^63 − 2, MAX_ITEM_ID), left out. */
  rejected: number;
}

/**
 * The pets seen in a recording's answers, as a fixtures file the mock accepts: every 2xx JSON answer's body (a pet,
 * or a list of them) is searched, each object checked against the document's `Pet` schema, and pets are deduplicated
 * by id, the latest answer winning (it shows the pet as it was last). Sorted by id, as a store lists them.
 */
export function petsFromHar(text: string, spec: Spec, file: string): HarPets {
  let entries;
  try {
    entries = readHarEntries(text, parseJson);
  } catch (error) {
    throw new InputFileError(`${file}: not a HAR file (${(error as Error).message})`);
  }
  const validate = spec.schema('Pet');
  const byId = new Map<string, Pet>();
  let answersWithPets = 0;
  let rejected = 0;
  for (const entry of entries) {
    const response = entry?.response;
    const status = response?.status ?? 0;
    const content = response?.content;
    if (status < 200 || status >= 300 || typeof content?.text !== 'string' || !/json/i.test(content.mimeType ?? ''))
      continue;
    let body: unknown;
    try {
      body = parseJson(
        content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text,
      );
    } catch {
      continue;
    }
    let found = false;
    for (const candidate of Array.isArray(body) ? body : [body]) {
      if (candidate === null || typeof candidate !== 'object' || !('id' in candidate)) continue;
      if (!validate(candidate) || (candidate as Pet).id > MAX_ITEM_ID) {
        rejected += 1;
        continue;
      }
      found = true;
      const pet = candidate as Pet;
      byId.set(String(pet.id), pet);
    }
    if (found) answersWithPets += 1;
  }
  const pets = [...byId.values()].sort((a, b) => compareInt64(a.id, b.id));
  // The same check the mock makes at start-up: what is written here is accepted there.
  checkFixtures(pets, file, spec);
  return { pets, entries: entries.length, answersWithPets, rejected };
}
