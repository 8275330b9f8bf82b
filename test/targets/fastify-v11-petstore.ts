import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { AddressInfo } from 'node:net';
import { exactJson } from './exact-json.js';

/**
 * The Petstore API v1.1 (test/fixtures/documents/petstore-v1.1.yaml) as a team would build it on Fastify, written
 * from the document by hand and sharing no code with the mock, the runner or the resource model: pets with tag and
 * its filter, PUT, an RFC 7396 merge patch and DELETE; photos under a pet; orders with a server-set placedAt; the
 * inventory. Route schemas validated by AJV (coercing for path and query, strict for bodies), the key in an
 * `onRequest` hook, every error in the interface's Error shape, int64 digits kept. In memory.
 */
// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;

/** One bug each, of the kinds the stateful checks exist for; each must fail the run under its own check id. */
export const FASTIFY_V11_FAULTS = [
  'delete-keeps', // DELETE answers 204 and keeps the pet (use after free)
  'put-merges', // PUT merges into the stored pet instead of replacing it
  'patch-ignores-null', // a null in a merge patch leaves the field as it was
  'drops-tag', // tag is accepted and never stored
  'ignores-filter', // the pet list ignores tag, the filter v1.1 adds
  'refused-put-applies', // a PUT refused with 400 still stores its valid fields
  'writes-without-key', // PUT, PATCH and DELETE are carried out without a key (the hook checks reads and POST only)
] as const;
export type FastifyV11Fault = (typeof FASTIFY_V11_FAULTS)[number];

/**
 * Issue 53: faults of the operations beyond v1's createPet and listPets, which the runner once judged on those two
 * only: bodies that break the document taken or answered 500, a refused patch that applied part of itself, a loose
 * filter, a second collection's create storing a value of its own, a Location into another collection.
 */
export const FASTIFY_V11_OPERATION_FAULTS = [
  'patch-accepts-empty', // a merge patch {} is taken (minProperties: 1 not checked): 200, nothing changed
  'patch-accepts-unknown', // a merge patch with a member Pet does not declare is taken (additionalProperties: false)
  'patch-null-name-500', // a merge patch {"name": null} is answered 500 (the handler meets a null it did not expect)
  'patch-null-removes-name', // a merge patch {"name": null} is taken: the pet loses its required name
  'put-long-tag', // a PUT's tag is not held to maxLength 40: a longer one is stored
  'refused-patch-applies', // a merge patch refused with 400 has applied the members before the invalid one
  'filter-substring', // the tag filter lists every pet whose tag contains the value (tag=good lists good-boy)
  'order-quantity-one', // an order is stored with quantity 1, whatever was sent
  'order-location-elsewhere', // a created order's Location names /v1/pets/{id}, an item of another collection
] as const;
export type FastifyV11OperationFault = (typeof FASTIFY_V11_OPERATION_FAULTS)[number];
type AnyFault = FastifyV11Fault | FastifyV11OperationFault;

const PET_STATUSES = ['available', 'pending', 'sold'];
const ORDER_STATUSES = ['placed', 'approved', 'delivered'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

type Item = Record<string, unknown> & { id: number };

const newPet = {
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string' },
    categoryId: { int64: true },
    status: { type: 'string', enum: PET_STATUSES },
    tag: { type: 'string', maxLength: 40 },
  },
};
const petPatch = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    categoryId: { anyOf: [{ int64: true }, { type: 'null' }] },
    status: { enum: [...PET_STATUSES, null] },
    tag: { anyOf: [{ type: 'string', maxLength: 40 }, { type: 'null' }] },
  },
};

