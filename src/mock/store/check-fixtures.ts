import { InputFileError } from '../../input-errors.js';
import { describeErrors } from '../../openapi/describe-errors.js';
import type { Spec } from '../../openapi/spec.js';
import { MAX_PET_ID, type Pet } from './pet-store.js';

/**
 * Checks seed pets against the document's `Pet` schema, so that the mock never serves a response its own contract
 * forbids; the message names the file (or option), record and field. No file access: the browser build checks
 * fixtures given as values with it.
 */
export function checkFixtures(records: unknown, file: string, spec: Spec): Pet[] {
  if (!Array.isArray(records)) throw new InputFileError(`${file}: must hold a JSON array of Pet records`);
  const validate = spec.schema('Pet');
  // Keyed by digits: a caller's bigint 5n and a parsed 5 are the same id.
  const ids = new Map<string, number>();
  records.forEach((record: unknown, index) => {
    const label = `${file}: record ${index}${idOf(record)}`;
    if (!validate(record)) {
      const [first] = describeErrors(validate.errors, 'pet');
      throw new InputFileError(`${label}: ${first?.message ?? 'does not match the Pet schema'}`);
    }
    const id = (record as Pet).id;
    // Every int64 but the largest: the store's next id is one above every id and must itself be an int64.
    if (id > MAX_PET_ID)
      throw new InputFileError(
        `${label}: pet.id must be at most ${MAX_PET_ID} (2^63 − 2: the next id, one above every id, must be an int64)`,
      );
    const key = String(id);
    const earlier = ids.get(key);
    if (earlier !== undefined) throw new InputFileError(`${label}: pet.id ${key} is already used by record ${earlier}`);
    ids.set(key, index);
  });
  return records as Pet[];
}

function idOf(record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'bigint' ? ` (id ${id})` : '';
}
