import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { createProxyServer, type ProxyOptions, type ProxyServer } from '../src/proxy/create-proxy-server.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { petsFromHar } from '../src/proxy/fixtures-from-har.js';
import { readHarEntries } from '../src/proxy/har-recorder.js';
import { startIndependentPetstore, type Fault } from './targets/independent-petstore.js';
import { sendJson, startScriptedUpstream } from './support/upstreams.js';
import { portRefuses } from './support/port-refuses.js';
import { startConnectProxy } from './support/connect-proxy.js';
import { startSlowAcceptUpstream } from './support/slow-accept-upstream.js';
import { selfSignedCertificate } from './support/self-signed.js';
import { createRequestLog } from '../src/log/create-request-log.js';

const KEY = 'upstream-key-7f3a2c';
const MOCK_KEY = 'fallback-key-91d0';
const spec = await loadSpec();

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function proxyTo(upstream: string, options: Partial<ProxyOptions> = {}) {
  const lines: string[] = [];
  const proxy = await createProxyServer({
    upstream,
    apiKeys: [MOCK_KEY],
    onLog: (line) => lines.push(line),
    ...options,
  });
  started.push(proxy);
  return { proxy, lines };
}

async function call(
  proxy: ProxyServer,
  method: string,
  path: string,
  init: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? KEY}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(proxy.url + path, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

async function adminJournal(proxy: ProxyServer) {
  const response = await fetch(`${proxy.origin}/__admin/journal`, { headers: { authorization: `Bearer ${MOCK_KEY}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { entries: any[] } | any[];
}
const entriesOf = (journal: { entries: any[] } | any[]) => (Array.isArray(journal) ? journal : journal.entries);

describe('the proxy in front of our own mock (a correct upstream)', () => {
  let upstream: MockServer;
  beforeAll(async () => {
    upstream = await createMockServer({ apiKeys: [KEY] });
  });
  afterAll(() => upstream.close());

  it('forwards list, create, get, 404 and 401 with no violation; the upstream, not the fallback, stores', async () => {
    const { proxy, lines } = await proxyTo(upstream.url);
    const fallbackCount = await proxy.mock.store.count();
    const list = await call(proxy, 'GET', '/pets?limit=3&status=available');
    expect(list.status).toBe(200);
    expect(list.body).toEqual(
      JSON.parse(JSON.stringify(await upstream.mock.store.list({ limit: 3, status: 'available' }))),
    );
    expect(list.headers.get('petstore-kit-source')).toBe('upstream');
    expect(list.headers.get('petstore-kit-violations')).toBeNull();
    const created = await call(proxy, 'POST', '/pets', { body: { name: 'Proxied', categoryId: 3 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/pets/${created.body.id}`);
    expect(await upstream.mock.store.get(created.body.id)).toMatchObject({ name: 'Proxied' });
    expect(await proxy.mock.store.count()).toBe(fallbackCount);
    const got = await call(proxy, 'GET', `/pets/${created.body.id}`);
    expect(got.body).toEqual(created.body);
    // The deprecation notice on getPet is the upstream's own (our mock sends one).
    expect(got.headers.get('deprecation')).toMatch(/^@\d+$/);
    const missing = await call(proxy, 'GET', '/pets/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found', status: 404 });
    // The upstream judges keys: the fallback's key is not the upstream's, so it is refused there.
    const wrongKey = await call(proxy, 'GET', '/pets', { key: MOCK_KEY });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers.get('www-authenticate')).toContain('Bearer');
    expect(proxy.violations()).toEqual([]);
    expect(proxy.summary()).toMatchObject({
      exchanges: 5,
      violations: 0,
      requestViolations: 0,
      byCheck: {},
      servedByMock: 0,
      fallbackShare: 0,
    });
    expect(lines).toEqual([]);
    const journal = entriesOf(await adminJournal(proxy));
    // The journal's own judgement of each answer (its `validation`) reads the upstream's bytes as sent.
    expect(journal.map((e) => e.validation)).toEqual(journal.map(() => ({ valid: true, violations: [] })));
    expect(journal.map((e) => [e.method, e.status, e.source, e.violations])).toEqual([
      ['GET', 401, 'upstream', []],
      ['GET', 404, 'upstream', []],
      ['GET', 200, 'upstream', []],
      ['POST', 201, 'upstream', []],
      ['GET', 200, 'upstream', []],
    ]);
    expect(JSON.stringify(journal)).not.toContain(KEY);
  });

  it('reports an invalid request under request.* but forwards it (the upstream answers), and --strict refuses it unforwarded', async () => {
    const { proxy, lines } = await proxyTo(upstream.url);
    const bad = await call(proxy, 'POST', '/pets', { body: { name: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('petstore-kit-source')).toBe('upstream');
    expect(bad.headers.get('petstore-kit-violations')).toBe('1; request.body');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^violation request\.body on createPet \(POST \/v1\/pets\): /);
    const before = await upstream.mock.store.count();
    const { proxy: strict } = await proxyTo(upstream.url, { strict: true });
    const refused = await call(strict, 'GET', '/pets?limit=0');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(refused.body.message).toContain('limit');
    expect(refused.headers.get('petstore-kit-violations')).toBe('1; request.parameters');
    const refusedBody = await call(strict, 'POST', '/pets', { body: { name: 'x' } });
    expect(refusedBody.status).toBe(400);
    expect(refusedBody.body.message).toContain('categoryId');
    expect(await upstream.mock.store.count()).toBe(before);
    expect(
      upstream
        .journal({ path: '/v1/pets', method: 'POST' })
        .filter((e) => e.requestBody && (e.requestBody as any).name === 'x'),
    ).toEqual([]);
  });
});

