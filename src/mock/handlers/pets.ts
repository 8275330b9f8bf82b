import type { Handler } from '../front-door/context.js';
import type { StoredNewPet as NewPet } from '../../types.js';
import { apiError } from '../../errors.js';
import type { Int64 } from '../../json/int64.js';

// `.then` rather than async functions: one promise a request fewer on the path every API call takes.

/** listPets (interface §4.1): at most `limit` pets in id order, filtered by `status` when given. */
export const listPets: Handler = ({ params, store }) => {
  const limit = params.query.limit as number;
  const status = params.query.status as string | undefined;
  return store.list({ limit, status }).then((pets) => ({ status: 200, body: pets }));
};

/** createPet (interface §4.2): the body is a valid NewPet by now; answer 201 with the Pet and where it lives. */
export const createPet: Handler = ({ body, store, urlFor }) =>
  store
    .create(body as NewPet)
    .then((pet) => ({ status: 201, headers: { Location: urlFor('getPet', { petId: String(pet.id) }) }, body: pet }));

/** getPet (interface §4.3, deprecated): the pet, or 404 when no pet has that id. */
export const getPet: Handler = ({ params, store }) => {
  // An int64 as parse-parameters gives it: a bigint past ±(2^53−1), looked up exactly.
  const id = params.path.petId as Int64;
  return store.get(id).then((pet) => {
    if (!pet) throw apiError('not_found', `no pet has id ${id}`);
    return { status: 200, body: pet };
  });
};

/** The stateful handlers, keyed by operationId; other operations of the document are served by prism-http. */
export const petHandlers: Readonly<Record<string, Handler>> = { listPets, createPet, getPet };
