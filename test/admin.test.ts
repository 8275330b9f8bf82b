import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';
import { createMock, InputFileError } from '../src/index.js';
import { defaultSpecFile } from '../src/paths.js';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
beforeEach(async () => {
  await api.server.reset();
  api.server.clearJournal();
});
afterAll(() => api.close());

const PET = { name: 'Biscuit', categoryId: 6, status: 'available' } as const;
const admin = (method: string, path: string, init?: Parameters<Api['request']>[2]) =>
  api.request(method, `//__admin${path}`, init);

describe('the admin API is guarded and speaks the Error shape', () => {
  it.each([
    ['POST', '/reset'],
    ['GET', '/journal'],
    ['DELETE', '/journal'],
    ['GET', '/state'],
    ['PUT', '/state'],
  ])('%s /__admin%s needs a key', async (method, path) => {
    expectError(await admin(method, path, { key: null }), 401, 'unauthorized', 'missing');
    expectError(await admin(method, path, { key: 'not-a-key' }), 401, 'unauthorized', 'not valid');
  });

  it('answers 404 for an unknown admin path and 405 with Allow for a wrong method', async () => {
    expectError(await admin('GET', '/nope'), 404, 'not_found', '/__admin/nope', 'POST /__admin/reset');
    const wrong = await admin('GET', '/reset');
    expectError(wrong, 405, 'method_not_allowed', 'GET is not allowed on /__admin/reset');
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
  });

  // Under the default any-origin policy the admin API sends no CORS headers at all (any page could otherwise wipe
  // the store with the public development key); attack.test.ts covers an origin named with --cors-origin.
  // The refused preflight used to be a 204 without CORS headers, logged as if it had succeeded.
  it('refuses a preflight under the default any-origin policy with 403 cors_refused, no CORS headers, saying why', async () => {
    const before = api.server.journal().length;
    const response = await fetch(`${api.server.origin}/__admin/reset`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
    expect(await response.json()).toEqual({
      code: 'cors_refused',
      status: 403,
      message: expect.stringMatching(
        /^the admin API answers browsers only on origins named with --cors-origin .*http:\/\/localhost:5173 is not one$/,
      ),
    });
    // Not an API request: the journal is as it was.
    expect(api.server.journal().length).toBe(before);
  });
});

describe('POST /__admin/reset', () => {
  it('brings the store back to the fixtures', async () => {
    const fixtures = await api.server.snapshot();
    await api.post('/pets', PET);
    await api.post('/pets', PET);
    const response = await admin('POST', '/reset');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ petCount: fixtures.pets.length, nextId: fixtures.nextId });
    expect(await api.server.snapshot()).toEqual(fixtures);
    expect((await api.get(`/pets/${fixtures.nextId}`)).status).toBe(404);
  });
});

