import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';
import { MAX_REQUEST_JSON_DEPTH as MAX_JSON_DEPTH } from '../src/json/json-depth.js';
import { runCli, startCli } from './support/cli.js';

/** Sends raw bytes, then more after `pauseMs` if given, and resolves with everything the server sent until it closed. */
function raw(port: number, first: string, options: { then?: string; pauseMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(first);
    if (options.then !== undefined)
      setTimeout(() => socket.writable && socket.write(options.then!), options.pauseMs ?? 0);
  });
}

/** The status and the parsed Error body of a raw HTTP/1.1 answer. */
function parseRaw(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, head: head.toLowerCase(), body: JSON.parse(body) as unknown };
}

describe('a full store', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ fixtures: [{ id: 1, name: 'Seed', categoryId: 1 }], maxPets: 3 });
  });
  afterAll(() => api.close());

  it('takes creates up to maxPets, then answers 409 store_full and stores nothing', async () => {
    expect((await api.post('/pets', { name: 'two', categoryId: 1 })).status).toBe(201);
    expect((await api.post('/pets', { name: 'three', categoryId: 1 })).status).toBe(201);
    const refused = await api.post('/pets', { name: 'four', categoryId: 1 });
    expectError(refused, 409, 'store_full', 'maximum of 3 pets', '--max-pets');
    expect(await api.server.mock.store.count()).toBe(3);
    expectError(await api.get('/pets/4'), 404, 'not_found');
    expect((await api.get('/pets')).body.map((pet: { name: string }) => pet.name)).toEqual(['Seed', 'two', 'three']);
    // Reading still works, and a reset makes room again.
    await api.server.reset();
    expect((await api.post('/pets', { name: 'again', categoryId: 1 })).body.id).toBe(2);
  });

  it('refuses to start when the fixtures alone exceed maxPets', async () => {
    await expect(
      startApi({
        fixtures: [
          { id: 1, name: 'a', categoryId: 1 },
          { id: 2, name: 'b', categoryId: 1 },
        ],
        maxPets: 1,
      }),
    ).rejects.toThrow(/fixtures hold 2 pets, more than maxPets \(1\)/);
  });
});

