import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors as undiciErrors } from 'undici';
import { StopRun } from '../base/stop-run.js';
import { describeFetchError, sendRequest } from './send-request.js';
import { sessionFor, UNIT_KEY, writeJson as json } from '../../../test/support/contract-unit.js';

// The edges of sending: what the runner says when a request gets no answer, is rate limited to the end, breaks off
// mid-body or reaches the deadline, and how it resends a request a closing connection swallowed.

/** How the server answers a path, and how many requests reached each path. */
const routes: Record<string, (res: ServerResponse) => void> = {
  '/v1/pets/big': (res) => json(res, 200, `"${'x'.repeat(300)}"`),
  '/v1/pets/deep': (res) => json(res, 200, `${'['.repeat(70)}${']'.repeat(70)}`),
  '/v1/pets/cut': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"id":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/v1/pets/reset': (res) => res.socket?.resetAndDestroy(),
  '/v1/pets/limited-once': (res) =>
    hits['/v1/pets/limited-once'] === 1 ? json(res, 429, '{}', { 'retry-after': '0' }) : json(res, 200, '{}'),
  '/v1/pets/limited': (res) => json(res, 429, '{}', { 'retry-after': '0' }),
  '/v1/pets/limited-long': (res) => json(res, 429, '{}', { 'retry-after': '3600' }),
  '/v1/pets/busy': (res) => json(res, 503, '{}', { 'retry-after': '3600' }),
  '/v1/pets/utf8': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('"}')]));
  },
  '/v1/pets/zstd': (res) => json(res, 200, '[]', { 'content-encoding': 'zstd' }),
  '/v1/pets/silent': () => {},
  '/v1/pets/hangup': (res) => res.socket?.end(),
  '/v1/pets/cookies': (res) => {
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.writeHead(200, {});
    res.end('[]');
  },
};
const hits: Record<string, number> = {};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    hits[path] = (hits[path] ?? 0) + 1;
    req.resume();
    req.on('end', () => (routes[path] ?? ((r: ServerResponse) => json(r, 200, '[]')))(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (petId: string) => ({ operation: 'getPet', path: { petId } });

describe('sendRequest at the edges', () => {
  it('keeps a body over --max-body as an excerpt of what was read, with the bytes read', async () => {
    const s = await sessionFor(base, { maxBody: 100 });
    const exchange = await sendRequest(s, get('big'));
    expect(exchange).toMatchObject({ status: 200, length: 100, problems: { tooLarge: true }, text: '' });
    expect(exchange.excerpt).toBe(`"${'x'.repeat(99)}`);
    const shown = await sessionFor(base, { maxBody: 250 });
    expect((await sendRequest(shown, get('big'))).excerpt).toBe(`"${'x'.repeat(199)}… (250 bytes read)`);
  });

  it('says how long the exchange took, within the time the call took', async () => {
    const s = await sessionFor(base);
    const before = performance.now();
    const exchange = await sendRequest(s, get('1'));
    const took = performance.now() - before;
    expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
    expect(exchange.durationMs).toBeLessThanOrEqual(Math.ceil(took));
  });

  it('marks a body over the cap too large only, never also too deep', async () => {
    const s = await sessionFor(base, { maxBody: 30 });
    expect((await sendRequest(s, get('deep'))).problems).toEqual({ tooLarge: true });
  });

  it('does not parse a body with invalid UTF-8, even inside a JSON string', async () => {
    const exchange = await sendRequest(await sessionFor(base), get('utf8'));
    expect(exchange.problems).toEqual({ invalidUtf8: true });
    expect(exchange.body).toBeUndefined();
    expect(exchange.text).toBe('{"name":"\ufffd"}');
  });

  it('keeps the raw bytes of a coding it cannot decode, and says which', async () => {
    const exchange = await sendRequest(await sessionFor(base), get('zstd'));
    expect(exchange.problems).toEqual({
      encoding: 'Content-Encoding "zstd" is not one the runner decodes (gzip, deflate, br)',
    });
    expect(exchange.text).toBe('[]');
  });

  it('waits for an answer at most --timeout', async () => {
    const s = await sessionFor(base, { timeout: 60 });
    const exchange = await sendRequest(s, get('silent'));
    expect(exchange.error).toBe('no answer within 60 ms');
    expect(hits['/v1/pets/silent']).toBe(1);
  });

  it('does not resend a request whose new connection the server closed unanswered', async () => {
    const exchange = await sendRequest(await sessionFor(base), get('hangup'));
    expect(exchange.error).toBe('the connection closed before an answer (UND_ERR_SOCKET)');
    expect(hits['/v1/pets/hangup']).toBe(1);
  });

  it('keeps JSON nested too deep as an excerpt, unparsed', async () => {
    const exchange = await sendRequest(await sessionFor(base), get('deep'));
    expect(exchange).toMatchObject({ length: 140, problems: { tooDeep: true }, body: undefined, text: '' });
    expect(exchange.excerpt).toBe(`${'['.repeat(70)}${']'.repeat(70)}`);
  });

  it('judges a body that broke off as the answer it is, saying so', async () => {
    const s = await sessionFor(base);
    s.pacing.consecutiveNoAnswers = 2;
    const exchange = await sendRequest(s, get('cut'));
    expect(exchange.status).toBe(200);
    expect(exchange.error).toBeUndefined();
    expect(exchange.problems.encoding).toMatch(/^the body broke off: \S/);
    expect(s.pacing.consecutiveNoAnswers).toBe(0);
    expect(s.pacing.stopped).toBeUndefined();
  });

  it('sends a request a reset connection swallowed twice more, then says the connection was reset', async () => {
    const s = await sessionFor(base);
    const exchange = await sendRequest(s, get('reset'));
    expect(hits['/v1/pets/reset']).toBe(3);
    expect(exchange.status).toBeUndefined();
    expect(exchange.error).toBe('connection reset (ECONNRESET)');
    expect(s.pacing.consecutiveNoAnswers).toBe(1);
  });

  it('notes one wait in the singular and answers with what came after it', async () => {
    const s = await sessionFor(base);
    const exchange = await sendRequest(s, get('limited-once'));
    expect(exchange.status).toBe(200);
    expect(exchange.retried).toEqual([{ status: 429, waitedMs: 0 }]);
    expect(hits['/v1/pets/limited-once']).toBe(2);
  });

  it.each([
    [
      'limited after every wait',
      'limited',
      4,
      'the target still answered 429 with Retry-After: 0 after 3 waits (a rate limit): run again with --rate N below its limit',
    ],
    [
      'a wait too long to take',
      'limited-long',
      1,
      'the target still answered 429 with Retry-After: 3600 (a rate limit): run again with --rate N below its limit',
    ],
    [
      'a 503 with a wait too long to take',
      'busy',
      1,
      'the target still answered 503 with Retry-After: 3600 (a rate limit): run again with --rate N below its limit',
    ],
  ])('stops the run on %s, saying why', async (_, petId, requests, reason) => {
    const s = await sessionFor(base);
    const error = await sendRequest(s, get(petId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StopRun);
    expect((error as StopRun).message).toBe(reason);
    expect(s.pacing.stopped).toBe(reason);
    expect(hits[`/v1/pets/${petId}`]).toBe(requests);
  });

  it('joins a repeated response header, and has no Content-Type when none came', async () => {
    const exchange = await sendRequest(await sessionFor(base), get('cookies'));
    expect(exchange.headers['set-cookie']).toBe('a=1, b=2');
    expect(exchange.contentType).toBeNull();
  });

  it('stops at the deadline before sending, and after a request that failed past it', async () => {
    const past = await sessionFor(base, { deadline: 2000, deadlineAt: Date.now() - 1 });
    const error = await sendRequest(past, get('1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StopRun);
    expect(past.pacing.stopped).toBe("the run's deadline of 2 s passed (--deadline)");
    // The deadline passes while the request is in flight, whatever the machine's speed: the target moves it into
    // the past when the connection arrives, then closes the connection unanswered (a deadline a millisecond ahead
    // could pass before sending, on a loaded machine, and the run stop before the request).
    const closing = createServer();
    const gone = await sessionFor(await listening(closing), { deadline: 1500, timeout: 5000 });
    closing.on('connection', (socket) => {
      (gone.config as { deadlineAt?: number }).deadlineAt = Date.now() - 1;
      socket.destroy();
    });
    (gone.config as { deadlineAt?: number }).deadlineAt = Date.now() + 3_600_000;
    const exchange = await sendRequest(gone, get('1')).finally(() => closing.close());
    expect(exchange.status).toBeUndefined();
    expect(exchange.error).toMatch(/closed|reset|socket/i);
    expect(gone.pacing.stopped).toBe("the run's deadline of 2 s passed (--deadline)");
  });

  it('shows the -H headers read from variables of their own, names capitalised, and a header a request sets as sent', async () => {
    const s = await sessionFor(base, { headers: { 'X-Gateway-Token': 'g1', 'x-trace': 't' } });
    const exchange = await sendRequest(s, {
      operation: 'listPets',
      headers: { 'x-trace': 'mine', 'x-api-key': UNIT_KEY },
      authorization: null,
    });
    expect(exchange.curl).toBe(
      `curl -sS -i --compressed ${base}/pets -H "X-Gateway-Token: \${PETSTORE_HEADER_X_GATEWAY_TOKEN}" -H 'X-Trace: mine' -H "X-Api-Key: \${PETSTORE_API_KEY}" -H 'Accept: application/json'`,
    );
  });
});

describe('describeFetchError, every known code', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found'],
    ['EAI_AGAIN', 'host name lookup failed'],
    ['ECONNRESET', 'connection reset'],
    ['EPIPE', 'connection reset'],
    ['UND_ERR_SOCKET', 'the connection closed before an answer'],
    ['UND_ERR_CLOSED', 'the connection closed before an answer'],
    ['UND_ERR_HEADERS_TIMEOUT', 'no answer within 70 ms'],
    ['UND_ERR_BODY_TIMEOUT', 'the body stalled for 70 ms'],
    ['UND_ERR_HEADERS_OVERFLOW', 'the response headers are larger than 16 KiB (the limit of Node and of most proxies)'],
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'self-signed certificate: pass its CA with --ca FILE (or --insecure for a test deployment)',
    ],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'a self-signed certificate in the chain: pass the CA with --ca FILE (or --insecure for a test deployment)',
    ],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'the certificate cannot be verified: pass the issuing CA with --ca FILE'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', "the certificate's issuer is unknown: pass the issuing CA with --ca FILE"],
    ['CERT_HAS_EXPIRED', 'the certificate has expired'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'the certificate is not for this host name'],
    ['EPROTO', 'TLS handshake failed (is it http rather than https?)'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'the target speaks plain HTTP, not TLS: use http:// in --base-url'],
  ])('%s', (code, words) => {
    expect(describeFetchError(Object.assign(new Error('raw'), { code }), 70)).toBe(`${words} (${code})`);
    expect(describeFetchError(Object.assign(new Error('raw'), { cause: { code } }), 70)).toBe(`${words} (${code})`);
  });

  it("gives an undici error's own message, with its code when it has one", () => {
    expect(describeFetchError(new undiciErrors.UndiciError('socket hang-up words'), 70)).toBe(
      'socket hang-up words (UND_ERR)',
    );
    const uncoded = Object.assign(new undiciErrors.UndiciError('no code'), { code: undefined });
    expect(describeFetchError(uncoded, 70)).toBe('no code');
    const coded = Object.assign(new undiciErrors.UndiciError('odd'), { code: 'UND_ERR_ODD' });
    expect(describeFetchError(coded, 70)).toBe('odd (UND_ERR_ODD)');
    expect(describeFetchError(Object.assign(new Error('outer'), { cause: { code: 'EODD' } }), 70)).toBe('outer (EODD)');
    expect(describeFetchError(Object.assign(new Error('outer'), { cause: {} }), 70)).toBe('outer');
  });
});

/** The server listening on a free loopback port; its base URL. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