/** Each fault of the independent implementation, the request that shows it, and the check ids the proxy reports. */
const faults: [Fault, string, string, unknown, string[]][] = [
  ['getPet-id-as-string', 'GET', '/pets/1000', undefined, ['schema.response']],
  ['createPet-drops-categoryId', 'POST', '/pets', { name: 'Rex', categoryId: 2 }, ['schema.response']],
  ['createPet-answers-200', 'POST', '/pets', { name: 'Rex', categoryId: 2 }, ['status.documented']],
  ['not-found-body-wrong-shape', 'GET', '/pets/5', undefined, ['error.shape']],
  ['list-as-text-plain', 'GET', '/pets?limit=2', undefined, ['content-type.json']],
  ['500-on-non-numeric-limit', 'GET', '/pets?limit=many', undefined, ['request.parameters', 'server.no-5xx']],
  // A body that breaks the document, accepted: the client's violation, and the upstream's for answering 201.
  [
    'status-null-accepted',
    'POST',
    '/pets',
    { name: 'Rex', categoryId: 2, status: null },
    ['request.body', 'input.invalid-rejected'],
  ],
  [
    'status-empty-accepted',
    'POST',
    '/pets',
    { name: 'Rex', categoryId: 2, status: '' },
    ['request.body', 'input.invalid-rejected'],
  ],
  [
    'status-case-insensitive',
    'POST',
    '/pets',
    { name: 'Rex', categoryId: 2, status: 'AVAILABLE' },
    ['request.body', 'input.invalid-rejected'],
  ],
  ['name-boolean-accepted', 'POST', '/pets', { name: true, categoryId: 2 }, ['request.body', 'input.invalid-rejected']],
  [
    'name-optional-with-status',
    'POST',
    '/pets',
    { categoryId: 2, status: 'sold' },
    ['request.body', 'input.invalid-rejected'],
  ],
  [
    'categoryId-string-coerced',
    'POST',
    '/pets',
    { name: 'Rex', categoryId: '2' },
    ['request.body', 'input.invalid-rejected'],
  ],
  [
    'array-body-accepted',
    'POST',
    '/pets',
    [{ name: 'Rex', categoryId: 2 }],
    ['request.body', 'input.invalid-rejected'],
  ],
  ['scalar-body-500', 'POST', '/pets', 'x', ['request.body', 'server.no-5xx']],
  // 5xx for parameters, valid (the upstream's fault alone) or not.
  ['negative-id-500', 'GET', '/pets/-1', undefined, ['server.no-5xx']],
  ['max-int64-id-500', 'GET', '/pets/9223372036854775807', undefined, ['server.no-5xx']],
  ['twenty-digit-id-500', 'GET', '/pets/12345678901234567890', undefined, ['request.parameters', 'server.no-5xx']],
  ['limit-50-500', 'GET', '/pets?limit=50', undefined, ['server.no-5xx']],
  ['absurd-limit-500', 'GET', '/pets?limit=99999999999999999999', undefined, ['request.parameters', 'server.no-5xx']],
  ['absurd-status-500', 'GET', '/pets?status=bogus', undefined, ['request.parameters', 'server.no-5xx']],
];
const requestChecks = (checks: string[]) => checks.filter((check) => check.startsWith('request.'));

describe('the proxy in front of the independent implementation, one fault at a time', () => {
  it('finds nothing wrong with the correct implementation: the same requests draw only their own violations', async () => {
    const target = await startIndependentPetstore({ key: KEY });
    started.push(target);
    const { proxy } = await proxyTo(target.url);
    for (const [, method, path, body, checks] of faults) {
      const answer = await call(proxy, method, path, { body });
      const own = requestChecks(checks);
      expect(answer.headers.get('petstore-kit-violations'), `${method} ${path}`).toBe(
        own.length === 0 ? null : `${own.length}; ${own[0]}`,
      );
    }
    const expected = faults.flatMap(([, , , , checks]) => requestChecks(checks)).length;
    expect(proxy.summary()).toMatchObject({ violations: expected, requestViolations: expected });
  });

  it.each(faults)(
    '%s: reported as %j in the header, the journal, the log and the summary',
    async (fault, method, path, body, checks) => {
      const target = await startIndependentPetstore({ key: KEY, fault });
      started.push(target);
      const { proxy, lines } = await proxyTo(target.url);
      const answer = await call(proxy, method, path, { body });
      expect(answer.headers.get('petstore-kit-source')).toBe('upstream');
      expect(answer.headers.get('petstore-kit-violations')).toBe(`${checks.length}; ${checks[0]}`);
      const [entry] = entriesOf(await adminJournal(proxy));
      expect(entry.violations.map((v: { check: string }) => v.check)).toEqual(checks);
      expect(entry.validation.valid).toBe(
        checks.every((c) => c.startsWith('request.') || c === 'server.no-5xx' || c === 'input.invalid-rejected'),
      );
      expect(entry.source).toBe('upstream');
      expect(lines.map((line) => /^violation (\S+) on (\w+)/.exec(line)?.slice(1))).toEqual(
        checks.map((check) => [check, entry.operationId]),
      );
      expect(proxy.summary()).toMatchObject({
        exchanges: 1,
        violations: checks.length,
        byCheck: Object.fromEntries(checks.map((c) => [c, 1])),
      });
      expect(proxy.violations().map((v) => v.check)).toEqual(checks);
      expect(JSON.stringify([lines, entry, proxy.violations()])).not.toContain(KEY);
      // Passed on as it came (not --strict): the client sees what the upstream said, not a 502.
      expect(answer.status).not.toBe(502);

      // --strict replaces a violating answer with a 502 naming the (first response) check.
      const { proxy: strict } = await proxyTo(target.url, { strict: true });
      const forwarded = target.requests.length;
      const replaced = await call(strict, method, path.replace('many', '5'), { body });
      const responseCheck = checks.find((c) => !c.startsWith('request.'))!;
      if (path.includes('many')) return; // limit=5 is valid and the fault does not fire: nothing to replace.
      if (requestChecks(checks).length > 0) {
        // --strict refuses a request that breaks the document itself, in the Error shape, and forwards nothing.
        expect(replaced.status).toBeGreaterThanOrEqual(400);
        expect(replaced.status).toBeLessThan(500);
        expect(replaced.body).toMatchObject({ status: replaced.status });
        expect(target.requests.length).toBe(forwarded);
        return;
      }
      expect(replaced.status).toBe(502);
      expect(replaced.body).toMatchObject({ code: 'upstream_violation', status: 502 });
      expect(replaced.body.message).toContain(`(${responseCheck})`);
    },
  );
});

