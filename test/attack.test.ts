import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';
import { rawRequest } from './support/raw-http.js';
import type { MemoryCollectionStore } from '../src/mock/store/memory.js';

// Each repro of the attack report, run again over real HTTP, with the answer it must get now.
// A key with `/` and `=`, which a client may percent-encode in part.
const SLASH_KEY = 'k3y/with=';
let api: Api;
beforeAll(async () => {
  api = await startApi({ apiKeys: [TEST_KEY, SLASH_KEY] });
});
afterAll(() => api.close());

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const host = () => `Host: 127.0.0.1:${api.server.port}`;
const size = () => api.server.mock.store.count();
const parseBody = (text: string) => JSON.parse(text) as { code: string; message: string; status: number };

/** A POST whose body is sent in chunks (Transfer-Encoding: chunked, no Content-Length). */
function chunkedPost(
  path: string,
  pieces: Buffer[],
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: api.server.port,
        method: 'POST',
        path,
        headers: {
          authorization: `Bearer ${TEST_KEY}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

describe('CORS and the admin API', () => {
  it('sends no CORS headers on /__admin under the default any-origin policy, preflights included', async () => {
    const read = await fetch(`${api.server.origin}/__admin/journal`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, origin: 'https://evil.example' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${api.server.origin}/__admin/state`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    // The API itself keeps its CORS.
    expect(
      (await api.get('/pets?limit=1', { headers: { origin: 'https://app.example' } })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBe('*');
  });

  it('allows /__admin from an origin named with --cors-origin, and only that one', async () => {
    const named = await startApi({ cors: { origins: ['http://localhost:5173'] } });
    try {
      const allowed = await fetch(`${named.server.origin}/__admin/journal`, {
        headers: { authorization: `Bearer ${TEST_KEY}`, origin: 'http://localhost:5173' },
      });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      const other = await fetch(`${named.server.origin}/__admin/journal`, {
        headers: { authorization: `Bearer ${TEST_KEY}`, origin: 'https://evil.example' },
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await named.close();
    }
  });
});

describe('keys never leak', () => {
  it('journals `Authorization: KEY please`, Cookie and Proxy-Authorization without the key', async () => {
    api.server.clearJournal();
    await api.get('/pets?limit=1', {
      headers: {
        authorization: `${TEST_KEY} please`,
        cookie: `session=${TEST_KEY}; theme=dark`,
        'proxy-authorization': `${SLASH_KEY} x`,
      },
    });
    await api.get('/pets?limit=1', { headers: { 'proxy-authorization': `Basic ${TEST_KEY}` } });
    const text = await (
      await fetch(`${api.server.origin}/__admin/journal`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
    ).text();
    expect(text).not.toContain(TEST_KEY);
    expect(text).not.toContain(SLASH_KEY);
    const [basic, first] = api.server.journal();
    expect(first!.requestHeaders).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'proxy-authorization': '[redacted]',
    });
    expect(basic!.requestHeaders).toMatchObject({
      authorization: 'Bearer [redacted]',
      'proxy-authorization': 'Basic [redacted]',
    });
  });

  it.each([
    ['the path, wholly encoded', `/v1/pets/${encodeURIComponent(SLASH_KEY)}`],
    ['the path, partly encoded', '/v1/pets/k3y/with%3D'],
    ['an unknown path', '/v1/k3y%2Fwith%3D/x'],
    ['a query value, partly encoded', '/v1/pets?limit=k3y%2Fwith='],
    ['a query name', '/v1/pets?k3y%2Fwith%3D=1'],
  ])('keeps a key with / and = put in %s out of the log, the journal and the answer', async (_, target) => {
    const lines: string[] = [];
    const logged = await startApi({
      apiKeys: [SLASH_KEY],
      log: {
        format: 'text',
        stream: { write: (line: string) => lines.push(line), once: () => undefined, isTTY: false } as never,
      },
    });
    try {
      const answer = await fetch(logged.server.origin + target, { headers: { authorization: `Bearer ${SLASH_KEY}` } });
      const text = await answer.text();
      expect(text).not.toContain(SLASH_KEY);
      expect(text).not.toContain('k3y%2Fwith');
      expect(text).not.toContain('k3y/with%3D');
      await logged.server.close();
      const journal = JSON.stringify(logged.server.journal());
      for (const leak of [SLASH_KEY, 'k3y%2Fwith', 'k3y/with%3D', 'k3y%2Fwith%3D']) {
        expect(journal).not.toContain(leak);
        expect(lines.join('')).not.toContain(leak);
      }
      expect(lines.join('')).toContain('***');
    } finally {
      await logged.server.close().catch(() => undefined);
    }
  });

  it('does not echo a key put in the URL in a 404 message', async () => {
    const answer = await api.get(`/pets/${TEST_KEY}`);
    expectError(answer, 404, 'not_found', '***');
    expect(answer.text).not.toContain(TEST_KEY);
    const unknown = await api.get(`//nowhere/${TEST_KEY}`);
    expectError(unknown, 404, 'not_found');
    expect(unknown.text).not.toContain(TEST_KEY);
  });
});

describe('the journal bounds what it keeps by bytes actually read', () => {
  it('notes chunked bodies over 4 KiB by their size instead of keeping them', async () => {
    api.server.clearJournal();
    const big = Buffer.from(JSON.stringify({ name: 'x'.repeat(20_000), categoryId: 1 }));
    const answer = await chunkedPost('/v1/pets', [big.subarray(0, 5_000), big.subarray(5_000)]);
    expect(answer.status).toBe(201);
    const small = await chunkedPost('/v1/pets', [Buffer.from('{"name":"tiny",'), Buffer.from('"categoryId":2}')]);
    expect(small.status).toBe(201);
    const [kept, noted] = api.server.journal({ operation: 'createPet' });
    expect(noted!.requestBody).toBe(`[a body of ${big.length} bytes, not kept]`);
    expect(kept!.requestBody).toEqual({ name: 'tiny', categoryId: 2 });
  });
});

describe('bodies the mock cannot take get 400 or 415, and nothing is stored', () => {
  it('answers a body that is not UTF-8 with 400 invalid_json', async () => {
    const before = await size();
    const bytes = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('","categoryId":1}'),
    ]);
    const answer = await chunkedPost('/v1/pets', [bytes]);
    expect(answer.status).toBe(400);
    expect(parseBody(answer.text)).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('UTF-8') });
    expect(await size()).toBe(before);
  });

  it.each([
    ['a gzip body labelled gzip', gzipSync('{"name":"Rex","categoryId":1}'), 'gzip'],
    ['a plain body labelled gzip', Buffer.from('{"name":"Rex","categoryId":1}'), 'gzip'],
    ['a plain body labelled br', Buffer.from('{"name":"Rex","categoryId":1}'), 'br'],
    ['a plain body labelled deflate, identity', Buffer.from('{"name":"Rex","categoryId":1}'), 'deflate, identity'],
  ])('answers %s with 415 and Accept-Encoding: identity', async (_, body, encoding) => {
    const before = await size();
    const answer = await fetch(`${api.server.url}/pets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
        'content-encoding': encoding,
      },
      body,
    });
    expect(answer.status).toBe(415);
    expect(answer.headers.get('accept-encoding')).toBe('identity');
    expect(await answer.json()).toMatchObject({
      code: 'unsupported_media_type',
      message: expect.stringContaining('Content-Encoding'),
      status: 415,
    });
    expect(await size()).toBe(before);
  });

  it('takes Content-Encoding: identity as no encoding', async () => {
    const answer = await api.post(
      '/pets',
      { name: 'Plain', categoryId: 1 },
      { headers: { 'content-encoding': 'identity' } },
    );
    expect(answer.status).toBe(201);
  });

  it.each(['latin1', 'ISO-8859-1', 'utf-16', '"utf-16le"', 'windows-1252'])(
    'answers charset=%s with 415',
    async (charset) => {
      const before = await size();
      const answer = await api.post('/pets', '{"name":"Zo\u00e9","categoryId":1}', {
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expectError(answer, 415, 'unsupported_media_type', 'charset', 'UTF-8');
      expect(await size()).toBe(before);
    },
  );

  it.each(['utf-8', 'UTF-8', '"utf-8"', 'utf8'])('accepts charset=%s', async (charset) => {
    expect(
      (
        await api.post(
          '/pets',
          { name: 'Zoé', categoryId: 1 },
          { headers: { 'content-type': `application/json; charset=${charset}` } },
        )
      ).body,
    ).toMatchObject({ name: 'Zoé' });
  });
});

describe('Expect: 100-continue', () => {
  const body = '{"name":"Continued","categoryId":1}';
  const request = (authorization: string, length = body.length) =>
    head([
      'POST /v1/pets HTTP/1.1',
      host(),
      `Authorization: ${authorization}`,
      'Content-Type: application/json',
      `Content-Length: ${length}`,
      'Expect: 100-continue',
    ]);

  it('answers a wrong key with 401 and never 100 Continue, so the body is never uploaded', async () => {
    const before = await size();
    const answer = await rawRequest(api.server.port, request('Bearer wrong'));
    expect(answer.text).not.toContain('100 Continue');
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe('close');
    expect(parseBody(answer.body).code).toBe('unauthorized');
    expect(await size()).toBe(before);
  });

  it('answers a declared size over the limit with 413 and never 100 Continue', async () => {
    const answer = await rawRequest(api.server.port, request(`Bearer ${TEST_KEY}`, 2 * 1024 * 1024 * 1024));
    expect(answer.text).not.toContain('100 Continue');
    expect(answer.status).toBe(413);
  });

  it('sends 100 Continue once the checks pass, then takes the body', async () => {
    const answer = await rawRequest(api.server.port, request(`Bearer ${TEST_KEY}`), {
      then: (first, write) => {
        expect(first).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
        write(body);
      },
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ name: 'Continued' });
  });

  it('answers an expectation it cannot meet (Expect: 200-ok) with 417 in the Error shape, nosniff, and stores nothing', async () => {
    const before = await size();
    const answer = await rawRequest(
      api.server.port,
      request(`Bearer ${TEST_KEY}`).replace('Expect: 100-continue', 'Expect: 200-ok'),
    );
    expect(answer.status).toBe(417);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');
    expect(parseBody(answer.body)).toEqual({
      code: 'expectation_failed',
      status: 417,
      message: 'header.Expect "200-ok" cannot be met: the only expectation the mock knows is 100-continue',
    });
    expect(await size()).toBe(before);
  });
});

describe('malformed requests Node lets through', () => {
  it('answers a valid key followed by a wrong one with 400, not 200', async () => {
    const answer = await rawRequest(
      api.server.port,
      head([
        'GET /v1/pets?limit=1 HTTP/1.1',
        host(),
        `Authorization: Bearer ${TEST_KEY}`,
        'Authorization: Bearer wrong',
      ]),
    );
    expect(answer.status).toBe(400);
    expect(parseBody(answer.body)).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('2 Authorization header fields'),
      status: 400,
    });
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers two Content-Types with 400 and stores nothing', async () => {
    const before = await size();
    const body = '{"name":"Twice","categoryId":1}';
    const answer = await rawRequest(
      api.server.port,
      head([
        'POST /v1/pets HTTP/1.1',
        host(),
        `Authorization: Bearer ${TEST_KEY}`,
        'Content-Type: application/json',
        'Content-Type: text/plain',
        `Content-Length: ${body.length}`,
      ]) + body,
    );
    expect(answer.status).toBe(400);
    expect(parseBody(answer.body)).toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('Content-Type'),
    });
    expect(await size()).toBe(before);
  });

  it('answers HTTP/1.1 without Host with the Error shape', async () => {
    const answer = await rawRequest(
      api.server.port,
      head(['GET /v1/pets HTTP/1.1', `Authorization: Bearer ${TEST_KEY}`]),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(parseBody(answer.body)).toEqual({
      code: 'bad_request',
      message: expect.stringContaining('Host'),
      status: 400,
    });
    // HTTP/1.0 has no Host requirement.
    const old = await rawRequest(
      api.server.port,
      head(['GET /v1/pets?limit=1 HTTP/1.0', `Authorization: Bearer ${TEST_KEY}`]),
    );
    expect(old.status).toBe(200);
  });
});

describe('memory bounds', () => {
  it('answers 409 store_full once the pets reach --max-store-bytes, storing nothing more; reads go on', async () => {
    const bounded = await startApi({ maxStoreBytes: 60_000 });
    try {
      const name = 'n'.repeat(10_000);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await bounded.post('/pets', { name, categoryId: 1 })).status);
      // The fixtures take about 4 KB, so five 10 KB pets fit and the sixth does not.
      expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
      const full = await bounded.post('/pets', { name, categoryId: 1 });
      expectError(full, 409, 'store_full', '--max-store-bytes', 'bytes');
      expect(await bounded.server.mock.store.count()).toBe(62);
      expect((bounded.server.mock.store.collection('pets') as MemoryCollectionStore).bytes).toBeLessThanOrEqual(60_000);
      // Small pets may still fit; reads are unaffected.
      expect((await bounded.post('/pets', { name: 'Tiny', categoryId: 1 })).status).toBe(201);
      expect((await bounded.get('/pets?limit=100')).body).toHaveLength(63);
    } finally {
      await bounded.close();
    }
  });

  it('refuses a restored snapshot larger than the budget with 409, keeping the state', async () => {
    const bounded = await startApi({ maxStoreBytes: 20_000 });
    try {
      const pets = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: 'n'.repeat(5_000), categoryId: 1 }));
      const answer = await fetch(`${bounded.server.origin}/__admin/state`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pets }),
      });
      expect(answer.status).toBe(409);
      expect(await answer.json()).toMatchObject({
        code: 'store_full',
        message: expect.stringContaining('--max-store-bytes'),
      });
      expect(await bounded.server.mock.store.count()).toBe(57);
    } finally {
      await bounded.close();
    }
  });

  it('answers connections past --max-connections with 503 and a log line, and serves again once they close', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => void errors.push(String(line));
    const capped = await startApi({ maxConnections: 3 });
    const { connect } = await import('node:net');
    const idle = Array.from({ length: 3 }, () => connect(capped.server.port, '127.0.0.1'));
    try {
      await Promise.all(idle.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
      const refused = await rawRequest(
        capped.server.port,
        head([
          'GET /v1/pets?limit=1 HTTP/1.1',
          `Host: 127.0.0.1:${capped.server.port}`,
          `Authorization: Bearer ${TEST_KEY}`,
        ]),
      );
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(parseBody(refused.body)).toMatchObject({ code: 'too_many_connections', status: 503 });
      expect(errors.join('\n')).toMatch(/connections are open, more than the 3 allowed \(--max-connections\)/);
      for (const socket of idle) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await capped.get('/pets?limit=1')).status).toBe(200);
    } finally {
      console.error = original;
      for (const socket of idle) socket.destroy();
      await capped.close();
    }
  });
});

describe('int64 categoryId, in and out, with exactly the digits sent', () => {
  it.each([
    '9223372036854775807',
    '-9223372036854775808',
    '55891266195648512',
    '9007199254740993',
    '-9007199254740993',
    '9007199254740991',
    '0',
  ])('stores and returns %s', async (digits) => {
    const created = await api.post('/pets', `{"name":"Big","categoryId":${digits}}`);
    expect(created.status).toBe(201);
    expect(created.text).toContain(`"categoryId":${digits}}`);
    const id = (created.body as { id: number }).id;
    expect((await api.get(`/pets/${id}`)).text).toContain(`"categoryId":${digits}}`);
    expect((await api.get('/pets?limit=100')).text).toContain(`"id":${id},"name":"Big","categoryId":${digits}}`);
    const journal = await (
      await fetch(`${api.server.origin}/__admin/journal?operation=createPet&limit=1`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      })
    ).text();
    expect(journal).toContain(`"requestBody":{"name":"Big","categoryId":${digits}}`);
    const state = await (
      await fetch(`${api.server.origin}/__admin/state`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
    ).text();
    expect(state).toContain(`"categoryId":${digits}}`);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '1e19', '123456789012345678901234567890'])(
    'refuses %s with 400, storing nothing',
    async (digits) => {
      const before = await size();
      expectError(
        await api.post('/pets', `{"name":"Big","categoryId":${digits}}`),
        400,
        'invalid_body',
        'body.categoryId',
        'int64',
      );
      expect(await size()).toBe(before);
    },
  );

  it('answers a petId beyond the ids the store hands out with 404, not another pet', async () => {
    expectError(await api.get('/pets/9223372036854775807'), 404, 'not_found', 'no pet has id 9223372036854775807');
    // 2^53 + 1 rounds to 2^53 as a double: it must not find a pet stored under a rounded id either.
    expectError(await api.get('/pets/9007199254740993'), 404, 'not_found', '9007199254740993');
    expectError(await api.get('/pets/9223372036854775808'), 404, 'not_found', 'path.petId');
  });
});
