import type { NewPet, Pet } from '../../types.js';
import { attachedJsonText, freezeWithJsonText } from '../json-text.js';

/**
 * A pet as every store keeps it: the schema's fields only, in the schema's order (anything else a client sent is
 * dropped), frozen, with its JSON text attached (json-text.ts). `text`, when given, is the pet's JSON text already
 * (read back from a store that keeps text), so it is not serialised again.
 */
export function toStoredPet(id: number, pet: NewPet, text?: string): Pet {
  const stored: Pet = { id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status !== undefined) stored.status = pet.status;
  return freezeWithJsonText(stored, text);
}

/** The one serialisation of a stored pet: what a store that keeps text (Redis) writes. */
export function storedPetText(pet: Pet): string {
  return attachedJsonText(pet) ?? JSON.stringify(toStoredPet(pet.id, pet));
}

/** The one parse of a stored pet's text back into a stored pet (the counterpart of `storedPetText`). */
export function parseStoredPet(text: string): Pet {
  const pet = JSON.parse(text) as Pet;
  return toStoredPet(pet.id, pet, text);
}