describe('the request journal', () => {
  it('records method, path, query, status, duration, operation, validation and redacted headers, newest first', async () => {
    await api.get('/pets?limit=2&status=sold', { headers: { 'x-trace': 'abc' } });
    await api.post('/pets', PET);
    await api.get('/pets/99999');
    const response = await admin('GET', '/journal');
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(3);
    expect(response.body.capacity).toBe(1000);
    const [missing, created, listed] = response.body.entries;
    expect(listed).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      query: { limit: '2', status: 'sold' },
      status: 200,
      operationId: 'listPets',
      validation: { valid: true, violations: [] },
    });
    // A duration to 0.01 ms (its exact value is asserted with fake timers in scenarios.test.ts).
    expect(listed.durationMs).toBe(Math.round(listed.durationMs * 100) / 100);
    expect(listed.requestHeaders['x-trace']).toBe('abc');
    expect(listed.requestHeaders.authorization).toBe('Bearer [redacted]');
    expect(created).toMatchObject({ method: 'POST', status: 201, operationId: 'createPet', requestBody: PET });
    expect(missing).toMatchObject({ status: 404, operationId: 'getPet', validation: { valid: true } });
    expect(missing.seq).toBeGreaterThan(created.seq);
    expect(response.text).not.toContain(TEST_KEY);
  });

  it('does not record admin requests, and clears', async () => {
    await api.get('/pets?limit=1');
    await admin('GET', '/state');
    await admin('GET', '/journal');
    expect(api.server.journal()).toHaveLength(1);
    const cleared = await admin('DELETE', '/journal');
    expect(cleared.body).toEqual({ cleared: 1 });
    expect((await admin('GET', '/journal')).body).toMatchObject({ count: 0, entries: [] });
  });

  it('filters by method, path (exact or prefix*), status (code or class), operation and limit', async () => {
    await api.get('/pets?limit=1');
    await api.get('/pets/1');
    await api.get('/pets/99999');
    await api.post('/pets', PET);
    await api.get('/pets', { key: 'wrong' });
    const seqs = async (query: string) =>
      (await admin('GET', `/journal?${query}`)).body.entries.map(
        (e: { status: number; path: string }) => `${e.status} ${e.path}`,
      );
    expect(await seqs('method=post')).toEqual(['201 /v1/pets']);
    expect(await seqs('path=/v1/pets/1')).toEqual(['200 /v1/pets/1']);
    expect(await seqs('path=/v1/pets/*')).toEqual(['404 /v1/pets/99999', '200 /v1/pets/1']);
    expect(await seqs('status=4xx')).toEqual(['401 /v1/pets', '404 /v1/pets/99999']);
    expect(await seqs('status=404')).toEqual(['404 /v1/pets/99999']);
    expect(await seqs('operation=getPet&status=2xx')).toEqual(['200 /v1/pets/1']);
    expect(await seqs('limit=2')).toEqual(['401 /v1/pets', '201 /v1/pets']);
    expect(api.server.journal({ operation: 'listPets' }).map((e) => e.status)).toEqual([401, 200]);
  });

  it.each([
    ['status=teapot', 'query.status must be a status like 404'],
    ['limit=0', 'query.limit must be a whole number >= 1'],
    ['limit=abc', 'query.limit must be a whole number >= 1'],
    ['operationId=listPets', 'query.operationId is not a filter; use method, path, status, operation, limit'],
    ['method=GET&method=POST', 'query.method must be given once'],
  ])('rejects the filter %s with a 400 naming it', async (query, message) => {
    expectError(await admin('GET', `/journal?${query}`), 400, 'invalid_parameter', message);
  });

  it('is a ring buffer: it keeps the newest journalSize requests', async () => {
    const small = await startApi({ journalSize: 3 });
    try {
      for (const limit of [1, 2, 3, 4, 5]) await small.get(`/pets?limit=${limit}`);
      const entries = small.server.journal();
      expect(entries.map((e) => e.query.limit)).toEqual(['5', '4', '3']);
      expect(entries.map((e) => e.seq)).toEqual([5, 4, 3]);
    } finally {
      await small.close();
    }
  });

  it('judges each answer against openapi.yaml, and says so when one breaks it', async () => {
    // An operation served by prism-http from an example that breaks its own schema, asked for by name (the mock
    // sends a named example as asked; a made-up body that breaks the schema gives way to a valid one): the journal
    // must catch it.
    const document = parse(await readFile(defaultSpecFile, 'utf8'));
    document.paths['/store/orders'] = {
      get: {
        operationId: 'listOrders',
        responses: {
          '200': {
            description: 'orders',
            content: {
              'application/json': {
                schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
                examples: { broken: { value: [{ id: 'x' }] } },
              },
            },
          },
        },
      },
    };
    const broken = await startApi({ spec: document });
    try {
      const response = await fetch(`${broken.server.url}/store/orders`, {
        headers: { authorization: `Bearer ${TEST_KEY}`, prefer: 'example=broken' },
      });
      expect(response.status).toBe(200);
      const [entry] = broken.server.journal({ operation: 'listOrders' });
      expect(entry!.validation).toEqual({
        valid: false,
        violations: [
          {
            path: 'response[0].id',
            rule: 'type',
            message: 'response[0].id must be an integer',
            schemaPath:
              '#/paths/~1store~1orders/get/responses/200/content/application~1json/schema/items/properties/id/type',
          },
        ],
      });
    } finally {
      await broken.close();
    }
  });
});