describe('--max-pets', () => {
  it('caps the store of the CLI mock', async () => {
    const { child, match } = await startCli(
      ['mock', '--port', '0', '--api-key', TEST_KEY, '--max-pets', '58'],
      /listening on (\S+)/,
    );
    try {
      const create = () =>
        fetch(`${match[1]}/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: '{"name":"one more","categoryId":1}',
        });
      // 57 fixture pets: room for exactly one more.
      expect((await create()).status).toBe(201);
      const refused = await create();
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ code: 'store_full', status: 409 });
    } finally {
      child.kill('SIGTERM');
    }
  });

  it.each([
    [['--max-pets', '0'], 2, '--max-pets must be a whole number from 1'],
    [['--max-pets', 'lots'], 2, '--max-pets must be a whole number'],
    [['--max-pets', '10'], 1, 'fixtures hold 57 pets, more than maxPets (10)'],
  ])('refuses %j with exit %i and one clear line', async (args, code, message) => {
    const result = await runCli(['mock', '--port', '0', ...args]);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });
});

describe('request limits', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ headersTimeout: 300, requestTimeout: 600 });
  });
  afterAll(() => api.close());

  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it(`accepts a body nested ${MAX_JSON_DEPTH} levels deep, and drops the unknown field that holds it`, async () => {
    const response = await api.post('/pets', `{"name":"deep","categoryId":1,"extra":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: response.body.id, name: 'deep', categoryId: 1 });
  });

  it.each([
    ['one level too deep', `{"name":"deep","categoryId":1,"extra":${nested(MAX_JSON_DEPTH)}}`],
    ['a hundred thousand levels', nested(100_000)],
  ])('rejects a body nested %s with 400 and stores nothing', async (_, body) => {
    const size = await api.server.mock.store.count();
    expectError(
      await api.post('/pets', body),
      400,
      'invalid_body',
      `deeper than the limit of ${MAX_JSON_DEPTH} levels`,
    );
    expect(await api.server.mock.store.count()).toBe(size);
  });

  it('answers a client that never finishes its headers with a 408 Error and closes', async () => {
    const answer = parseRaw(
      await raw(api.server.port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n`),
    );
    expect(answer.status).toBe(408);
    expect(answer.head).toContain('connection: close');
    expect(answer.body).toEqual({
      code: 'request_timeout',
      message: expect.stringContaining('not received in time'),
      status: 408,
    });
  });

  it('answers a client that never finishes its body with a 408 Error, and stores nothing', async () => {
    const size = await api.server.mock.store.count();
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n`;
    const answer = parseRaw(await raw(api.server.port, head, { then: '{"name":"slow",', pauseMs: 50 }));
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ code: 'request_timeout', status: 408 });
    expect(await api.server.mock.store.count()).toBe(size);
  });

  it.each([
    ['malformed HTTP', 'GET /v1/pets HTTP/1.1\r\nHost x\r\n\r\n', 400, 'bad_request'],
    ['a bad method token', 'G(T /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    [
      'headers over the size limit',
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
  ])('answers %s with the Error shape and nosniff, not a bare status line', async (_, request, status, code) => {
    const answer = parseRaw(await raw(api.server.port, request));
    expect(answer.status).toBe(status);
    expect(answer.head).toContain('content-type: application/json');
    expect(answer.head).toContain('x-content-type-options: nosniff');
    expect(answer.body).toEqual({ code, message: expect.any(String), status });
  });

  it('answers a malformed HEAD request without content', async () => {
    const text = await raw(api.server.port, 'HEAD /v1/pets?limit=\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('keeps a keep-alive connection for several requests', async () => {
    const request = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`;
    const text = await raw(api.server.port, request + request, {
      then: `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`,
      pauseMs: 20,
    });
    expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(3);
  });

  it.each([
    [{ headersTimeout: 0 }, /headersTimeout must be a whole number/],
    [{ headersTimeout: 2_000, requestTimeout: 1_000 }, /must not be longer than requestTimeout/],
  ])('rejects timeouts %j', async (options, message) => {
    await expect(startApi(options)).rejects.toThrow(message);
  });
});

describe('1,000 concurrent creates', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('lose nothing and duplicate no id', async () => {
    const store = api.server.mock.store;
    const seed = await store.count();
    const responses = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) =>
        fetch(`${api.server.url}/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `pet ${i}`, categoryId: i + 1 }),
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as { id: number; name: string; categoryId: number },
        })),
      ),
    );
    expect(responses.filter((r) => r.status !== 201)).toEqual([]);
    const ids = responses.map((r) => r.body.id);
    expect(new Set(ids).size).toBe(1_000);
    expect(await store.count()).toBe(seed + 1_000);
    for (const { body } of responses) {
      expect(await store.get(body.id)).toEqual(body);
      expect(body.name).toBe(`pet ${body.categoryId - 1}`);
    }
    // Ids are consecutive after the seed's highest: nothing skipped, nothing reused.
    expect([...ids].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 1_000 }, (_, i) => ids.reduce((m, id) => Math.min(m, id)) + i),
    );
  });
});

describe('what a failure reveals', () => {
  let api: Api;
  const logged: unknown[] = [];
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());
  afterEach(() => vi.restoreAllMocks());

  it('answers a fault of the mock with a 500 Error that holds no stack trace, path or key, and logs the request without its key', async () => {
    // The pets' collection store: the general create handler calls it.
    const store = api.server.mock.store.collection('pets');
    const size = await store.count();
    vi.spyOn(store, 'create').mockImplementation(() => {
      throw new TypeError(`cannot read properties of undefined at ${process.cwd()}/src/mock/store.ts:42`);
    });
    const printed = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args));
    // The key travels in the header and, as careless clients do, in the query: the operator's log gets neither.
    const response = await fetch(`${api.server.url}/pets?api_key=${TEST_KEY}&note=${TEST_KEY}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', categoryId: 1 }),
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(JSON.parse(text)).toEqual({
      code: 'internal_error',
      message: 'the mock failed to answer this request',
      status: 500,
    });
    for (const secret of [process.cwd(), 'store.ts', ' at ', TEST_KEY, 'TypeError']) expect(text).not.toContain(secret);
    // The fault is logged for the operator, without the request's key.
    expect(printed).toHaveBeenCalled();
    const log = logged.map((args) => (args as unknown[]).map(String).join(' ')).join('\n');
    expect(log).toContain('cannot read properties');
    // The logger saw the request (its method and path are there), so the missing key is redaction, not absence.
    expect(log).toContain('petstore-kit: internal error on POST /v1/pets?api_key=***&note=***:');
    // One line, never a stack trace: the name, the message and where it was thrown.
    expect(log).not.toContain('\n');
    expect(log).toMatch(/: TypeError: cannot read properties .* \(at .+\)$/);
    expect(log).not.toContain(TEST_KEY);
    expect(await store.count()).toBe(size);
  });
});
