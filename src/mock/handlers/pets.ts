import type { Handler } from '../front-door/context.js';
import type { StoredNewPet as NewPet } from '../../types.js';
import { apiError } from '../../errors.js';

/** listPets (interface §4.1): at most `limit` pets in id order, filtered by `status` when given. */
export const listPets: Handler = async ({ params, store }) => {
  const limit = params.query.limit as number;
  const status = params.query.status as string | undefined;
  return { status: 200, body: await store.list({ limit, status }) };
};

/** createPet (interface §4.2): the body is a valid NewPet by now; answer 201 with the Pet and where it lives. */
export const createPet: Handler = async ({ body, store, urlFor }) => {
  const pet = await store.create(body as NewPet);
  return { status: 201, headers: { Location: urlFor('getPet', { petId: pet.id }) }, body: pet };
};

/** getPet (interface §4.3, deprecated): the pet, or 404 when no pet has that id. */
export const getPet: Handler = async ({ params, store }) => {
  const id = params.path.petId as number;
  const pet = await store.get(id);
  if (!pet) throw apiError('not_found', `no pet has id ${id}`);
  return { status: 200, body: pet };
};

/** The stateful handlers, keyed by operationId; other operations of the document are served by prism-http. */
export const petHandlers: Readonly<Record<string, Handler>> = { listPets, createPet, getPet };
