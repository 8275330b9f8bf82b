import type { Spec } from '../../openapi/load-spec.js';
import { MAX_NEXT_ID, type StoreSnapshot } from '../store/pet-store.js';
import { checkFixtures } from '../store/check-fixtures.js';
import { InputFileError } from '../../input-errors.js';
import { maxInt64, normaliseInteger, plusOne, type Int64 } from '../../json/int64.js';

/**
 * Checks a state snapshot `{ pets: Pet[], nextId?: integer }` (from `PUT /__admin/state`, `restore()` or a
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
  const highest = checked.reduce<Int64>((max, pet) => maxInt64(max, pet.id), 0);
  // checkFixtures holds every id to MAX_NEXT_ID − 1, so the one after the highest is a nextId the store can hold.
  if (nextId === undefined) return { pets: checked, nextId: plusOne(highest) };
  const next = toNextId(nextId);
  if (next === undefined && isInteger(nextId) && nextId > MAX_NEXT_ID) {
    throw new InputFileError(
      `${where}.nextId must be at most ${MAX_NEXT_ID} (2^63 − 1, the largest int64; got ${describeValue(nextId)})`,
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
