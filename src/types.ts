/**
 * The Petstore API's types, generated from openapi.yaml at build time (scripts/generate-types.mjs), for users as
 * `petstore-kit/types` and for the code of this package alike: nothing here is written by hand but the int64 variants
 * below (StoredPet, StoredNewPet), which the package's own store and runner use.
 * @example
 * import type { Pet, NewPet } from 'petstore-kit/types';
 * const pet: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };
 */
import type { components, paths, operations } from './generated/openapi.js';
import type { Int64 } from './json/int64.js';

type Schemas = components['schemas'];

/**
 * `format: int64` fields as petstore-kit holds them: a number when safe, a bigint beyond ±(2^53−1) with exactly the
 * digits sent (src/json/int64.ts). The one change made to the generated types: openapi-typescript writes `number`,
 * which cannot hold every int64.
 */
type WithInt64CategoryId<T> = Omit<T, 'categoryId'> & { categoryId: Int64 };
/** `id` likewise: the store hands out ids up to 2^63 − 2, beyond the safe range. */
type WithInt64Ids<T> = Omit<WithInt64CategoryId<T>, 'id'> & { id: Int64 };

/** A pet as returned (interface §2), exactly as `paths` has it: what a client parsing JSON gets, and may send. */
export type Pet = Schemas['Pet'];
/** The body of `createPet` (interface §2), exactly as `paths` has it (`client.POST('/pets', { body })` accepts it). */
export type NewPet = Schemas['NewPet'];
/** A pet as petstore-kit holds it (its store, snapshots, the runner): `id` and `categoryId` beyond ±(2^53−1) are bigints. */
export type StoredPet = WithInt64Ids<Schemas['Pet']>;
/** A `createPet` body as petstore-kit holds it, `categoryId` as in StoredPet. */
export type StoredNewPet = WithInt64CategoryId<Schemas['NewPet']>;
/** `available`, `pending` or `sold`. */
export type PetStatus = Schemas['PetStatus'];
/** The interface's Error shape: `status` equals the HTTP status (interface §7). */
export type ApiErrorBody = Schemas['Error'];

export type { components, paths, operations };
