import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { Ajv } from 'ajv';
import type { AddressInfo } from 'node:net';
import { exactJson } from './exact-json.js';

/**
 * The Petstore API v1 as a team would build it on Fastify: route schemas (validated by AJV when the route is
 * registered), an `onRequest` hook for the key, an error handler, a not-found handler and `frameworkErrors` that
 * render the interface's Error, and a JSON parser and serializer that keep int64 digits. Each fault is one of
 * Fastify's defaults left in place, or a hook put where teams put it by mistake.
 */
export const FASTIFY_FAULTS = [
  // No error handler, not-found handler or frameworkErrors: Fastify's `{statusCode, error, message}`.
  'default-error-bodies',
  // One AJV for every part, with Fastify's default coerceTypes: a body's "7" becomes 7.
  'body-types-coerced',
  // The auth hook registered inside the plugin of listPets and createPet: getPet, beside it, has none.
  'auth-hook-in-sibling-scope',
  // The key checked in preHandler, after validation: a request without the key and a bad query gets 400.
  'auth-in-preHandler',
  // A response schema (fast-json-stringify) that lists no categoryId: the serializer drops it.
  'response-schema-drops-categoryId',
  // Fastify's own JSON parser: a categoryId beyond 2^53 comes back rounded.
  'default-json-parser',
] as const;

export type FastifyFault = (typeof FASTIFY_FAULTS)[number];

const STATUSES = ['available', 'pending', 'sold'] as const;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

interface Pet {
  id: number;
  name: string;
  categoryId: number | bigint;
  status?: string;
}

const petSchema = (fault?: FastifyFault) => ({
  type: 'object',
  required: ['id', 'name', ...(fault === 'response-schema-drops-categoryId' ? [] : ['categoryId'])],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    ...(fault === 'response-schema-drops-categoryId' ? {} : { categoryId: { type: 'integer' } }),
    status: { type: 'string' },
  },
});

/** A body's categoryId: an int64, held as a bigint beyond 2^53 (the exact parser's), a number below. */
function isInt64(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/** Two AJV instances, as the style of the interface's own tools: coercing for path and query, strict for bodies. */
function validators(fault?: FastifyFault) {
  const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false });
  const strict = fault === 'body-types-coerced' ? coercing : new Ajv({ coerceTypes: false, allErrors: false });
  strict.addKeyword({
    keyword: 'int64',
    schemaType: 'boolean',
    validate: (_: boolean, data: unknown) => isInt64(data),
    errors: false,
  });
  return { coercing, strict };
}

const newPetSchema = (fault?: FastifyFault) => ({
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string' },
    // A JSON Schema integer for Fastify's own parser (numbers only); the exact parser's bigints need the int64 keyword.
    categoryId:
      fault === 'default-json-parser' || fault === 'body-types-coerced' ? { type: 'integer' } : { int64: true },
    status: { type: 'string', enum: [...STATUSES] },
  },
});

export interface FastifyPetstore {
  url: string;
  close(): Promise<void>;
}

function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify({ code, message, status }));
}

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(exactJson.stringify(body));
}

/** RFC 9110 §11.1: the scheme is case-insensitive; RFC 6750 §2.1: one token. */
function hasKey(request: FastifyRequest, key: string): boolean {
  const match = /^([A-Za-z]+) +(\S+)$/.exec(request.headers.authorization ?? '');
  return match !== null && match[1]!.toLowerCase() === 'bearer' && match[2] === key;
}

export async function startFastifyPetstore(options: {
  key: string;
  fault?: FastifyFault;
  /** Every request is handled this many milliseconds late (a target across a network). */
  delayMs?: number;
}): Promise<FastifyPetstore> {
  const { key, fault } = options;
  const defaults = fault === 'default-error-bodies';
  const pets: Pet[] = Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    name: `Pet ${i}`,
    categoryId: (i % 4) + 1,
    status: STATUSES[i % 3],
  }));
  let nextId = pets.length + 1;

  // A path parameter over Fastify's maxParamLength (100) is refused with 414 before any hook: as an Error.
  const serverOptions: FastifyServerOptions = defaults
    ? {}
    : {
        frameworkErrors(error, _request, reply) {
          const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
          sendError(reply, status, status === 414 ? 'uri_too_long' : 'bad_request', error.message);
        },
      };
  const app = Fastify(serverOptions);
  const delayMs = options.delayMs ?? 0;
  if (delayMs > 0) app.addHook('onRequest', () => new Promise<void>((resolve) => setTimeout(resolve, delayMs)));
  const { coercing, strict } = validators(fault);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
  if (fault !== 'default-json-parser') {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, exactJson.parse(body as string));
      } catch {
        done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
      }
    });
  }
  if (!defaults) {
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
  }

  const authHook = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasKey(request, key)) return sendError(reply, 401, 'unauthorized', 'a valid bearer key is required');
  };
  if (fault !== 'auth-hook-in-sibling-scope')
    app.addHook(fault === 'auth-in-preHandler' ? 'preHandler' : 'onRequest', authHook);

  const responses = (status: number, schema: object) =>
    fault === 'response-schema-drops-categoryId' ? { response: { [status]: schema } } : {};
  const listAndCreate = async (scope: FastifyInstance) => {
    if (fault === 'auth-hook-in-sibling-scope') scope.addHook('onRequest', authHook);
    scope.get(
      '/v1/pets',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: {
              limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
              status: { type: 'string', enum: [...STATUSES] },
            },
          },
          ...responses(200, { type: 'array', items: petSchema(fault) }),
        },
      },
      async (request, reply) => {
        const { limit, status } = request.query as { limit: number; status?: string };
        const page = pets.filter((pet) => status === undefined || pet.status === status).slice(0, limit);
        return fault === 'response-schema-drops-categoryId' ? reply.code(200).send(page) : sendJson(reply, 200, page);
      },
    );
    scope.post(
      '/v1/pets',
      { schema: { body: newPetSchema(fault), ...responses(201, petSchema(fault)) } },
      async (request, reply) => {
        const body = request.body as Omit<Pet, 'id'>;
        const pet: Pet = {
          id: nextId++,
          name: body.name,
          categoryId: body.categoryId,
          ...(body.status ? { status: body.status } : {}),
        };
        pets.push(pet);
        return fault === 'response-schema-drops-categoryId' ? reply.code(201).send(pet) : sendJson(reply, 201, pet);
      },
    );
  };
  await app.register(listAndCreate);
  app.get(
    '/v1/pets/:petId',
    {
      schema: {
        params: { type: 'object', properties: { petId: { type: 'string', pattern: '^-?[0-9]+$' } } },
        ...responses(200, petSchema(fault)),
      },
    },
    async (request, reply) => {
      const id = BigInt((request.params as { petId: string }).petId);
      if (id < INT64_MIN || id > INT64_MAX) return sendError(reply, 400, 'bad_id', 'petId must be an int64');
      const pet = pets.find((p) => BigInt(p.id) === id);
      if (!pet) return sendError(reply, 404, 'not_found', `no pet ${id}`);
      return fault === 'response-schema-drops-categoryId' ? reply.code(200).send(pet) : sendJson(reply, 200, pet);
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => app.close() };
}
