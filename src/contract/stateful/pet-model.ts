import { idKey } from '../generate/same-pet.js';

type Pet = Record<string, unknown>;

/**
 * What the target must now hold, as far as this sequence can know: the pets it created (as createPet answered
 * them), by id. Other pets may exist (other runs, other clients, the fixtures): the model claims nothing of them.
 */
export class PetModel {
  readonly pets = new Map<string, Pet>();
  /** Every id the sequence saw in any answer, its own pets' and others': an id "not in the store" must be none of them. */
  readonly seen = new Set<string>();

  add(pet: Pet): void {
    this.pets.set(idKey(pet.id), pet);
    this.seen.add(idKey(pet.id));
  }

  /** The model's pets a list with this status filter (or none) can show. */
  matching(status: string | undefined): Pet[] {
    return [...this.pets.values()].filter((pet) => status === undefined || pet.status === status);
  }
}
