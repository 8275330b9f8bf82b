import type { Spec } from '../../openapi/load-spec.js';
import type { StoreSnapshot } from '../store/pet-store.js';
import { checkFixtures } from '../store/check-fixtures.js';
import { InputFileError } from '../../input-errors.js';

/**
 * Checks a state snapshot `{ pets: Pet[], nextId?: number }` (from `PUT /__admin/state`, `restore()` or a
 * `--state` file): every pet against the document's Pet schema with unique ids, as fixtures are, and `nextId`
 * above every id. `nextId` may be left out: it is then the highest id + 1. Throws a InputFileError whose message is
 * rooted at `where` (`body`, `snapshot`, `state.json: state`) and names the field and the rule.
 */
export function parseSnapshot(value: unknown, spec: Spec, where: string): StoreSnapshot {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputFileError(`${where} must be a JSON object {"pets": [Pet, …], "nextId": integer}`);
  }
  const { pets, nextId } = value as { pets?: unknown; nextId?: unknown };
  if (pets === undefined) throw new InputFileError(`${where}.pets is required`);
  const checked = checkFixtures(pets, `${where}.pets`, spec);
  const highest = checked.reduce((max, pet) => Math.max(max, pet.id), 0);
  if (nextId === undefined) return { pets: checked, nextId: highest + 1 };
  if (!Number.isSafeInteger(nextId) || (nextId as number) <= highest) {
    throw new InputFileError(`${where}.nextId must be an integer greater than every pet id (highest: ${highest}; got ${JSON.stringify(nextId)})`);
  }
  return { pets: checked, nextId: nextId as number };
}