/** The merge patch's schema as a fault leaves it: a keyword missing, or null taken for name. */
function petPatchWith(fault: AnyFault | undefined): object {
  const { minProperties, additionalProperties, ...rest } = petPatch;
  if (fault === 'patch-accepts-empty') return { ...rest, additionalProperties };
  if (fault === 'patch-accepts-unknown') return { ...rest, minProperties };
  if (fault === 'patch-null-name-500' || fault === 'patch-null-removes-name')
    return {
      ...petPatch,
      properties: { ...petPatch.properties, name: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
  return petPatch;
}

/** A PUT's body schema as a fault leaves it: tag without its maxLength. */
function putBodyWith(fault: AnyFault | undefined): object {
  if (fault !== 'put-long-tag') return newPet;
  return { ...newPet, properties: { ...newPet.properties, tag: { type: 'string' } } };
}
const newPhoto = {
  type: 'object',
  required: ['url'],
  properties: { url: { type: 'string', format: 'uri' }, caption: { type: 'string' } },
};
/** v1.2's PATCH bodies: RFC 6902 operations on a pet, and a photo's merge patch (url kept valid, caption nullable). */
const jsonPatch = {
  type: 'array',
  items: {
    type: 'object',
    required: ['op', 'path'],
    properties: {
      op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
      path: { type: 'string' },
      from: { type: 'string' },
    },
  },
};
const photoPatch = {
  type: 'object',
  properties: {
    url: { type: 'string', format: 'uri' },
    caption: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
};
const newOrder = {
  type: 'object',
  required: ['petId', 'quantity'],
  properties: {
    petId: { int64: true },
    quantity: { type: 'integer', minimum: 1, maximum: 2147483647 },
    status: { type: 'string', enum: ORDER_STATUSES },
  },
};
const id = { type: 'string', pattern: '^-?[0-9]+$' };

function isInt64(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/** What a patched pet must still be: a Pet of the document. */
const validPet = bodyValidator().compile(newPet);
/** Each member of a merge patch on its own, for the fault that applies a patch member by member. */
const validMember = Object.fromEntries(
  Object.entries(petPatch.properties).map(([name, schema]) => [name, bodyValidator().compile(schema)]),
);

function bodyValidator(): Ajv {
  const strict = new Ajv({ coerceTypes: false, allErrors: false });
  addFormats(strict);
  strict.addKeyword({
    keyword: 'int64',
    schemaType: 'boolean',
    validate: (_: boolean, v: unknown) => isInt64(v),
    errors: false,
  });
  return strict;
}

function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify({ code, message, status }));
}

function sendJson(reply: FastifyReply, status: number, body: unknown, location?: string): FastifyReply {
  if (location) reply.header('location', location);
  return reply.code(status).type('application/json').send(exactJson.stringify(body));
}

function hasKey(request: FastifyRequest, key: string): boolean {
  const match = /^([A-Za-z]+) +(\S+)$/.exec(request.headers.authorization ?? '');
  return match !== null && match[1]!.toLowerCase() === 'bearer' && match[2] === key;
}

/** A path id as an int64, or undefined when it is out of range (400). */
function idOf(text: string): bigint | undefined {
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/** Only the fields a schema declares are kept: what was sent, as sent. */
function declared(
  body: Record<string, unknown>,
  schema: { properties: Record<string, unknown> },
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => name in schema.properties));
}

export async function startFastifyV11Petstore(options: {
  key: string;
  delayMs?: number;
  fault?: AnyFault;
  /**
   * 'v1.2' serves test/fixtures/documents/petstore-v1.2.yaml instead: a PUT to an id no pet has creates the pet
   * (201), a pet's PATCH is RFC 6902 JSON Patch (a failed test 409), and a photo takes PUT and a merge patch.
   */
  document?: 'v1.1' | 'v1.2';
}): Promise<{ url: string; close(): Promise<void>; pets(): Item[] }> {
  const v12 = options.document === 'v1.2';
  const pets = new Map<bigint, Item>();
  const photos = new Map<bigint, Item>();
  const orders = new Map<bigint, Item>();
  const next = { pets: 1, photos: 1, orders: 1 };
  const { fault } = options;
  /** A pet's stored fields of a body: the declared ones (tag dropped by the drops-tag fault). */
  const petFields = (body: unknown) => {
    const fields = declared(body as Record<string, unknown>, newPet);
    if (fault === 'drops-tag') delete fields.tag;
    return fields;
  };
  for (const [status, tag] of [
    ['available', 'seed-a'],
    ['sold', 'seed-b'],
    ['pending', 'seed-c'],
  ]) {
    const pet = { id: next.pets++, name: `Seed ${tag}`, categoryId: 1, status, tag };
    pets.set(BigInt(pet.id), pet);
  }

  const app = Fastify({
    frameworkErrors(error, _request, reply) {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      sendError(reply, status, status === 414 ? 'uri_too_long' : 'bad_request', error.message);
    },
  });
  if (options.delayMs)
    app.addHook('onRequest', () => new Promise<void>((resolve) => setTimeout(resolve, options.delayMs)));
  app.addHook('onRequest', async (request, reply) => {
    if (fault === 'writes-without-key' && ['PUT', 'PATCH', 'DELETE'].includes(request.method)) return;
    if (!hasKey(request, options.key)) return sendError(reply, 401, 'unauthorized', 'a valid bearer key is required');
  });
  const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: false });
  const strict = bodyValidator();
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
  app.removeContentTypeParser('application/json');
  for (const type of ['application/json', 'application/merge-patch+json', 'application/json-patch+json'])
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, exactJson.parse(body as string));
      } catch {
        done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
      }
    });
  app.setErrorHandler((error: { statusCode?: number; message: string; validation?: unknown }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    sendError(
      reply,
      status,
      error.validation ? 'validation_failed' : status === 415 ? 'unsupported_media_type' : 'bad_request',
      error.message,
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`),
  );

  /** The pet a path names: the pet, or the reply already sent (400 for an id beyond int64, 404 for none). */
  const petAt = (request: FastifyRequest, reply: FastifyReply): Item | FastifyReply => {
    const petId = idOf((request.params as { petId: string }).petId);
    if (petId === undefined) return sendError(reply, 400, 'bad_id', 'petId must be an int64');
    return pets.get(petId) ?? sendError(reply, 404, 'not_found', `no pet ${petId}`);
  };
  const isItem = (value: Item | FastifyReply): value is Item => typeof (value as Item).id === 'number';

  app.get(
    '/v1/pets',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            status: { type: 'string', enum: PET_STATUSES },
            tag: { type: 'string', maxLength: 40 },
          },
        },
      },
    },
    async (request, reply) => {
      const { limit, status, tag } = request.query as { limit: number; status?: string; tag?: string };
      const page = [...pets.values()].filter(
        (pet) =>
          (status === undefined || pet.status === status) &&
          (fault === 'ignores-filter' ||
            tag === undefined ||
            pet.tag === tag ||
            (fault === 'filter-substring' && typeof pet.tag === 'string' && pet.tag.includes(tag))),
      );
      return sendJson(reply, 200, page.slice(0, limit));
    },
  );
  app.post('/v1/pets', { schema: { body: newPet } }, async (request, reply) => {
    const pet = { ...petFields(request.body), id: next.pets++ };
    pets.set(BigInt(pet.id), pet);
    return sendJson(reply, 201, pet, `/v1/pets/${pet.id}`);
  });
  const petParams = { params: { type: 'object', properties: { petId: id } } };
  app.get('/v1/pets/:petId', { schema: petParams }, async (request, reply) => {
    const pet = petAt(request, reply);
    return isItem(pet) ? sendJson(reply, 200, pet) : pet;
  });
  const attachValidation = fault === 'refused-put-applies';
  app.put(
    '/v1/pets/:petId',
    { schema: { ...petParams, body: putBodyWith(fault) }, attachValidation },
    async (request, reply) => {
      if (request.validationError?.validationContext === 'params')
        return sendError(reply, 400, 'validation_failed', request.validationError.message);
      if (v12 && !request.validationError) {
        // v1.2: PUT on an id no pet has creates it there (RFC 9110 §9.3.4: 201), up to the ids a number holds.
        const petId = idOf((request.params as { petId: string }).petId);
        if (petId !== undefined && petId > 0n && petId <= BigInt(Number.MAX_SAFE_INTEGER) && !pets.has(petId)) {
          const created = { ...petFields(request.body), id: Number(petId) };
          pets.set(petId, created);
          return sendJson(reply, 201, created);
        }
      }
      const pet = petAt(request, reply);
      if (!isItem(pet)) return pet;
      if (request.validationError) {
        // The fault: the fields that were valid are stored before the body is refused.
        for (const [name, value] of Object.entries(petFields(request.body)))
          if (typeof value === 'string' && name !== 'name' && name !== 'status') pet[name] = value;
        return sendError(reply, 400, 'validation_failed', request.validationError.message);
      }
      const replaced = { ...(fault === 'put-merges' ? pet : {}), ...petFields(request.body), id: pet.id };
      pets.set(BigInt(pet.id), replaced);
      return sendJson(reply, 200, replaced);
    },
  );
  app.patch(
    '/v1/pets/:petId',
    {
      schema: { ...petParams, body: v12 ? jsonPatch : petPatchWith(fault) },
      attachValidation: fault === 'refused-patch-applies',
    },
    async (request, reply) => {
      if (v12) return jsonPatchPet(request, reply);
      if (!request.headers['content-type']?.toLowerCase().startsWith('application/merge-patch+json'))
        return sendError(reply, 415, 'unsupported_media_type', 'PATCH takes application/merge-patch+json');
      // A path the schema refuses is refused whole, as without the fault; only the body is applied member by member.
      if (request.validationError?.validationContext === 'params')
        return sendError(reply, 400, 'validation_failed', request.validationError.message);
      const pet = petAt(request, reply);
      if (!isItem(pet)) return pet;
      if (request.validationError) return patchMemberByMember(request, reply, pet);
      const body = request.body as Record<string, unknown>;
      // The fault: a null name reaches code that expects a string.
      if (fault === 'patch-null-name-500' && body.name === null) throw new Error('name.trim is not a function');
      // RFC 7396 §2: null removes a member, a value replaces it, the rest stays; the result must still be a Pet.
      const merged: Record<string, unknown> = { ...pet };
      for (const [name, value] of Object.entries(declared(body, petPatch))) {
        if (value === null) {
          if (fault !== 'patch-ignores-null') delete merged[name];
        } else merged[name] = value;
      }
      const named = typeof merged.name === 'string' || fault === 'patch-null-removes-name';
      if (!named || !isInt64(merged.categoryId))
        return sendError(reply, 400, 'invalid_patch', 'name and categoryId are required and cannot be removed');
      pets.set(BigInt(pet.id), merged as Item);
      return sendJson(reply, 200, merged);
    },
  );
  /**
   * The fault refused-patch-applies: the patch's members are applied one by one, in the order sent, until one breaks
   * the schema; then the patch is refused with 400, what came before it already stored.
   */
  const patchMemberByMember = (request: FastifyRequest, reply: FastifyReply, pet: Item): FastifyReply => {
    const body = request.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      for (const [name, value] of Object.entries(body)) {
        const valid = validMember[name];
        if (!valid?.(value) || (value === null && (name === 'name' || name === 'categoryId'))) break;
        if (value === null) delete pet[name];
        else pet[name] = value;
      }
    return sendError(reply, 400, 'validation_failed', request.validationError!.message);
  };
  /** RFC 6902 on a pet's own members, in order, on a copy: any failure changes nothing (a failed test is 409). */
  const jsonPatchPet = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/json-patch+json'))
      return sendError(reply, 415, 'unsupported_media_type', 'PATCH takes application/json-patch+json');
    const pet = petAt(request, reply);
    if (!isItem(pet)) return pet;
    const patched: Record<string, unknown> = { ...pet };
    for (const { op, path, from, value } of request.body as {
      op: string;
      path: string;
      from?: string;
      value?: unknown;
    }[]) {
      const name = /^\/([A-Za-z]+)$/.exec(path)?.[1];
      const source = from === undefined ? undefined : /^\/([A-Za-z]+)$/.exec(from)?.[1];
      if (name === undefined || !(name in newPet.properties) || (from !== undefined && source === undefined))
        return sendError(reply, 400, 'invalid_patch', `${path} is no member of a pet`);
      if (op === 'test') {
        if (exactJson.stringify(patched[name]) !== exactJson.stringify(value))
          return sendError(reply, 409, 'test_failed', `${path} is not ${exactJson.stringify(value)}`);
      } else if (op === 'remove' || op === 'replace') {
        if (!(name in patched)) return sendError(reply, 400, 'invalid_patch', `nothing at ${path}`);
        if (op === 'remove') delete patched[name];
        else patched[name] = value;
      } else if (op === 'add') patched[name] = value;
      else if (source === undefined || !(source in patched))
        return sendError(reply, 400, 'invalid_patch', `nothing at ${String(from)}`);
      else {
        patched[name] = patched[source];
        if (op === 'move' && source !== name) delete patched[source];
      }
    }
    patched.id = pet.id;
    if (!validPet(patched)) return sendError(reply, 400, 'invalid_patch', 'the patched pet would not be a Pet');
    pets.set(BigInt(pet.id), patched as Item);
    return sendJson(reply, 200, patched);
  };
  app.delete('/v1/pets/:petId', { schema: petParams }, async (request, reply) => {
    const pet = petAt(request, reply);
    if (!isItem(pet)) return pet;
    if (fault !== 'delete-keeps') pets.delete(BigInt(pet.id));
    for (const [photoId, photo] of photos) if (photo.petId === pet.id) photos.delete(photoId);
    return reply.code(204).send();
  });

  app.get(
    '/v1/pets/:petId/photos',
    {
      schema: {
        ...petParams,
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 10, default: 5 } },
        },
      },
    },
    async (request, reply) => {
      const pet = petAt(request, reply);
      if (!isItem(pet)) return pet;
      const { limit } = request.query as { limit: number };
      return sendJson(reply, 200, [...photos.values()].filter((photo) => photo.petId === pet.id).slice(0, limit));
    },
  );
  app.post('/v1/pets/:petId/photos', { schema: { ...petParams, body: newPhoto } }, async (request, reply) => {
    const pet = petAt(request, reply);
    if (!isItem(pet)) return pet;
    const photo = { ...declared(request.body as Record<string, unknown>, newPhoto), id: next.photos++, petId: pet.id };
    photos.set(BigInt(photo.id), photo);
    return sendJson(reply, 201, photo);
  });
  const photoParams = { params: { type: 'object', properties: { petId: id, photoId: id } } };
  /** The photo a path names, under the pet it names: the photo, or the reply already sent. */
  const photoAt = (request: FastifyRequest, reply: FastifyReply): Item | FastifyReply => {
    const pet = petAt(request, reply);
    if (!isItem(pet)) return pet;
    const photoId = idOf((request.params as { photoId: string }).photoId);
    if (photoId === undefined) return sendError(reply, 400, 'bad_id', 'photoId must be an int64');
    const photo = photos.get(photoId);
    return photo && photo.petId === pet.id
      ? photo
      : sendError(reply, 404, 'not_found', `no photo ${photoId} of pet ${pet.id}`);
  };
  app.get('/v1/pets/:petId/photos/:photoId', { schema: photoParams }, async (request, reply) => {
    const photo = photoAt(request, reply);
    return isItem(photo) ? sendJson(reply, 200, photo) : photo;
  });
  if (v12) {
    // v1.2: a photo is replaced whole (its id and pet kept) or merge-patched (null removes the caption).
    app.put(
      '/v1/pets/:petId/photos/:photoId',
      { schema: { ...photoParams, body: newPhoto } },
      async (request, reply) => {
        const photo = photoAt(request, reply);
        if (!isItem(photo)) return photo;
        const replaced = {
          ...declared(request.body as Record<string, unknown>, newPhoto),
          id: photo.id,
          petId: photo.petId,
        };
        photos.set(BigInt(photo.id), replaced);
        return sendJson(reply, 200, replaced);
      },
    );
    app.patch(
      '/v1/pets/:petId/photos/:photoId',
      { schema: { ...photoParams, body: photoPatch } },
      async (request, reply) => {
        if (!request.headers['content-type']?.toLowerCase().startsWith('application/merge-patch+json'))
          return sendError(reply, 415, 'unsupported_media_type', 'PATCH takes application/merge-patch+json');
        const photo = photoAt(request, reply);
        if (!isItem(photo)) return photo;
        const merged: Record<string, unknown> = { ...photo };
        for (const [name, value] of Object.entries(declared(request.body as Record<string, unknown>, photoPatch)))
          if (value === null) delete merged[name];
          else merged[name] = value;
        photos.set(BigInt(photo.id), merged as Item);
        return sendJson(reply, 200, merged);
      },
    );
  }
  app.delete('/v1/pets/:petId/photos/:photoId', { schema: photoParams }, async (request, reply) => {
    const photo = photoAt(request, reply);
    if (!isItem(photo)) return photo;
    photos.delete(BigInt(photo.id));
    return reply.code(204).send();
  });

  app.get(
    '/v1/store/orders',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { status: { type: 'string', enum: ORDER_STATUSES }, sort: { type: 'string' } },
        },
      },
    },
    async (request, reply) => {
      const { status } = request.query as { status?: string };
      return sendJson(
        reply,
        200,
        [...orders.values()].filter((order) => status === undefined || order.status === status),
      );
    },
  );
  app.post('/v1/store/orders', { schema: { body: newOrder } }, async (request, reply) => {
    // id and placedAt are readOnly (OpenAPI 3.0 §4.7.25.4): the server sets them, whatever was sent.
    const order = {
      ...declared(request.body as Record<string, unknown>, newOrder),
      ...(fault === 'order-quantity-one' ? { quantity: 1 } : {}),
      id: next.orders++,
      placedAt: new Date().toISOString(),
    };
    orders.set(BigInt(order.id), order);
    const collection = fault === 'order-location-elsewhere' ? 'pets' : 'store/orders';
    return sendJson(reply, 201, order, `/v1/${collection}/${order.id}`);
  });
  const orderParams = { params: { type: 'object', properties: { orderId: id } } };
  const orderAt = (request: FastifyRequest, reply: FastifyReply): Item | FastifyReply => {
    const orderId = idOf((request.params as { orderId: string }).orderId);
    if (orderId === undefined) return sendError(reply, 400, 'bad_id', 'orderId must be an int64');
    return orders.get(orderId) ?? sendError(reply, 404, 'not_found', `no order ${orderId}`);
  };
  app.get('/v1/store/orders/:orderId', { schema: orderParams }, async (request, reply) => {
    const order = orderAt(request, reply);
    return isItem(order) ? sendJson(reply, 200, order) : order;
  });
  app.delete('/v1/store/orders/:orderId', { schema: orderParams }, async (request, reply) => {
    const order = orderAt(request, reply);
    if (!isItem(order)) return order;
    orders.delete(BigInt(order.id));
    return reply.code(204).send();
  });
  app.get('/v1/store/inventory', async (_request, reply) => {
    const counts: Record<string, number> = {};
    for (const pet of pets.values())
      if (typeof pet.status === 'string') counts[pet.status] = (counts[pet.status] ?? 0) + 1;
    return sendJson(reply, 200, counts);
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => app.close(),
    /** The pets the target holds now, as stored. */
    pets: () => [...pets.values()].map((pet) => ({ ...pet })),
  };
}