describe('fallback to the embedded mock', () => {
  it('withdraws a POST still waiting for an upstream slow to accept when the deadline fires, answers 504, and never sends it', async () => {
    const upstream = await startSlowAcceptUpstream();
    started.push(upstream);
    // --timeout 100: the whole-answer deadline is 2.1 s; the upstream takes no connection until thawed.
    const { proxy } = await proxyTo(upstream.url, { timeout: 100 });
    const before = await proxy.mock.store.count();
    const created = await call(proxy, 'POST', '/pets', { key: MOCK_KEY, body: { name: 'Once', categoryId: 4 } });
    expect(created.status).toBe(504);
    expect(created.body).toMatchObject({ code: 'upstream_timeout', status: 504 });
    expect(created.body.message).toMatch(/withdrawn before a byte of it was sent/);
    expect(created.headers.get('petstore-kit-source')).toBeNull();
    expect(await proxy.mock.store.count()).toBe(before);
    // The upstream accepts again: the proxy's connection is made, and closed before a byte is written on it.
    upstream.thaw();
    expect(await upstream.otherConnectionClosed()).toBe(0);
    expect(upstream.requests).toEqual([]);
  });

  it('serves from the mock while the upstream is down, logs it going and coming back once each', async () => {
    const upstream = await startScriptedUpstream((_req, res) =>
      sendJson(res, 200, [{ id: 1, name: 'Up', categoryId: 1 }]),
    );
    started.push(upstream);
    const { proxy, lines } = await proxyTo(upstream.url);
    expect((await call(proxy, 'GET', '/pets')).headers.get('petstore-kit-source')).toBe('upstream');
    upstream.down = true;
    const first = await call(proxy, 'GET', '/pets?limit=2', { key: MOCK_KEY });
    const second = await call(proxy, 'GET', '/pets/3', { key: MOCK_KEY });
    expect(first.status).toBe(200);
    expect(first.headers.get('petstore-kit-source')).toBe('mock');
    expect(first.body).toEqual(JSON.parse(JSON.stringify(await proxy.mock.store.list({ limit: 2 }))));
    expect(second.body).toMatchObject({ id: 3 });
    // The fallback is the stateful mock with its own keys: the upstream's key is not one of them.
    const refused = await call(proxy, 'GET', '/pets');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('petstore-kit-source')).toBe('mock');
    upstream.down = false;
    expect((await call(proxy, 'GET', '/pets')).headers.get('petstore-kit-source')).toBe('upstream');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^upstream http:\/\/127\.0\.0\.1:\d+\/v1 is unreachable \(.+\); the embedded mock answers until it is back$/,
    );
    expect(lines[1]).toMatch(/answers again; forwarding to it$/);
    expect(proxy.summary()).toMatchObject({ exchanges: 5, servedByMock: 3, fallbackShare: 0.6, violations: 0 });
    const journal = entriesOf(await adminJournal(proxy));
    expect(journal.map((e) => e.source)).toEqual(['upstream', 'mock', 'mock', 'mock', 'upstream']);
  });

  it('serves from the mock when the upstream is not listening at all, and 502 with --fallback none', async () => {
    const gone = await startScriptedUpstream(() => undefined);
    await gone.close();
    expect(await portRefuses(gone.port)).toBe(true);
    const { proxy } = await proxyTo(gone.url);
    const created = await call(proxy, 'POST', '/pets', { key: MOCK_KEY, body: { name: 'Offline', categoryId: 4 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('petstore-kit-source')).toBe('mock');
    expect(await proxy.mock.store.get(created.body.id)).toMatchObject({ name: 'Offline' });
    const { proxy: none } = await proxyTo(gone.url, { fallback: 'none' });
    const count = await none.mock.store.count();
    const failed = await call(none, 'POST', '/pets', { key: MOCK_KEY, body: { name: 'Offline', categoryId: 4 } });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'upstream_unavailable', status: 502 });
    expect(failed.body.message).toContain('connection refused (ECONNREFUSED)');
    expect(await none.mock.store.count()).toBe(count);
  });

  it('serves from the mock when the upstream is too slow', async () => {
    const target = await startIndependentPetstore({ key: KEY, fault: 'unknown-id-never-answers' });
    started.push(target);
    // The embedded mock given the upstream's key, as README advises, so one key works whoever answers.
    const { proxy, lines } = await proxyTo(target.url, { timeout: 300, apiKeys: [KEY] });
    const answer = await call(proxy, 'GET', '/pets/3');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: 3 });
    expect(answer.headers.get('petstore-kit-source')).toBe('mock');
    expect(lines[0]).toContain('is unreachable (no answer within 300 ms)');
  });

  // A write the upstream may have carried out is never done a second time by the embedded mock.
  it('never replays a POST on the mock once the upstream received it: 504 when it answers late, 502 when it hangs up', async () => {
    const late = await startScriptedUpstream(
      (_req, res) =>
        void setTimeout(() => !res.destroyed && sendJson(res, 201, { id: 59, name: 'Late', categoryId: 1 }), 1500),
    );
    started.push(late);
    const { proxy } = await proxyTo(late.url, { timeout: 300 });
    const before = await proxy.mock.store.count();
    const timedOut = await call(proxy, 'POST', '/pets', { key: MOCK_KEY, body: { name: 'Late', categoryId: 1 } });
    expect(timedOut.status).toBe(504);
    expect(timedOut.body).toMatchObject({ code: 'upstream_timeout', status: 504 });
    expect(timedOut.body.message).toContain('whether it was carried out is unknown');
    expect(timedOut.headers.get('petstore-kit-source')).toBeNull();
    expect(late.received.map((r) => r.body)).toEqual([JSON.stringify({ name: 'Late', categoryId: 1 })]);
    expect(await proxy.mock.store.count()).toBe(before);
    // A read may still be answered by the mock: it changes nothing.
    const read = await call(proxy, 'GET', '/pets/1', { key: MOCK_KEY });
    expect(read.status).toBe(200);
    expect(read.headers.get('petstore-kit-source')).toBe('mock');

    const hangsUp = await startScriptedUpstream((req) => req.socket.destroy());
    started.push(hangsUp);
    const { proxy: second } = await proxyTo(hangsUp.url);
    const count = await second.mock.store.count();
    const reset = await call(second, 'POST', '/pets', { key: MOCK_KEY, body: { name: 'Reset', categoryId: 2 } });
    expect(reset.status).toBe(502);
    expect(reset.body).toMatchObject({ code: 'upstream_outcome_unknown', status: 502 });
    expect(await second.mock.store.count()).toBe(count);
  });

  it('answers an upstream answer with headers over 16 KiB with 502 response.bounded, never the fallback', async () => {
    const huge = await startScriptedUpstream((_req, res) =>
      sendJson(res, 201, { id: 7, name: 'Big', categoryId: 1 }, { 'x-padding': 'p'.repeat(20 * 1024) }),
    );
    started.push(huge);
    const { proxy, lines } = await proxyTo(huge.url);
    const count = await proxy.mock.store.count();
    for (const [method, path, body] of [
      ['POST', '/pets', { name: 'Big', categoryId: 1 }],
      ['GET', '/pets/1', undefined],
    ] as const) {
      const answer = await call(proxy, method, path, { key: MOCK_KEY, ...(body ? { body } : {}) });
      expect(answer.status).toBe(502);
      expect(answer.body).toMatchObject({ code: 'upstream_violation', status: 502 });
      expect(answer.body.message).toContain('response.bounded');
      expect(answer.headers.get('petstore-kit-source')).toBe('upstream');
    }
    expect(await proxy.mock.store.count()).toBe(count);
    expect(lines.some((line) => line.includes('violation response.bounded'))).toBe(true);
  });

  it('serves from the mock when the upstream answers 501, and passes 501 on with --fallback none', async () => {
    const upstream = await startScriptedUpstream((_req, res) =>
      sendJson(res, 501, { code: 'not_implemented', message: 'later', status: 501 }),
    );
    started.push(upstream);
    const { proxy, lines } = await proxyTo(upstream.url);
    const answer = await call(proxy, 'POST', '/pets', { key: MOCK_KEY, body: { name: 'Early', categoryId: 1 } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('petstore-kit-source')).toBe('mock');
    // The body reached the upstream first, and then the mock.
    expect(upstream.received.map((r) => r.body)).toEqual([JSON.stringify({ name: 'Early', categoryId: 1 })]);
    expect(lines).toEqual([]);
    const { proxy: none } = await proxyTo(upstream.url, { fallback: 'none' });
    const passed = await call(none, 'GET', '/pets');
    expect(passed.status).toBe(501);
    expect(passed.headers.get('petstore-kit-source')).toBe('upstream');
    expect(passed.headers.get('petstore-kit-violations')).toBe('1; server.no-5xx');
  });
});

