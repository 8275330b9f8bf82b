import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApi, expectError, type Api } from './support/api.js';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
beforeEach(() => api.server.reset());
afterAll(() => api.close());

/** The whole store as the API shows it, to prove a rejected request stored nothing. */
async function allPets() {
  return (await api.get('/pets?limit=100')).body as { id: number }[];
}

describe('listPets', () => {
  it('returns 20 pets by default, in id order', async () => {
    const response = await api.get('/pets');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(20);
    const ids = response.body.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it.each([1, 7, 57, 100])('returns at most limit=%i pets', async (limit) => {
    const response = await api.get(`/pets?limit=${limit}`);
    expect(response.body).toHaveLength(Math.min(limit, await api.server.mock.store.count()));
  });

  it.each(['available', 'pending', 'sold'])('filters by status=%s', async (status) => {
    const response = await api.get(`/pets?status=${status}&limit=100`);
    expect(response.body.length).toBeGreaterThan(0);
    expect(response.body.every((p: { status: string }) => p.status === status)).toBe(true);
    expect(response.body.length).toBe((await api.server.mock.store.list({ limit: 100, status })).length);
  });

  it('answers the same list twice (a stable order)', async () => {
    expect((await api.get('/pets?limit=50')).body).toEqual((await api.get('/pets?limit=50')).body);
  });

  it.each([
    ['limit=0', 'query.limit must be >= 1'],
    ['limit=101', 'query.limit must be <= 100'],
    ['limit=-1', 'query.limit must be >= 1'],
    ['limit=abc', 'query.limit must be an integer'],
    ['limit=1.5', 'query.limit must be an integer'],
    ['limit=', 'query.limit must be an integer'],
    ['limit=9223372036854775808', 'query.limit must be <= 100'],
    ['status=lost', 'query.status must be one of "available", "pending", "sold"'],
  ])('rejects %s with 400 naming the parameter and the rule', async (query, message) => {
    expectError(await api.get(`/pets?${query}`), 400, 'invalid_parameter', message);
  });
});

describe('createPet', () => {
  it('stores a pet and answers 201 with the Pet and its Location', async () => {
    const sent = { name: 'Biscuit', categoryId: 6, status: 'pending' };
    const created = await api.post('/pets', sent);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 58, ...sent });
    expect(created.headers.get('location')).toBe('/v1/pets/58');
    const fetched = await api.get(`/pets/${created.body.id}`);
    expect(fetched.body).toEqual(created.body);
    expect((await allPets()).at(-1)).toEqual(created.body);
  });

  it('accepts a pet without status and stores none', async () => {
    const created = await api.post('/pets', { name: 'Nameless', categoryId: 1 });
    expect(created.body).toEqual({ id: 58, name: 'Nameless', categoryId: 1 });
    expect((await api.get('/pets/58')).body).not.toHaveProperty('status');
  });

  it('drops fields the schema does not know, __proto__ included', async () => {
    const created = await api.post(
      '/pets',
      '{"name":"Odd","categoryId":2,"color":"red","__proto__":{"polluted":true}}',
    );
    expect(created.body).toEqual({ id: 58, name: 'Odd', categoryId: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives unique increasing ids to 200 concurrent creates', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api.post('/pets', { name: `pet-${i}`, categoryId: 1 })),
    );
    const ids = responses.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(200);
    expect(Math.min(...ids)).toBe(58);
    expect(Math.max(...ids)).toBe(257);
    expect(await api.server.mock.store.count()).toBe(257);
  });

  it.each([
    ['a missing name', { categoryId: 1 }, 'invalid_body', 'body.name is required'],
    ['a missing categoryId', { name: 'x' }, 'invalid_body', 'body.categoryId is required'],
    ['a string categoryId', { name: 'x', categoryId: '1' }, 'invalid_body', 'body.categoryId must be an integer'],
    ['a fractional categoryId', { name: 'x', categoryId: 1.5 }, 'invalid_body', 'body.categoryId must be an integer'],
    [
      'a categoryId beyond int64',
      '{"name":"x","categoryId":9223372036854775808}',
      'invalid_body',
      'body.categoryId must match format "int64"',
    ],
    [
      'a categoryId below int64',
      '{"name":"x","categoryId":-9223372036854775809}',
      'invalid_body',
      'body.categoryId must match format "int64"',
    ],
    [
      'a categoryId beyond 2^53 written with an exponent',
      '{"name":"x","categoryId":1e18}',
      'invalid_body',
      'in plain digits',
    ],
    [
      'a categoryId beyond 2^53 with a fraction',
      '{"name":"x","categoryId":9007199254740993.5}',
      'invalid_body',
      'body.categoryId must match format "int64"',
    ],
    ['a numeric name', { name: 5, categoryId: 1 }, 'invalid_body', 'body.name must be a string'],
    [
      'a bad status',
      { name: 'x', categoryId: 1, status: 'lost' },
      'invalid_body',
      'body.status must be one of "available", "pending", "sold"',
    ],
    ['a null status', { name: 'x', categoryId: 1, status: null }, 'invalid_body', 'body.status must be a string'],
    ['an array', '[{"name":"x","categoryId":1}]', 'invalid_body', 'body must be an object'],
    ['a JSON string', '"pet"', 'invalid_body', 'body must be an object'],
    ['null', 'null', 'invalid_body', 'body must be an object'],
    ['invalid JSON', '{"name": "x",', 'invalid_json', 'not valid JSON'],
    ['an empty body', '', 'invalid_body', 'body is required'],
  ])('rejects %s with 400 and stores nothing', async (_, body, code, message) => {
    const before = await allPets();
    expectError(await api.post('/pets', body), 400, code, message);
    expect(await allPets()).toEqual(before);
  });

  it('names every wrong field at once', async () => {
    const response = await api.post('/pets', { categoryId: 'one', status: 'lost' });
    expectError(
      response,
      400,
      'invalid_body',
      'body.name is required',
      'body.categoryId must be an integer',
      'body.status must be one of',
    );
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'rejects Content-Type %s with 415',
    async (type) => {
      const before = await allPets();
      expectError(
        await api.post('/pets', '{"name":"x","categoryId":1}', { headers: { 'content-type': type } }),
        415,
        'unsupported_media_type',
        type,
      );
      expect(await allPets()).toEqual(before);
    },
  );

  it('accepts application/json with a charset', async () => {
    const response = await api.post(
      '/pets',
      { name: 'x', categoryId: 1 },
      { headers: { 'content-type': 'application/json; charset=utf-8' } },
    );
    expect(response.status).toBe(201);
  });

  it('rejects a body over the limit with 413 and stores nothing', async () => {
    const before = await allPets();
    const response = await api.post('/pets', { name: 'x'.repeat(1024 * 1024), categoryId: 1 });
    expectError(response, 413, 'payload_too_large', '1048576 bytes');
    expect(await allPets()).toEqual(before);
  });
});

describe('getPet (deprecated)', () => {
  it('returns the pet asked for', async () => {
    const response = await api.get('/pets/5');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(await api.server.mock.store.get(5));
  });

  it.each(['999', '0', '-3'])('answers 404 for unknown id %s', async (id) => {
    expectError(await api.get(`/pets/${id}`), 404, 'not_found', `no pet has id ${id}`);
  });

  it.each(['abc', '1.5', '%20', '99999999999999999999'])('answers 404 for id %j, which names no pet', async (id) => {
    expectError(await api.get(`/pets/${id}`), 404, 'not_found', 'path.petId');
  });

  it.each(['/pets/5', '/pets/999'])(
    'announces deprecation, sunset and successor on %s from openapi.yaml',
    async (path) => {
      const response = await api.get(path);
      expect(response.headers.get('deprecation')).toBe(`@${Date.parse('2026-11-22T00:00:00Z') / 1000}`);
      expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(response.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
    },
  );

  it('sends no deprecation headers on operations that are not deprecated', async () => {
    const response = await api.get('/pets');
    expect(response.headers.get('deprecation')).toBeNull();
    expect(response.headers.get('sunset')).toBeNull();
  });
});
