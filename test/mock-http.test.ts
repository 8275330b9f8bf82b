import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const operations = [
  ['listPets', 'GET', '/pets', undefined],
  ['createPet', 'POST', '/pets', { name: 'x', categoryId: 1 }],
  ['getPet', 'GET', '/pets/1', undefined],
] as const;

describe('bearer auth on every operation', () => {
  it.each(operations)('%s: a valid key is accepted', async (_, method, path, body) => {
    const response = await api.request(method, path, { body });
    expect(response.status).toBeLessThan(300);
  });

  describe.each(operations)('%s', (_, method, path, body) => {
    it.each([
      ['no header', null, undefined, 'is missing', 'Bearer realm="petstore"'],
      [
        'the Basic scheme',
        null,
        `Basic ${Buffer.from(`u:${TEST_KEY}`).toString('base64')}`,
        'Bearer scheme',
        'error="invalid_request"',
      ],
      ['an empty token', null, 'Bearer ', 'no API key', 'error="invalid_request"'],
      ['an unknown key', 'wrong-key', undefined, 'not valid', 'error="invalid_token"'],
    ])('rejects %s with 401, a challenge, and stores nothing', async (_, key, authorization, message, challenge) => {
      const size = await api.server.mock.store.count();
      const response = await api.request(method, path, { body, key, headers: authorization ? { authorization } : {} });
      expectError(response, 401, 'unauthorized', message);
      expect(response.headers.get('www-authenticate')).toContain(challenge);
      expect(response.text).not.toContain(TEST_KEY);
      expect(await api.server.mock.store.count()).toBe(size);
    });
  });

  it('checks auth before the body, so an unauthenticated bad body gets 401', async () => {
    expectError(await api.post('/pets', '{', { key: 'nope' }), 401, 'unauthorized');
  });
});

describe('routes from the document', () => {
  it.each([
    ['/pet', 'no operation at GET /v1/pet'],
    ['/pets/1/owner', 'no operation'],
    ['//pets', 'paths start with /v1'],
    ['//v2/pets', 'paths start with /v1'],
    ['//', 'paths start with /v1'],
    ['/pets/', 'no operation'],
    // On the root and the base path, the 404 lists the document's operations: what a lost client needs to know.
    ['//', 'its operations are GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}'],
    [
      '',
      "no operation at GET /v1; this API's paths start with /v1, and its operations are GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}",
    ],
    [
      '/',
      "no operation at GET /v1/; this API's paths start with /v1, and its operations are GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}",
    ],
  ])('answers an unknown path %s with a 404 Error', async (path, message) => {
    expectError(await api.get(path), 404, 'not_found', message);
  });

  it.each([
    ['DELETE', '/pets', 'GET, POST, HEAD, OPTIONS'],
    ['PUT', '/pets/1', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/pets/1', 'GET, HEAD, OPTIONS'],
    ['POST', '/pets/1', 'GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405 and Allow', async (method, path, allow) => {
    const response = await api.request(method, path, { body: method === 'DELETE' ? undefined : {} });
    expectError(response, 405, 'method_not_allowed', method, allow);
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('answers HEAD like GET, without the body', async () => {
    const response = await api.request('HEAD', '/pets?limit=3');
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('answers OPTIONS with Allow', async () => {
    const response = await api.request('OPTIONS', '/pets', { key: null });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('sends no-store and nosniff, and no X-Powered-By or ETag', async () => {
    const response = await api.get('/pets');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('etag')).toBeNull();
  });

  it('never answers with HTML or a stack trace, even for a malformed path', async () => {
    for (const path of ['/pets/%E0%A4%A', '/%', '/pets?limit=%zz', '/pets/%00']) {
      const response = await api.get(path);
      expect(response.status).toBeLessThan(500);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.text).not.toMatch(/<html|at .*\.(js|ts):\d+/i);
    }
  });
});

describe('CORS for a browser app on another origin', () => {
  const origin = 'http://localhost:5173';

  it('answers a preflight without auth, allowing Authorization and Content-Type', async () => {
    const response = await api.request('OPTIONS', '/pets', {
      key: null,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });

  it('lets the app read responses, errors and Location included', async () => {
    const created = await api.post('/pets', { name: 'Cors', categoryId: 1 }, { headers: { origin } });
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    expect(created.headers.get('access-control-expose-headers')).toContain('Location');
    const denied = await api.get('/pets', { key: 'nope', headers: { origin } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS restricted to configured origins', () => {
  let strict: Api;
  beforeAll(async () => {
    strict = await startApi({ cors: { origins: ['http://app.test'] } });
  });
  afterAll(() => strict.close());

  it('echoes an allowed origin with Vary', async () => {
    const response = await strict.get('/pets', { headers: { origin: 'http://app.test' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('gives another origin no CORS grant', async () => {
    const response = await strict.request('OPTIONS', '/pets', {
      key: null,
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'GET' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(
      (await strict.get('/pets', { headers: { origin: 'http://evil.test' } })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();
  });
});

describe('configuration', () => {
  it('takes keys from PETSTORE_API_KEYS', async () => {
    process.env.PETSTORE_API_KEYS = 'env-one, env-two';
    const env = await startApi({ apiKeys: undefined });
    delete process.env.PETSTORE_API_KEYS;
    try {
      expect((await env.get('/pets', { key: 'env-two' })).status).toBe(200);
      expect((await env.get('/pets', { key: 'petstore-dev-key' })).status).toBe(401);
      expect(env.server.mock.usingDevKey).toBe(false);
    } finally {
      await env.close();
    }
  });

  it('accepts the development key when none is configured', async () => {
    const dev = await startApi({ apiKeys: [] });
    try {
      expect(dev.server.mock.usingDevKey).toBe(true);
      expect((await dev.get('/pets', { key: 'petstore-dev-key' })).status).toBe(200);
    } finally {
      await dev.close();
    }
  });

  it('honours a smaller body limit', async () => {
    const small = await startApi({ bodyLimit: 64 });
    try {
      expectError(
        await small.post('/pets', { name: 'x'.repeat(100), categoryId: 1 }),
        413,
        'payload_too_large',
        '64 bytes',
      );
      expect((await small.post('/pets', { name: 'short', categoryId: 1 })).status).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('observers', () => {
  // The duration's value is asserted exactly, with fake timers, in scenarios.test.ts.
  it('hear every finished request with its operation, status and duration', async () => {
    const seen: string[] = [];
    const observer = (exchange: import('../src/mock/front-door/observers.js').ServedRequest) => {
      seen.push(
        `${exchange.request.method} ${exchange.operation?.id ?? '-'} ${exchange.reply.status} ${Number.isFinite(exchange.durationMs)}`,
      );
    };
    api.server.mock.observers.add(observer);
    try {
      await api.get('/pets?limit=1');
      await api.get('/pets/999');
      await api.get('/nowhere');
    } finally {
      api.server.mock.observers.delete(observer);
    }
    expect(seen).toEqual(['GET listPets 200 true', 'GET getPet 404 true', 'GET - 404 true']);
  });
});