describe('what is forwarded and what comes back', () => {
  it("holds the upstream to the document's rules for bodies, not to the mock's own nesting bound", async () => {
    const upstream = await startScriptedUpstream((_req, res) =>
      sendJson(res, 201, { id: 9, name: 'Deep', categoryId: 1 }),
    );
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url);
    // Valid by the document (NewPet allows other properties), but deeper than the mock's limit of 64 levels.
    const deep = { name: 'Deep', categoryId: 1, extra: JSON.parse('['.repeat(70) + ']'.repeat(70)) as unknown };
    const accepted = await call(proxy, 'POST', '/pets', { body: deep });
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('petstore-kit-violations')).toBe('1; request.body');
    // Breaking the document and answered 201: the upstream's violation too.
    const invalid = await call(proxy, 'POST', '/pets', { body: { name: 'Deep' } });
    expect(invalid.status).toBe(201);
    expect(invalid.headers.get('petstore-kit-violations')).toBe('2; request.body');
    expect(proxy.violations().map((v) => v.check)).toEqual(['request.body', 'request.body', 'input.invalid-rejected']);
  });

  it('sends method, path, query, body and end-to-end headers; drops hop-by-hop ones; rewrites Host; keeps Authorization', async () => {
    const upstream = await startScriptedUpstream((_req, res) =>
      sendJson(res, 201, { id: 9, name: 'Echo', categoryId: 1 }, { Location: 'PLACEHOLDER' }),
    );
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url.replace('/v1', '/staging/v1'));
    // node:http, since fetch may not set Connection or TE.
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ name: 'Echo', categoryId: 1 });
      const req = httpRequest(
        `${proxy.url}/pets?trace=1`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${KEY}`,
            'content-type': 'application/json',
            'content-length': String(body.length),
            'x-request-id': 'r-1',
            connection: 'keep-alive, x-hop',
            'x-hop': 'secret-hop',
            te: 'trailers',
            'proxy-authorization': 'Basic cHJveHk6cHc=',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(201);
    const [received] = upstream.received;
    expect(received).toMatchObject({
      method: 'POST',
      url: '/staging/v1/pets?trace=1',
      body: JSON.stringify({ name: 'Echo', categoryId: 1 }),
    });
    expect(received!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(received!.headers.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(received!.headers['x-request-id']).toBe('r-1');
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers.via).toBe('1.1 petstore-kit');
    for (const dropped of ['x-hop', 'te', 'proxy-authorization', 'expect'])
      expect(received!.headers[dropped]).toBeUndefined();
  });

  it('passes a redirect back without following it, its Location pointed at the proxy', async () => {
    const upstream = await startScriptedUpstream((req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${req.socket.localPort}/v1/pets/7` });
      res.end();
    });
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url);
    const answer = await call(proxy, 'GET', '/pets/8');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/v1/pets/7');
    expect(upstream.received.map((r) => r.url)).toEqual(['/v1/pets/8']);
    // 302 is not documented for getPet: the judge says so.
    expect(answer.headers.get('petstore-kit-violations')).toBe('1; status.documented');
  });

  it('reads a huge upstream body only up to the bound, and answers 502 response.bounded', async () => {
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${'{"id":1,"name":"x","categoryId":1},'.repeat(2000)}{"id":1,"name":"x","categoryId":1}]`);
    });
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url, { maxResponseBytes: 10_000 });
    const answer = await call(proxy, 'GET', '/pets');
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ code: 'upstream_violation', status: 502 });
    expect(answer.body.message).toContain('(response.bounded)');
    expect(answer.headers.get('petstore-kit-violations')).toBe('1; response.bounded');
  });

  it("refuses a body over the limit with the mock's 413, forwarding nothing", async () => {
    const upstream = await startScriptedUpstream((_req, res) => sendJson(res, 201, {}));
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url, { bodyLimit: 100 });
    const answer = await call(proxy, 'POST', '/pets', { body: { name: 'x'.repeat(200), categoryId: 1 } });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(upstream.received).toEqual([]);
  });
});

describe('forwarding headers', () => {
  it("sends the proxy's own Forwarded and X-Forwarded-For, not the client's, and judges the request it sends", async () => {
    const upstream = await startScriptedUpstream((_req, res) =>
      sendJson(res, 400, { code: 'invalid_body', message: 'no body type', status: 400 }),
    );
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url);
    await call(proxy, 'GET', '/pets', {
      headers: { 'x-forwarded-for': '6.6.6.6', 'x-real-ip': '6.6.6.6', forwarded: 'for=6.6.6.6' },
    });
    const [listed] = upstream.received;
    expect(listed!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(listed!.headers['x-real-ip']).toBeUndefined();
    expect(listed!.headers.forwarded).toMatch(/^for=127\.0\.0\.1;host="127\.0\.0\.1:\d+";proto=http$/);
    // `Connection: content-type` makes Content-Type hop-by-hop: it is not forwarded, and not judged either.
    const answer = await new Promise<{ status: number; violations: string | undefined }>((resolve, reject) => {
      const body = JSON.stringify({ name: 'Typed', categoryId: 1 });
      const req = httpRequest(
        `${proxy.url}/pets`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${KEY}`,
            'content-type': 'application/json',
            connection: 'content-type',
            'content-length': String(body.length),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              violations: res.headers['petstore-kit-violations'] as string | undefined,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    const posted = upstream.received[1]!;
    expect(posted.headers['content-type']).toBeUndefined();
    expect(answer.status).toBe(400);
    // The judge saw the body without its type, as the upstream did: the client's request broke the document.
    expect(answer.violations).toMatch(/request\./);
  });
});

