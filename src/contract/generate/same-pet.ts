import { normaliseInteger } from '../../json/int64.js';
import { stringifyJson } from '../../json/stringify-json.js';

type PetLike = Record<string, unknown>;

/** Two integers equal as int64, whether held as a number or a bigint. */
export function sameInteger(a: unknown, b: unknown): boolean {
  if ((typeof a !== 'number' && typeof a !== 'bigint') || (typeof b !== 'number' && typeof b !== 'bigint'))
    return false;
  return normaliseInteger(a) === normaliseInteger(b);
}

/**
 * What of `sent` (a NewPet) `pet` fails to keep: names the first field that differs, or undefined when name and
 * categoryId are exactly as sent and the status is as sent (when one was sent; else the service may choose one).
 */
export function differenceFromSent(sent: PetLike, pet: PetLike): string | undefined {
  if (pet.name !== sent.name) return `name ${show(pet.name)} instead of ${show(sent.name)}`;
  if (!sameInteger(pet.categoryId, sent.categoryId))
    return `categoryId ${show(pet.categoryId)} instead of ${show(sent.categoryId)}`;
  if (sent.status !== undefined && pet.status !== sent.status)
    return `status ${show(pet.status)} instead of ${show(sent.status)}`;
  return undefined;
}

/** What differs between two Pets (id, name, categoryId, status), or undefined when they are the same pet. */
export function differenceFromPet(expected: PetLike, pet: PetLike): string | undefined {
  if (!sameInteger(pet.id, expected.id)) return `id ${show(pet.id)} instead of ${show(expected.id)}`;
  const fields = differenceFromSent(expected, pet);
  if (fields) return fields;
  if (pet.status !== expected.status) return `status ${show(pet.status)} instead of ${show(expected.status)}`;
  return undefined;
}

/** A value as it would read in JSON, bigints as their digits, long strings cut. */
export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  if (typeof value === 'bigint') return value.toString();
  // An int64 beyond ±(2^53−1) inside an object is a bigint: shown with its digits, as it was sent.
  const text = (stringifyJson(value) as string | undefined) ?? `a ${typeof value}`;
  return text.length > 80 ? `${text.slice(0, 60)}…(${text.length} characters)` : text;
}

/** The id of a pet as a key for maps: the digits. */
export function idKey(id: unknown): string {
  return typeof id === 'bigint' || typeof id === 'number' ? String(id) : JSON.stringify(id);
}
