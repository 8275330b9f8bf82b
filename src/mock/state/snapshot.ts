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
  const next = toNextId(nextId);
  if (
    next === undefined &&
    (typeof nextId === 'bigint' || (typeof nextId === 'number' && Number.isInteger(nextId) && nextId > MAX_NEXT_ID))
  ) {
    throw new InputFileError(
      `${where}.nextId must be at most ${MAX_NEXT_ID} (2^53: ids stay within the safe-integer range; got ${describeValue(nextId)})`,
    );
  }
  if (next === undefined || next <= highest) {
    throw new InputFileError(
      `${where}.nextId must be an integer greater than every pet id (highest: ${highest}; got ${describeValue(nextId)})`,
    );
  }
  return { pets: checked, nextId: next };
}

/**
 * The largest `nextId` a store holds: the one after the last safe id (2^53 − 1), which the store reaches when it
 * hands that id out; a create then gets 409 `store_full`. 2^53 is exactly a double, so it stays a number.
 */
export const MAX_NEXT_ID = 2 ** 53;

/**
 * A `nextId` read from JSON (parse-json.ts gives a bigint past 2^53 − 1) as the store keeps it, or undefined when it
 * is not a whole number from 1 to MAX_NEXT_ID.
 */
export function toNextId(value: unknown): number | undefined {
  const number = typeof value === 'bigint' && value <= BigInt(MAX_NEXT_ID) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= MAX_NEXT_ID
    ? number
    : undefined;
}

/** A value as the message shows it: JSON, with a bigint's digits (JSON.stringify throws on one). */
function describeValue(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? String(value));
}