describe('a bounded proxy', () => {
  it('ends a slow-drip answer at the whole-answer deadline (3 × --timeout, at least --timeout + 2 s) with a 502, never holding the client', async () => {
    const drip = await startScriptedUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
    });
    started.push(drip);
    const { proxy } = await proxyTo(drip.url, { timeout: 400 });
    const answer = await call(proxy, 'GET', '/pets');
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ code: 'upstream_violation', status: 502 });
    expect(answer.body.message).toContain('did not finish within 2400 ms');
  });

  it('cancels the upstream request when the client goes away', async () => {
    let closed = 0;
    const hold = await startScriptedUpstream((req) => req.socket.once('close', () => closed++));
    started.push(hold);
    const { proxy } = await proxyTo(hold.url, { timeout: 60_000 });
    const controller = new AbortController();
    const gone = fetch(`${proxy.url}/pets`, {
      headers: { authorization: `Bearer ${KEY}` },
      signal: controller.signal,
    }).catch(() => 'aborted');
    await expect.poll(() => hold.received.length).toBe(1);
    controller.abort();
    expect(await gone).toBe('aborted');
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(1);
  });

  it('answers 503 proxy_overloaded past the bytes it may hold at once, and serves again after', async () => {
    const big = await startScriptedUpstream((_req, res) =>
      sendJson(
        res,
        200,
        Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `pet-${i + 1}`, categoryId: 1 })),
      ),
    );
    started.push(big);
    const { proxy } = await proxyTo(big.url, { maxHeldBytes: 100 });
    const refused = await call(proxy, 'GET', '/pets');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'proxy_overloaded', status: 503 });
    expect(refused.headers.get('retry-after')).toBe('1');
    const { proxy: roomy } = await proxyTo(big.url);
    expect((await call(roomy, 'GET', '/pets')).status).toBe(200);
  });
});

/**
 * A raw upstream that answers every request with an unsolicited `100 Continue` (cut in two writes), a `103 Early
 * Hints` and another 100, then its final answer, and counts the requests it received. Over TLS when given a key
 * and certificate.
 */
