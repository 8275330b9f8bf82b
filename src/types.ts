/**
 * The Petstore API's types, generated from openapi.yaml at build time (scripts/generate-types.mjs), for users as
 * `petstore-kit/types` and for the code of this package alike: nothing here is written by hand.
 * @example
 * import type { Pet, NewPet } from 'petstore-kit/types';
 * const pet: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };
 */
import type { components, paths, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

/** A pet as stored and returned (interface §2). */
export type Pet = Schemas['Pet'];
/** The body of `createPet` (interface §2). */
export type NewPet = Schemas['NewPet'];
/** `available`, `pending` or `sold`. */
export type PetStatus = Schemas['PetStatus'];
/** The interface's Error shape: `status` equals the HTTP status (interface §7). */
export type ApiErrorBody = Schemas['Error'];

export type { components, paths, operations };
