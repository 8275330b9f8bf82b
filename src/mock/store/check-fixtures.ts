import { InputFileError } from '../../input-errors.js';
import { describeErrors } from '../../openapi/describe-errors.js';
import type { Spec } from '../../openapi/spec.js';
import type { Pet } from './pet-store.js';

/**
 * Checks seed pets against the document's `Pet` schema, so that the mock never serves a response its own contract
 * forbids; the message names the file (or option), record and field. No file access: the browser build checks
 * fixtures given as values with it.
 */
export function checkFixtures(records: unknown, file: string, spec: Spec): Pet[] {
  if (!Array.isArray(records)) throw new InputFileError(`${file}: must hold a JSON array of Pet records`);
  const validate = spec.schema('Pet');
  const ids = new Map<number, number>();
  records.forEach((record: unknown, index) => {
    const label = `${file}: record ${index}${idOf(record)}`;
    if (!validate(record)) {
      const [first] = describeErrors(validate.errors, 'pet');
      throw new InputFileError(`${label}: ${first?.message ?? 'does not match the Pet schema'}`);
    }
    const id = (record as Pet).id;
    // int64 says more, but ids are the store's to assign and stay within ±(2^53−1) (docs/decisions.md).
    if (typeof id !== 'number')
      throw new InputFileError(
        `${label}: pet.id must be at most 9007199254740991 (2^53-1): ids stay within the safe-integer range`,
      );
    const earlier = ids.get(id);
    if (earlier !== undefined) throw new InputFileError(`${label}: pet.id ${id} is already used by record ${earlier}`);
    ids.set(id, index);
  });
  return records as Pet[];
}

function idOf(record: unknown): string {
  const id = (record as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? ` (id ${id})` : '';
}
