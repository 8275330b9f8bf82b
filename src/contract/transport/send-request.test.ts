import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Session } from '../base/session.js';
import { StopRun } from '../base/stop-run.js';
import { describeFetchError, MAX_CONSECUTIVE_NO_ANSWERS, sendRequest } from './send-request.js';
import { sessionFor, UNIT_KEY, writeJson as json } from '../../../test/support/contract-unit.js';

const KEY = UNIT_KEY;

/** What the server saw of the last request, and how it answers the next ones (by path). */
const seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string } = {};
const answers: Record<string, (res: ServerResponse) => void> = {
  '/v1/pets': (res) => json(res, 200, '[{"id":9223372036854775807,"name":"Rex","categoryId":1}]'),
  '/v1/pets/1': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync('{"id":1,"name":"gz","categoryId":2}'));
  },
  '/v1/pets/2': (res) => json(res, 200, `${'['.repeat(80)}${']'.repeat(80)}`),
  '/v1/pets/3': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.from([0x7b, 0xff, 0x7d]));
  },
  '/v1/pets/4': (res) => json(res, 200, JSON.stringify({ name: 'x'.repeat(5000) })),
  '/v1/pets/5': (res) => json(res, 200, 'not json'),
};
let limited = 0;

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      Object.assign(seen, { method: req.method, url: req.url, headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0]!;
      if (path === '/v1/pets/429')
        return limited++ < 1
          ? json(res, 429, '{}', { 'retry-after': '0' })
          : json(res, 404, '{"code":"x","message":"y","status":404}');
      if (path === '/v1/pets/430') return json(res, 429, '{}', { 'retry-after': '0' });
      (answers[path] ?? ((r: ServerResponse) => json(r, 201, '{"id":7,"name":"n","categoryId":1}')))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const session = (overrides: Record<string, unknown> = {}): Promise<Session> =>
  sessionFor(`${base}/`, { maxBody: 4096, ...overrides });

describe('sendRequest', () => {
  it('sends the operation with the key, Accept and Accept-Encoding, and reads a JSON answer int64-exact', async () => {
    const s = await session();
    const exchange = await sendRequest(s, { operation: 'listPets', query: { limit: '2', status: 'a b' } });
    expect(seen).toMatchObject({ method: 'GET', url: '/v1/pets?limit=2&status=a+b' });
    expect(seen.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(exchange).toMatchObject({
      operation: 'listPets',
      method: 'GET',
      status: 200,
      contentType: 'application/json',
      validKey: true,
      problems: {},
    });
    expect(exchange.body).toEqual([{ id: 9223372036854775807n, name: 'Rex', categoryId: 1 }]);
    expect(exchange.length).toBe(exchange.text.length);
    expect(exchange.curl).toBe(
      `curl -sS -i --compressed '${base}/pets?limit=2&status=a+b' -H 'Accept: application/json' -H "Authorization: Bearer \${PETSTORE_API_KEY}"`,
    );
    expect(s.findings.exchanges).toEqual([exchange]);
  });

  it('a body, its Content-Type, no key or a key as written, path parameters encoded, header values trimmed', async () => {
    const s = await session();
    const created = await sendRequest(s, {
      operation: 'createPet',
      json: { name: 'n', categoryId: 2n ** 63n - 1n },
      authorization: null,
      headers: { 'x-note': ' padded\t' },
    });
    expect(seen.body).toBe('{"name":"n","categoryId":9223372036854775807}');
    expect(seen.headers).toMatchObject({ 'content-type': 'application/json', 'x-note': 'padded' });
    expect(seen.headers?.authorization).toBeUndefined();
    expect(created.validKey).toBe(false);
    expect(created.curl).toContain('-X POST');
    await sendRequest(s, { operation: 'createPet', rawBody: 'name=x', contentType: null, authorization: 'Token abc' });
    expect(seen.headers?.['content-type']).toBeUndefined();
    expect(seen.headers?.authorization).toBe('Token abc');
    expect(seen.body).toBe('name=x');
    const got = await sendRequest(s, { operation: 'getPet', path: { petId: 'a/b c' } });
    expect(seen.url).toBe('/v1/pets/a%2Fb%20c');
    expect(got.pathValues).toEqual({ petId: 'a/b c' });
  });

  it('the key in the query is shown read from $PETSTORE_API_KEY; other URLs as sent', async () => {
    const s = await session();
    const exchange = await sendRequest(s, { operation: 'listPets', query: { api_key: KEY }, authorization: null });
    expect(exchange.curl).toBe(
      `curl -sS -i --compressed "${base}/pets?api_key=\${PETSTORE_API_KEY}" -H 'Accept: application/json'`,
    );
  });

  it.each([
    ['gzip, decoded', '/pets/1', { problems: {}, body: { id: 1, name: 'gz', categoryId: 2 } }],
    ['JSON nested too deep: not parsed', '/pets/2', { problems: { tooDeep: true }, body: undefined, length: 160 }],
    ['invalid UTF-8: not parsed', '/pets/3', { problems: { invalidUtf8: true }, body: undefined }],
    ['over --max-body: cut at the cap', '/pets/4', { problems: { tooLarge: true }, body: undefined, length: 4096 }],
    ['not JSON: no body, the text kept', '/pets/5', { problems: {}, body: undefined, text: 'not json' }],
  ])('%s', async (_, path, want) => {
    const s = await session();
    const exchange = await sendRequest(s, { operation: 'getPet', path: { petId: path.split('/').at(-1)! } });
    expect(exchange).toMatchObject({ status: 200, ...want });
  });

  it('waits out a 429 with Retry-After and sends again, noted; still limited, the run stops', async () => {
    const s = await session();
    const exchange = await sendRequest(s, { operation: 'getPet', path: { petId: 429 } });
    expect(exchange.status).toBe(404);
    expect(exchange.retried).toEqual([{ status: 429, waitedMs: 0 }]);
    await expect(sendRequest(s, { operation: 'getPet', path: { petId: 430 } })).rejects.toBeInstanceOf(StopRun);
    expect(s.pacing.stopped).toMatch(
      /^the target still answered 429 with Retry-After: 0 after 3 waits \(a rate limit\)/,
    );
  });

  it(`no answer ${MAX_CONSECUTIVE_NO_ANSWERS} times in a row stops the run; an answer resets the count`, async () => {
    const s = await session({ baseUrl: 'http://127.0.0.1:1/v1' });
    for (let i = 1; i < MAX_CONSECUTIVE_NO_ANSWERS; i++) {
      const exchange = await sendRequest(s, { operation: 'listPets' });
      expect(exchange.status).toBeUndefined();
      expect(exchange.error).toBe('connection refused (ECONNREFUSED)');
      expect(s.pacing.consecutiveNoAnswers).toBe(i);
      expect(s.pacing.stopped).toBeUndefined();
    }
    await sendRequest(s, { operation: 'listPets' });
    expect(s.pacing.stopped).toMatch(
      /^3 requests in a row got no answer \(the last: connection refused \(ECONNREFUSED\)\); the target stopped answering$/,
    );
    await expect(sendRequest(s, { operation: 'listPets' })).rejects.toBeInstanceOf(StopRun);
    const answered = await session();
    answered.pacing.consecutiveNoAnswers = 2;
    await sendRequest(answered, { operation: 'listPets' });
    expect(answered.pacing.consecutiveNoAnswers).toBe(0);
  });

  it('refuses an operation the document lacks, and stops at the request cap', async () => {
    const s = await session({ maxRequests: 1 });
    await expect(sendRequest(s, { operation: 'deletePet' })).rejects.toThrow(
      'the document has no operation "deletePet"',
    );
    await sendRequest(s, { operation: 'listPets' });
    await expect(sendRequest(s, { operation: 'listPets' })).rejects.toThrow(/1/);
  });
});

describe('describeFetchError', () => {
  it.each([
    [Object.assign(new Error('x'), { name: 'TimeoutError' }), 'no answer within 50 ms'],
    [Object.assign(new Error('x'), { name: 'AbortError' }), 'no answer within 50 ms'],
    [Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'connection reset (ECONNRESET)'],
    [Object.assign(new Error('x'), { cause: { code: 'ENOTFOUND' } }), 'host not found (ENOTFOUND)'],
    [
      Object.assign(new Error('x'), { code: 'UND_ERR_BODY_TIMEOUT' }),
      'the body stalled for 50 ms (UND_ERR_BODY_TIMEOUT)',
    ],
    [
      Object.assign(new Error('outer'), { cause: { message: 'inner words', code: 'EWHATEVER' } }),
      'inner words (EWHATEVER)',
    ],
    [new Error('plain'), 'plain'],
    ['a string', 'a string'],
  ])('%#: %s', (error, want) => {
    expect(describeFetchError(error, 50)).toBe(want);
  });
});