describe('GET and PUT /__admin/state', () => {
  it('round-trips a snapshot: take it, change the store, restore it', async () => {
    await api.post('/pets', PET);
    const snapshot = (await admin('GET', '/state')).body;
    expect(snapshot.pets.at(-1)).toEqual({ id: snapshot.nextId - 1, ...PET });
    await api.post('/pets', { name: 'Later', categoryId: 1 });
    const restored = await admin('PUT', '/state', { body: snapshot });
    expect(restored.body).toEqual({ petCount: snapshot.pets.length, nextId: snapshot.nextId });
    expect(await api.server.snapshot()).toEqual(snapshot);
  });

  it('restores a hand-written state, computing nextId when it is left out', async () => {
    const response = await admin('PUT', '/state', {
      body: { pets: [{ id: 10, name: 'Solo', categoryId: 2, status: 'sold' }] },
    });
    expect(response.body).toEqual({ petCount: 1, nextId: 11 });
    expect((await api.get('/pets')).body).toEqual([{ id: 10, name: 'Solo', categoryId: 2, status: 'sold' }]);
    expect((await api.post('/pets', PET)).body.id).toBe(11);
  });

  it.each([
    [[], 'body must be a JSON object'],
    [{}, 'body.pets is required'],
    [{ pets: {} }, 'body.pets: must hold a JSON array of Pet records'],
    [
      {
        pets: [
          { id: 1, name: 'A', categoryId: 1 },
          { id: 2, name: 'B', categoryId: 'x' },
        ],
      },
      'body.pets: record 1 (id 2): pet.categoryId must be an integer',
    ],
    [
      { pets: [{ id: 1, name: 'A', categoryId: 1, status: 'lost' }] },
      'body.pets: record 0 (id 1): pet.status must be one of',
    ],
    [
      {
        pets: [
          { id: 1, name: 'A', categoryId: 1 },
          { id: 1, name: 'B', categoryId: 1 },
        ],
      },
      'pet.id 1 is already used by record 0',
    ],
    [
      { pets: [{ id: 5, name: 'A', categoryId: 1 }], nextId: 5 },
      'body.nextId must be an integer greater than every pet id (highest: 5; got 5)',
    ],
  ])('rejects %j with a 400 and leaves the state unchanged', async (body, message) => {
    await api.post('/pets', PET);
    const before = await api.server.snapshot();
    expectError(await admin('PUT', '/state', { body }), 400, 'invalid_body', message);
    expect(await api.server.snapshot()).toEqual(before);
  });

  it('rejects a body that is not JSON', async () => {
    const before = await api.server.snapshot();
    expectError(await admin('PUT', '/state', { body: '{"pets": [' }), 400, 'invalid_json');
    expect(await api.server.snapshot()).toEqual(before);
  });
});

describe('one error path for the admin API too', () => {
  it('answers a fault of its own with the 500 Error and tells onInternalError, with the request', async () => {
    const told: string[] = [];
    const mock = await createMock({
      apiKeys: [TEST_KEY],
      onInternalError: (error, request) => told.push(`${request?.method} ${request?.url}: ${(error as Error).message}`),
    });
    mock.store.snapshot = () => Promise.reject(new TypeError('disk on fire'));
    const { Readable } = await import('node:stream');
    const reply = await mock.dispatch({
      method: 'GET',
      url: '/__admin/state',
      headers: { authorization: `Bearer ${TEST_KEY}` },
      body: Readable.from([]),
      mountPath: '',
    });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({
      code: 'internal_error',
      message: 'the mock failed to answer this request',
      status: 500,
    });
    expect(reply.headers).toMatchObject({
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'application/json',
    });
    expect(told).toEqual(['GET /__admin/state: disk on fire']);
    // A reply is a value: what observers and the adapter get cannot be changed afterwards.
    expect(Object.isFrozen(reply) && Object.isFrozen(reply.headers)).toBe(true);
  });
});

describe('the programmatic API exposes the same', () => {
  it('createMock: reset, journal, clearJournal, snapshot, restore', async () => {
    const mock = await createMock({ apiKeys: [TEST_KEY] });
    const fixtures = await mock.snapshot();
    await mock.store.create(PET);
    expect((await mock.snapshot()).pets).toHaveLength(fixtures.pets.length + 1);
    await mock.reset();
    expect(await mock.snapshot()).toEqual(fixtures);
    await expect(mock.restore({ pets: [{ id: 1, name: 3, categoryId: 1 }] })).rejects.toThrow(InputFileError);
    await expect(mock.restore({ pets: [{ id: 1, name: 3, categoryId: 1 }] })).rejects.toThrow(
      'snapshot.pets: record 0 (id 1): pet.name must be a string',
    );
    expect(await mock.snapshot()).toEqual(fixtures);
    await mock.restore({ pets: [{ id: 3, name: 'C', categoryId: 1 }], nextId: 100 });
    expect((await mock.store.create(PET)).id).toBe(100);
    const { Readable } = await import('node:stream');
    await mock.dispatch({
      method: 'GET',
      url: '/v1/pets/3',
      headers: { authorization: `Bearer ${TEST_KEY}` },
      body: Readable.from([]),
      mountPath: '',
    });
    expect(mock.journal()).toMatchObject([{ path: '/v1/pets/3', status: 200, operationId: 'getPet' }]);
    expect(() => mock.journal({ status: 'x' })).toThrow('filter.status must be a status');
    expect(mock.clearJournal()).toBe(1);
    expect(mock.journal()).toEqual([]);
  });
});
