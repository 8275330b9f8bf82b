import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { fileURLToPath } from 'node:url';
import { createPetstoreFetch, type PetstoreFetch, type PetstoreFetchOptions } from '../src/fetch/index.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { judgeObservedResponse } from '../src/openapi/judge-observed.js';
import type { Operation } from '../src/openapi/operations.js';
import { parseJson } from '../src/json/parse-json.js';
import { docs } from './support/docs.js';

// One behaviour. The same sequence of requests goes to the HTTP mock and to the fetch function (each a
// fresh mock with the same options); status, headers and bodies must be equal, and every answer of the fetch function
// must pass the contract runner's single-exchange judge (the same one the proxy uses). Twice: the Node entry, and the
// browser build (dist/web, validators compiled at build time, no `node:` module), run here in Node as it is.
const KEY = 'conformance-key-7d2c9e';
const spec = await loadSpec();

interface Step {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const auth = { Authorization: `Bearer ${KEY}` };
const json = { ...auth, 'Content-Type': 'application/json' };

/** Every operation, auth faults, invalid input, limits, Prefer scenarios, HEAD and OPTIONS: at least 100 requests. */
function sequence(): Step[] {
  const steps: Step[] = [];
  for (const limit of ['1', '5', '20', '100', '0', '101', '-1', 'abc', '2.5', '', '1e2', '99999999999999999999'])
    steps.push({ method: 'GET', path: `/v1/pets?limit=${limit}`, headers: auth });
  for (const status of ['available', 'pending', 'sold', 'bogus', 'AVAILABLE', '', 'caf%C3%A9'])
    steps.push(
      { method: 'GET', path: `/v1/pets?status=${status}`, headers: auth },
      { method: 'GET', path: `/v1/pets?status=${status}&limit=2`, headers: auth },
    );
  steps.push(
    { method: 'GET', path: '/v1/pets?limit=1&limit=2', headers: auth },
    { method: 'GET', path: '/v1/pets?unknown=1', headers: auth },
  );
  const bodies = [
    { name: 'Rex' },
    { name: 'Émile', categoryId: 2, status: 'pending' },
    { name: '猫', status: 'sold' },
    { name: 'a"b\\c', categoryId: 2 ** 53 },
    { name: 'x'.repeat(100), status: 'available' },
  ];
  for (const body of bodies)
    steps.push({ method: 'POST', path: '/v1/pets', headers: json, body: JSON.stringify(body) });
  // 9007199254740993 as text: beyond 2^53, it must come back with exactly its digits.
  steps.push({
    method: 'POST',
    path: '/v1/pets',
    headers: json,
    body: '{"name":"big","categoryId":9223372036854775807}',
  });
  for (const bad of [
    {},
    { name: 7 },
    { name: '' },
    { name: 'x', status: 'bogus' },
    { name: 'x', categoryId: 'one' },
    { name: 'x', extra: true },
    [],
    'Rex',
    null,
    { name: 'x'.repeat(5000) },
  ]) {
    steps.push({ method: 'POST', path: '/v1/pets', headers: json, body: JSON.stringify(bad) });
  }
  steps.push(
    { method: 'POST', path: '/v1/pets', headers: json, body: '{"name":' },
    { method: 'POST', path: '/v1/pets', headers: json, body: '' },
    { method: 'POST', path: '/v1/pets', headers: auth, body: '{"name":"no type"}' },
    { method: 'POST', path: '/v1/pets', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{"name":"text"}' },
    {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...auth, 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"name":"charset"}',
    },
    { method: 'POST', path: '/v1/pets', headers: { 'Content-Type': 'application/json' }, body: '{"name":"no key"}' },
  );
  for (const id of [
    '1',
    '2',
    '57',
    '58',
    '59',
    '63',
    '64',
    '0',
    '-1',
    'abc',
    '1.5',
    '9223372036854775807',
    '99999999999999999999',
    '%20',
  ])
    steps.push({ method: 'GET', path: `/v1/pets/${id}`, headers: auth });
  // Credentials: none, wrong, another scheme, the scheme in other cases, an empty token, on every operation.
  const credentials: (Record<string, string> | undefined)[] = [
    undefined,
    { Authorization: 'Bearer wrong' },
    { Authorization: `Basic ${KEY}` },
    { Authorization: `bearer ${KEY}` },
    { Authorization: `BEARER ${KEY}` },
    { Authorization: 'Bearer ' },
    { Authorization: KEY },
  ];
  for (const headers of credentials) {
    steps.push(
      { method: 'GET', path: '/v1/pets', ...(headers ? { headers } : {}) },
      { method: 'GET', path: '/v1/pets/1', ...(headers ? { headers } : {}) },
    );
    steps.push({
      method: 'POST',
      path: '/v1/pets',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{"name":"cred"}',
    });
  }
  // Prefer: forced documented answers, examples, latency, and what is refused.
  for (const prefer of [
    'code=404',
    'code=200',
    'code=500',
    'example=nope',
    'dynamic=true',
    'delay=5',
    'delay=99999999',
    'code=401',
  ]) {
    steps.push(
      { method: 'GET', path: '/v1/pets/1', headers: { ...auth, Prefer: prefer } },
      { method: 'GET', path: '/v1/pets?limit=2', headers: { ...auth, Prefer: prefer } },
    );
  }
  steps.push(
    { method: 'HEAD', path: '/v1/pets?limit=3', headers: auth },
    { method: 'HEAD', path: '/v1/pets/1', headers: auth },
    { method: 'HEAD', path: '/v1/pets/1' },
    { method: 'OPTIONS', path: '/v1/pets' },
    { method: 'OPTIONS', path: '/v1/pets/1' },
    {
      method: 'OPTIONS',
      path: '/v1/pets',
      headers: {
        Origin: 'http://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    },
    { method: 'GET', path: '/v1/pets?limit=2', headers: { ...auth, Origin: 'http://app.example' } },
    { method: 'DELETE', path: '/v1/pets/1', headers: auth },
    { method: 'PUT', path: '/v1/pets', headers: json, body: '{}' },
    { method: 'GET', path: '/v1/nope', headers: auth },
    { method: 'GET', path: '/v1', headers: auth },
    { method: 'GET', path: '/v1/pets/', headers: auth },
    { method: 'GET', path: '/v2/pets', headers: auth },
    // After the creates and the refusals: what the list holds now.
    { method: 'GET', path: '/v1/pets?limit=100', headers: auth },
    { method: 'GET', path: '/v1/pets?status=pending&limit=100', headers: auth },
  );
  return steps;
}

/** Headers that belong to one connection or one moment, not to the answer. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function seen(response: Response): Promise<Seen> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_CONNECTION.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, text: await response.text() };
}

function operationFor(method: string, path: string): Operation | undefined {
  const pathname = path.split('?')[0]!;
  return spec.operations.find((o) => {
    if (o.method.toUpperCase() !== (method === 'HEAD' ? 'GET' : method)) return false;
    const pattern = new RegExp(`^${spec.basePath}${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(pathname);
  });
}

type MakeFetch = (options: PetstoreFetchOptions) => PetstoreFetch | Promise<PetstoreFetch>;
const WEB_FETCH = fileURLToPath(new URL('../dist/web/fetch.js', import.meta.url));
const builds: [string, MakeFetch][] = [
  ['the Node entry', createPetstoreFetch],
  [
    'the browser build',
    async (options) => ((await import(WEB_FETCH)) as typeof import('../src/web/fetch.js')).createPetstoreFetch(options),
  ],
];

describe.each(builds)('the fetch function of %s answers as the HTTP mock does', (_name, makeFetch) => {
  let server: MockServer;
  let petstoreFetch: PetstoreFetch;
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: [KEY] });
    // The same base URL as the server: the fetch function never opens a socket to it.
    petstoreFetch = await makeFetch({ apiKeys: [KEY], baseUrl: server.url });
  });
  afterAll(async () => {
    await petstoreFetch.close();
    await server.close();
  });

  it('the same sequence of over 100 requests gets the same status, headers and bodies; each answer keeps the contract', async () => {
    const steps = sequence();
    expect(steps.length).toBeGreaterThanOrEqual(100);
    // docs/mock.md says how many: the same figure.
    expect(docs.replace(/\s+/g, ' ')).toContain(
      `sends the same ${steps.length} requests to the HTTP mock and to the fetch function`,
    );
    const differences: string[] = [];
    const broken: string[] = [];
    for (const step of steps) {
      const init: RequestInit = {
        method: step.method,
        headers: step.headers ?? {},
        ...(step.body !== undefined ? { body: step.body } : {}),
      };
      const url = `${server.origin}${step.path}`;
      const [overHttp, inProcess] = [await seen(await fetch(url, init)), await seen(await petstoreFetch(url, init))];
      const label = `${step.method} ${step.path}${step.headers?.Prefer ? ` (Prefer: ${step.headers.Prefer})` : ''}`;
      if (JSON.stringify(inProcess) !== JSON.stringify(overHttp))
        differences.push(`${label}:\n  http:  ${JSON.stringify(overHttp)}\n  fetch: ${JSON.stringify(inProcess)}`);
      // The runner's single-exchange checks: documented status, media type, schema, the Error shape.
      if (step.method === 'OPTIONS' || step.method === 'HEAD') continue;
      const operation = operationFor(step.method, step.path);
      let body: unknown;
      try {
        // The runner's own parser: an int64 beyond 2^53 keeps its digits (JSON.parse would round it).
        body = inProcess.text ? parseJson(inProcess.text) : undefined;
      } catch {
        body = undefined;
      }
      const findings = judgeObservedResponse(spec, operation, {
        status: inProcess.status,
        contentType: inProcess.headers['content-type'] ?? null,
        body,
        text: inProcess.text,
      });
      if (findings.length > 0) broken.push(`${label}: ${findings.map((f) => `${f.check}: ${f.message}`).join('; ')}`);
    }
    expect(differences).toEqual([]);
    expect(broken).toEqual([]);
    // The sequence exercised what it claims: answers of every kind came back.
    const statuses = new Set<number>();
    for (const step of steps.slice(0, 5))
      statuses.add((await petstoreFetch(`${server.origin}${step.path}`, { headers: step.headers ?? {} })).status);
    expect(statuses).toEqual(new Set([200, 400]));
  });
});