async function startContinuingUpstream(tls?: { key: Buffer; cert: Buffer }) {
  const received: string[] = [];
  const answer = (socket: Socket) => {
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const [method, target] = buffer.split(' ');
      received.push(`${method} ${target}`);
      buffer = '';
      const body =
        method === 'POST'
          ? JSON.stringify({ id: 900 + received.length, name: 'Stored upstream', categoryId: 1 })
          : JSON.stringify({ id: 7, name: 'Upstream', categoryId: 1 });
      socket.write('HTTP/1.1 10');
      // The rest a turn later, so the first 100 arrives cut in two.
      setImmediate(() => {
        socket.write(
          '0 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n',
        );
        socket.write(
          `HTTP/1.1 ${method === 'POST' ? '201 Created' : '200 OK'}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      });
    });
    socket.on('error', () => undefined);
  };
  const server = tls ? createTlsServer(tls, answer) : createNetServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A write and a read through `proxy` to a continuing upstream (100 Continue before each answer): each client gets the
 * upstream's final answer, and the upstream received each request once.
 */
async function expectFinalAnswersPassed(proxy: ProxyServer, upstream: { received: string[] }): Promise<void> {
  const created = await call(proxy, 'POST', '/pets', { body: { name: 'Once', categoryId: 1 } });
  expect(created.status).toBe(201);
  expect(created.headers.get('petstore-kit-source')).toBe('upstream');
  expect(created.body).toEqual({ id: 901, name: 'Stored upstream', categoryId: 1 });
  const read = await call(proxy, 'GET', '/pets/7');
  expect(read.status).toBe(200);
  expect(read.headers.get('petstore-kit-source')).toBe('upstream');
  expect(read.body).toEqual({ id: 7, name: 'Upstream', categoryId: 1 });
  expect(upstream.received).toEqual(['POST /v1/pets', 'GET /v1/pets/7']);
}

describe('interim answers from the upstream', () => {
  it("passes on the upstream's final answer after an unsolicited 100 Continue (RFC 9110 §15.2), for a read and a write", async () => {
    const upstream = await startContinuingUpstream();
    const { proxy } = await proxyTo(upstream.url);
    started.unshift(upstream);
    await expectFinalAnswersPassed(proxy, upstream);
  });
});

describe('clients that do not read their answers', () => {
  /** A GET sent on a raw connection that reads the first bytes of its answer, then nothing until `resume()`. */
  function slowReader(proxy: ProxyServer, path: string) {
    const socket = connect(proxy.port, '127.0.0.1');
    let bytes = 0;
    socket.on('error', () => undefined);
    socket.write(
      `GET ${new URL(proxy.url).pathname}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    const started = new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => (socket.pause(), resolve(chunk.toString('latin1', 0, 12)))),
    );
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(bytes)));
    return { started, closed, resume: () => socket.resume(), socket };
  }

  it('counts an answer against the byte budget until the client has it, and cuts off a client that reads too slowly after the write timeout', async () => {
    const MiB = 1024 * 1024;
    const pet = (id: number, bytes: number) => ({ id, name: 'n'.repeat(bytes), categoryId: 1 });
    const upstream = await startScriptedUpstream((req, res) =>
      sendJson(res, 200, req.url?.endsWith('/1') ? pet(1, 4 * MiB) : pet(2, 2 * MiB)),
    );
    started.push(upstream);
    // Room for two 4 MiB answers and a few bytes: a third one is refused at its first chunk.
    const { proxy } = await proxyTo(upstream.url, { maxHeldBytes: 8 * MiB + 4096, writeTimeout: 3_000 });
    const readers = [slowReader(proxy, '/pets/1'), slowReader(proxy, '/pets/1')];
    started.push({ close: async () => readers.forEach((reader) => reader.socket.destroy()) });
    expect(await Promise.all(readers.map((reader) => reader.started))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    // Handed to their connections but not taken: still held.
    const refused = await call(proxy, 'GET', '/pets/1');
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'proxy_overloaded', status: 503 });
    // Past the write timeout (its timer runs in this process, due before this one) both are cut off: reading
    // again, they get the end of a connection, not the rest of their 4 MiB.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    readers.forEach((reader) => reader.resume());
    for (const bytes of await Promise.all(readers.map((reader) => reader.closed))) expect(bytes).toBeLessThan(4 * MiB);
    const served = await call(proxy, 'GET', '/pets/2');
    expect(served.status).toBe(200);
    expect(served.body.name).toHaveLength(2 * MiB);
  });
});

