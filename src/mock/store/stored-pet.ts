import type { StoredNewPet as NewPet, StoredPet as Pet } from '../../types.js';
import { attachedJsonText, freezeWithJsonText } from '../base/json-text.js';
import { parseJson } from '../../json/parse-json.js';
import { stringifyJson } from '../../json/stringify-json.js';
import { MAX_ATTACHED_TEXT, freezePet } from '../base/store-bytes.js';
import { utf8Length } from '../../json/utf8.js';
import { normaliseInteger, type Int64 } from '../../json/int64.js';

/**
 * A pet as every store keeps it: the schema's fields only, in the schema's order (anything else a client sent is
 * dropped), frozen, with its JSON text attached when it is small (json-text.ts, store-bytes.ts: a large pet's name
 * is held once, not twice). `text`, when given, is the pet's JSON text already (read back from a store that keeps
 * text), so it is not serialised again.
 */
export function toStoredPet(id: Int64, pet: NewPet, text?: string): Pet {
  return toSizedStoredPet(id, pet, text).pet;
}

/** `toStoredPet` and the pet's size in UTF-8 bytes of JSON text, as the store's byte budget counts it. */
export function toSizedStoredPet(id: Int64, pet: NewPet, text?: string): { pet: Pet; bytes: number } {
  // One in-memory form per id (a number while safe): a caller's bigint 5n is the stored pet 5, found by get(5).
  const stored: Pet = {
    id: typeof id === 'bigint' ? normaliseInteger(id) : id,
    name: pet.name,
    categoryId: pet.categoryId,
  };
  if (pet.status !== undefined) stored.status = pet.status;
  if (text === undefined) return freezePet(stored);
  const bytes = utf8Length(text);
  return { pet: text.length <= MAX_ATTACHED_TEXT ? freezeWithJsonText(stored, text) : Object.freeze(stored), bytes };
}

/**
 * The one serialisation of a stored pet: what a store that keeps text (Redis, the state file) writes. An int64
 * beyond the safe range (a bigint) keeps its digits (src/json).
 */
export function storedPetText(pet: Pet): string {
  return attachedJsonText(pet) ?? stringifyJson(toStoredPet(pet.id, pet));
}

/** The one parse of a stored pet's text back into a stored pet (the counterpart of `storedPetText`), int64 exact. */
export function parseStoredPet(text: string): Pet {
  const pet = parseJson(text) as Pet;
  return toStoredPet(pet.id, pet, text);
}