describe('recording', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-proxy-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // An upstream echoing the client's token in encoded forms gets it into neither stderr nor the HAR.
  it('keeps a token the upstream echoes JSON-escaped or base64 out of the violation lines and the recording', async () => {
    const token = 'echo+Token/with=0123456789';
    const escaped = JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/').replace(/\+/g, '\\u002B');
    const b64 = Buffer.from(token).toString('base64');
    const upstream = await startScriptedUpstream((_req, res) => {
      // A Pet whose name is not a string breaks the schema: the violation line quotes what came back.
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo-b64': b64, 'x-echo-json': escaped });
      res.end(`{"id":1,"name":{"token":"${escaped}","b64":"${b64}"},"categoryId":1}`);
    });
    started.push(upstream);
    const file = join(dir, 'echo.har');
    const { proxy, lines } = await proxyTo(upstream.url, { record: file });
    const answer = await call(proxy, 'GET', '/pets/1', { key: token });
    expect(answer.headers.get('petstore-kit-violations')).toMatch(/schema\.response/);
    // Closed here, so that the recording is finished before it is read.
    started.splice(started.indexOf(proxy), 1);
    await proxy.close();
    const har = await readFile(file, 'utf8');
    expect(lines.some((line) => line.includes('violation schema.response'))).toBe(true);
    for (const form of [token, escaped, b64, b64.slice(4, 20)]) {
      expect(lines.join('\n')).not.toContain(form);
      expect(har).not.toContain(form);
    }
    expect(har).toContain('***');
  });

  it("masks the request's own token in a query, a body, a header's name and a long excerpt, in the log, the journal, the lines and the HAR", async () => {
    const token = 'own-token-40-characters-0123456789abcdef';
    // The token straddles the 200-character cut of a violation's excerpt (masked before cutting, none of it shows).
    const long = `${'x'.repeat(180)}${token}${'y'.repeat(100)}`;
    const upstream = await startScriptedUpstream((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain', [token]: 'a header named after the key' });
      res.end(long);
    });
    started.push(upstream);
    const file = join(dir, 'own-token.har');
    const { proxy, lines } = await proxyTo(upstream.url, { record: file });
    const logged: string[] = [];
    const log = createRequestLog({
      stream: { write: (chunk: string) => (logged.push(chunk), true), once: () => undefined } as never,
      keys: proxy.mock.apiKeys,
      colour: false,
    });
    proxy.mock.observers.add(log.observe);
    const answer = await call(proxy, 'POST', `/pets?note=${token}`, {
      key: token,
      body: { name: token, categoryId: 1 },
    });
    expect(answer.status).toBe(500);
    log.flush();
    const journal = JSON.stringify(await adminJournal(proxy));
    started.splice(started.indexOf(proxy), 1);
    await proxy.close();
    const har = await readFile(file, 'utf8');
    expect(lines.some((line) => line.includes('violation server.no-5xx'))).toBe(true);
    expect(logged.join('')).toContain('note=***');
    for (const [where, text] of [
      ['log', logged.join('')],
      ['journal', journal],
      ['lines', lines.join('\n')],
      ['har', har],
    ] as const) {
      // No piece of the token as long as a quarter of it, anywhere.
      for (let at = 0; at + 10 <= token.length; at += 5)
        expect(text, `${where} holds ${token.slice(at, at + 10)}`).not.toContain(token.slice(at, at + 10));
    }
  });

  it('writes valid HAR after every exchange, keys redacted, and its pets become fixtures a mock serves', async () => {
    const upstream = await createMockServer({ apiKeys: [KEY] });
    started.push(upstream);
    const file = join(dir, 'session.har');
    const { proxy } = await proxyTo(upstream.url, { record: file });
    await call(proxy, 'GET', '/pets?limit=3');
    const created = await call(proxy, 'POST', '/pets', {
      body: { name: 'Recorded', categoryId: 9, status: 'pending' },
    });
    await call(proxy, 'GET', `/pets/${created.body.id}?api_key=${KEY}`);
    await call(proxy, 'GET', '/pets/2');
    // Valid after each exchange, before close: wait for the writes queued so far.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const har = JSON.parse(await readFile(file, 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e: any) => [e.request.method, e.response.status, e._source])).toEqual([
      ['GET', 200, 'upstream'],
      ['POST', 201, 'upstream'],
      ['GET', 200, 'upstream'],
      ['GET', 200, 'upstream'],
    ]);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(MOCK_KEY);
    expect(har.log.entries[0].request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [redacted]' });
    expect(har.log.entries[1].request.postData).toEqual({
      mimeType: 'application/json',
      text: JSON.stringify({ name: 'Recorded', categoryId: 9, status: 'pending' }),
    });
    await proxy.close();
    started.splice(started.indexOf(proxy), 1);

    const found = petsFromHar(await readFile(file, 'utf8'), spec, file);
    const expected = [
      ...(await upstream.mock.store.list({ limit: 3 })),
      await upstream.mock.store.get(2),
      await upstream.mock.store.get(created.body.id),
    ];
    const unique = [...new Map(expected.map((p) => [p!.id, p])).values()].sort((a, b) => Number(a!.id) - Number(b!.id));
    expect(found.pets).toEqual(JSON.parse(JSON.stringify(unique)));
    const fixtures = join(dir, 'fixtures.json');
    await writeFile(fixtures, JSON.stringify(found.pets));
    const replay = await createMockServer({ apiKeys: [KEY], fixtures });
    started.push(replay);
    const served = await fetch(`${replay.url}/pets/${created.body.id}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(await served.json()).toMatchObject({ name: 'Recorded', categoryId: 9, status: 'pending' });
    expect(await replay.mock.store.count()).toBe(unique.length);
  });

  it('reads every whole entry of a recording a crash cut short', async () => {
    const upstream = await createMockServer({ apiKeys: [KEY] });
    started.push(upstream);
    const file = join(dir, 'cut.har');
    const { proxy } = await proxyTo(upstream.url, { record: file });
    await call(proxy, 'GET', '/pets/1');
    await call(proxy, 'GET', '/pets/2');
    await proxy.close();
    started.splice(started.indexOf(proxy), 1);
    const whole = await readFile(file, 'utf8');
    const cut = whole.slice(0, whole.lastIndexOf('\n]}}') - 40);
    expect(() => JSON.parse(cut)).toThrow();
    const entries = readHarEntries(cut);
    expect(entries).toHaveLength(1);
    expect(petsFromHar(cut, spec, file).pets.map((p) => p.id)).toEqual([1]);
  });
});

describe('deprecation notices', () => {
  it("come from the upstream on its answers (none added), and from the mock on the fallback's", async () => {
    const target = await startIndependentPetstore({ key: KEY });
    started.push(target);
    const { proxy } = await proxyTo(target.url, { apiKeys: [KEY] });
    const upstreamAnswer = await call(proxy, 'GET', '/pets/1000');
    expect(upstreamAnswer.status).toBe(200);
    expect(upstreamAnswer.headers.get('deprecation')).toBeNull();
    await target.close();
    const mockAnswer = await call(proxy, 'GET', '/pets/3');
    expect(mockAnswer.headers.get('petstore-kit-source')).toBe('mock');
    expect(mockAnswer.headers.get('deprecation')).toMatch(/^@\d+$/);
  });
});

describe('compressed answers', () => {
  it('decodes a gzip answer to judge it and sends it on decoded; a gzip bomb stops at the bound', async () => {
    const { gzipSync } = await import('node:zlib');
    const pets = [{ id: 1, name: 'Zipped', categoryId: 1 }];
    let bomb = false;
    const upstream = await startScriptedUpstream((_req, res) => {
      const body = bomb ? gzipSync(Buffer.alloc(50_000_000, 0x20)) : gzipSync(JSON.stringify(pets));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body);
    });
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url, { maxResponseBytes: 100_000 });
    const answer = await call(proxy, 'GET', '/pets');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(pets);
    expect(answer.headers.get('content-encoding')).toBeNull();
    expect(answer.headers.get('petstore-kit-violations')).toBeNull();
    expect(upstream.received[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
    bomb = true;
    const exploded = await call(proxy, 'GET', '/pets');
    expect(exploded.status).toBe(502);
    expect(exploded.body.message).toContain('(response.bounded)');
  });
});

describe('Prefer behind the proxy', () => {
  it("is the upstream's to honour (forwarded, no second delay), and the mock's when it answers", async () => {
    const upstream = await startScriptedUpstream((_req, res) => sendJson(res, 200, []));
    started.push(upstream);
    const { proxy } = await proxyTo(upstream.url);
    // The front door waits with the global setTimeout, faked here and never advanced: were the proxy to add the
    // delay, this answer would never come (and the test time out).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let forwarded;
    try {
      forwarded = await proxy.mock.dispatch({
        method: 'GET',
        url: '/v1/pets',
        headers: { authorization: `Bearer ${KEY}`, prefer: 'delay=3000', host: 'proxy.test' },
        body: Readable.from([]),
        mountPath: '',
      });
    } finally {
      vi.useRealTimers();
    }
    expect(forwarded.status).toBe(200);
    expect(forwarded.headers['Petstore-Kit-Source']).toBe('upstream');
    expect(upstream.received[0]!.headers.prefer).toBe('delay=3000');
    upstream.down = true;
    const forced = await call(proxy, 'GET', '/pets', { key: MOCK_KEY, headers: { prefer: 'code=401' } });
    expect(forced.headers.get('petstore-kit-source')).toBe('mock');
    expect(forced.status).toBe(401);
    expect(forced.headers.get('preference-applied')).toBe('code=401');
  });
});

describe('an HTTPS upstream: its certificate authority, --insecure, HTTPS_PROXY', () => {
  let dir = '';
  let https: HttpsServer;
  let upstreamUrl = '';
  let cert: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-proxy-tls-'));
    const certificate = selfSignedCertificate(dir);
    cert = certificate.cert;
    https = createHttpsServer({ key: certificate.key, cert }, (req, res) => {
      req.resume();
      sendJson(res, 200, [{ id: 1, name: 'Tls', categoryId: 2, status: 'sold' }]);
    });
    https.listen(0, '127.0.0.1');
    await once(https, 'listening');
    upstreamUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    https.closeAllConnections();
    https.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a certificate it cannot trust (no fallback: a 502 naming why), and trusts it with ca or insecure', async () => {
    const untrusted = (await proxyTo(upstreamUrl, { fallback: 'none' })).proxy;
    const refused = await call(untrusted, 'GET', '/pets');
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'upstream_unavailable', status: 502 });
    expect(refused.body.message).toContain('self-signed certificate');

    for (const options of [{ ca: cert }, { insecure: true }]) {
      const { proxy } = await proxyTo(upstreamUrl, { fallback: 'none', ...options });
      const answer = await call(proxy, 'GET', '/pets');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('petstore-kit-source')).toBe('upstream');
      expect(answer.body).toEqual([{ id: 1, name: 'Tls', categoryId: 2, status: 'sold' }]);
    }
  });

  it('reaches the upstream through HTTPS_PROXY (a CONNECT tunnel), and around it for NO_PROXY hosts', async () => {
    const forwardProxy = await startConnectProxy();
    const { tunnelled } = forwardProxy;
    try {
      // The proxy reads the variables once, when it is created.
      vi.stubEnv('HTTPS_PROXY', forwardProxy.url);
      vi.stubEnv('https_proxy', undefined);
      vi.stubEnv('NO_PROXY', '');
      vi.stubEnv('no_proxy', undefined);
      const via = (await proxyTo(upstreamUrl, { fallback: 'none', ca: cert })).proxy;
      vi.stubEnv('NO_PROXY', '127.0.0.1');
      const around = (await proxyTo(upstreamUrl, { fallback: 'none', ca: cert })).proxy;
      vi.unstubAllEnvs();

      expect((await call(via, 'GET', '/pets')).status).toBe(200);
      expect(tunnelled).toEqual([new URL(upstreamUrl).host]);
      expect((await call(around, 'GET', '/pets')).status).toBe(200);
      expect(tunnelled).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
      forwardProxy.close();
    }
  });

  it("passes on the upstream's final answer after an unsolicited 100 Continue through HTTPS_PROXY too (RFC 9110 §15.2)", async () => {
    const upstream = await startContinuingUpstream({ key: await readFile(join(dir, 'key.pem')), cert });
    started.unshift(upstream);
    const forwardProxy = await startConnectProxy();
    try {
      vi.stubEnv('HTTPS_PROXY', forwardProxy.url);
      vi.stubEnv('https_proxy', undefined);
      vi.stubEnv('NO_PROXY', '');
      vi.stubEnv('no_proxy', undefined);
      const { proxy } = await proxyTo(upstream.url, { ca: cert });
      vi.stubEnv('NO_PROXY', '127.0.0.1');
      const around = (await proxyTo(upstream.url, { ca: cert })).proxy;
      vi.unstubAllEnvs();
      await expectFinalAnswersPassed(proxy, upstream);
      expect(forwardProxy.tunnelled).toEqual([new URL(upstream.url).host]);
      // Around the forward proxy (NO_PROXY), with the variables set: the same.
      const direct = await call(around, 'POST', '/pets', { body: { name: 'Twice', categoryId: 1 } });
      expect(direct.status).toBe(201);
      expect(direct.body).toEqual({ id: 903, name: 'Stored upstream', categoryId: 1 });
      expect(forwardProxy.tunnelled).toHaveLength(1);
    } finally {
      vi.unstubAllEnvs();
      forwardProxy.close();
    }
  });
});
