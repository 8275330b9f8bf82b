import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { OpenAPIV3 } from 'openapi-types';
import { probeTarget, TargetError } from './probe-target.js';
import { tryPath } from '../../openapi/try-path.js';
import { loadSpec } from '../../openapi/load-spec.js';
import { sessionFor, UNIT_KEY } from '../../../test/support/contract-unit.js';
import { portRefuses } from '../../../test/support/port-refuses.js';

/** How the server answers the probe (set by each test) and what it saw of it. */
let answer: (res: ServerResponse) => void = () => {};
let seen: { url?: string; headers?: IncomingHttpHeaders } = {};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen = { url: req.url, headers: req.headers };
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

function send(status: number, headers: Record<string, string>, body: string | Buffer = ''): void {
  answer = (res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** The probe against the test server (or `baseUrl`): the TargetError's message, or 'passed'. */
async function probe(options: Parameters<typeof sessionFor>[1] = {}, baseUrl = base): Promise<string> {
  const session = await sessionFor(baseUrl, options);
  try {
    await probeTarget(session);
    return 'passed';
  } catch (error) {
    expect(error).toBeInstanceOf(TargetError);
    expect((error as TargetError).name).toBe('TargetError');
    return (error as TargetError).message;
  } finally {
    await session.dispatcher.close();
  }
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('probeTarget', () => {
  it('sends GET <base>/pets?limit=1 with the key, the -H headers, Accept and Accept-Encoding; a JSON list passes', async () => {
    send(200, JSON_TYPE, '[]');
    expect(await probe({ headers: { 'X-Gateway': 'g1' } })).toBe('passed');
    expect(seen.url).toBe('/v1/pets?limit=1');
    expect(seen.headers).toMatchObject({
      authorization: `Bearer ${UNIT_KEY}`,
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'x-gateway': 'g1',
    });
  });

  it("asks for the document's first list, with its own limit parameter, and sends nothing when no GET is safe", async () => {
    const v1 = await sessionFor(base);
    await v1.dispatcher.close();
    expect(tryPath(v1.spec, 1)).toBe('/pets?limit=1');
    // An API whose only collection is orders, listed with a limit of 1..10: not /pets, which would answer 404 and be
    // taken for a wrong base URL.
    const orders = await loadSpec(
      tinyDocument({
        '/store/orders': {
          get: listOf('browseOrders', [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10 } },
          ]),
        },
        '/store/orders/{orderId}': { get: readOf('showOrder', 'orderId') },
      }),
    );
    expect(tryPath(orders, 1)).toBe('/store/orders?limit=1');
    // A list whose limit cannot be 1 is asked for without one; with no collection, the first plain GET.
    const five = await loadSpec(
      tinyDocument({
        '/things': { get: listOf('things', [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 5 } }]) },
      }),
    );
    expect(tryPath(five, 1)).toBe('/things');
    const health = await loadSpec(
      tinyDocument({
        '/search': { get: listOf('search', [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }]) },
        '/status': { get: { ...listOf('status', []), security: [] } },
        '/me': { get: listOf('me', []) },
      }),
    );
    expect(tryPath(health, 1)).toBe('/me');
    const none = await loadSpec(tinyDocument({ '/things/{thingId}': { get: readOf('thing', 'thingId') } }));
    expect(tryPath(none, 1)).toBeUndefined();

    send(200, JSON_TYPE, '[]');
    seen = {};
    const session = await sessionFor(base, { spec: orders });
    try {
      await probeTarget(session);
      expect(seen.url).toBe('/v1/store/orders?limit=1');
      seen = {};
      await probeTarget({ ...session, spec: none });
      expect(seen).toEqual({});
    } finally {
      await session.dispatcher.close();
    }
  });

  it.each([
    ['a JSON body under another type', 200, { 'content-type': 'text/plain' }, '{"a":1}'],
    ['a JSON type whatever the body', 200, { 'content-type': 'Application/Problem+JSON' }, 'oops'],
    ['a JSON body without a type', 200, {}, '[]'],
    ['a 5xx page (the suite judges it)', 500, { 'content-type': 'text/html' }, '<html>down</html>'],
    ['a 503 text', 503, { 'content-type': 'text/plain' }, 'busy'],
  ])('lets %s through', async (_, status, headers, body) => {
    send(status, headers, body);
    expect(await probe()).toBe('passed');
  });

  it.each([
    [
      'an HTML page',
      200,
      { 'content-type': 'Text/HTML; charset=utf-8' },
      'hello',
      `GET ${'BASE'}/pets?limit=1 answered 200 with an HTML page, not the API: is --base-url the API's base URL (a web app's catch-all, a login page or a proxy's page answers here)?`,
    ],
    [
      'a page that says it is HTML',
      202,
      { 'content-type': 'text/plain' },
      '  <!DOCTYPE html><p>x',
      `GET BASE/pets?limit=1 answered 202 with an HTML page, not the API: is --base-url the API's base URL (a web app's catch-all, a login page or a proxy's page answers here)?`,
    ],
    [
      'a 4xx stub text',
      499,
      { 'content-type': 'text/plain' },
      'no matching route',
      `GET BASE/pets?limit=1 answered 499 with text/plain, not JSON: is --base-url the API's base URL? The body begins: no matching route`,
    ],
    [
      'a 400 text without a type',
      400,
      {},
      'bad',
      `GET BASE/pets?limit=1 answered 400 with no Content-Type, not JSON: is --base-url the API's base URL? The body begins: bad`,
    ],
    [
      'a 404',
      404,
      JSON_TYPE,
      '{}',
      `GET BASE/pets?limit=1 answered 404: is BASE the API's base URL? It ends in the version segment, e.g. https://host/v1`,
    ],
    [
      'the key refused with 401',
      401,
      JSON_TYPE,
      '{}',
      'the target refused the API key (GET BASE/pets?limit=1 answered 401); check --api-key or PETSTORE_API_KEY',
    ],
    [
      'the key refused with 403',
      403,
      JSON_TYPE,
      '{}',
      'the target refused the API key (GET BASE/pets?limit=1 answered 403); check --api-key or PETSTORE_API_KEY',
    ],
    [
      'a redirect without a Location',
      302,
      {},
      '',
      'GET BASE/pets?limit=1 answered 302 without a Location; the runner follows no redirects: use the URL the API answers at',
    ],
    [
      'a 300 without a Location',
      300,
      JSON_TYPE,
      '[]',
      'GET BASE/pets?limit=1 answered 300 without a Location; the runner follows no redirects: use the URL the API answers at',
    ],
    [
      'a 399 without a Location',
      399,
      JSON_TYPE,
      '[]',
      'GET BASE/pets?limit=1 answered 399 without a Location; the runner follows no redirects: use the URL the API answers at',
    ],
    [
      'a redirect of the probe to another base',
      301,
      { location: '/api/v1/pets?limit=1' },
      '',
      'GET BASE/pets?limit=1 answered 301 with Location: ORIGIN/api/v1/pets?limit=1; the runner follows no redirects: use --base-url ORIGIN/api/v1',
    ],
    [
      'a redirect to a login page',
      307,
      { location: 'https://sso.example/login' },
      '',
      'GET BASE/pets?limit=1 answered 307 with Location: https://sso.example/login; the runner follows no redirects',
    ],
  ])('stops on %s, with one line naming what to fix', async (_, status, headers, body, want) => {
    send(status, headers, body);
    const origin = new URL(base).origin;
    expect(await probe()).toBe(want.replaceAll('BASE', base).replaceAll('ORIGIN', origin));
  });

  it('names the -H headers when the key is refused and they were sent', async () => {
    send(401, JSON_TYPE, '{}');
    expect(await probe({ headers: { 'X-Gateway': 'g1' } })).toBe(
      `the target refused the API key (GET ${base}/pets?limit=1 answered 401); check --api-key or PETSTORE_API_KEY and the -H headers`,
    );
  });

  it('reads a compressed body and shows its first 80 characters, escaped, the key masked', async () => {
    const text = `key ${UNIT_KEY}\n${'z'.repeat(200)}`;
    send(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, gzipSync(text));
    const message = await probe();
    expect(message).not.toContain(UNIT_KEY);
    expect(message).toMatch(
      new RegExp(
        `^GET ${base}/pets\\?limit=1 answered 200 with text/plain, not JSON: .* The body begins: key \\S+\\\\nz+…`,
      ),
    );
    expect(message.slice(message.indexOf('begins: ') + 8).length).toBeLessThanOrEqual(100);
    expect(message).toContain('z'.repeat(60));
  });

  it('masks the key in a redirect target', async () => {
    send(302, { location: `/login?token=${UNIT_KEY}` });
    const message = await probe();
    expect(message).not.toContain(UNIT_KEY);
    expect(message).toMatch(
      /^GET \S+ answered 302 with Location: http:\/\/127\.0\.0\.1:\d+\/login\?token=\S+; the runner follows no redirects$/,
    );
  });

  it('says a target that refuses connections cannot be reached', async () => {
    const idle = createServer();
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    const port = (idle.address() as AddressInfo).port;
    await new Promise<void>((resolve) => idle.close(() => resolve()));
    expect(await portRefuses(port)).toBe(true);
    expect(await probe({}, `http://127.0.0.1:${port}/v1`)).toBe(
      `cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`,
    );
  });

  it('says a target that does not answer within the timeout cannot be reached', async () => {
    answer = () => {};
    expect(await probe({ timeout: 50 })).toBe(`cannot reach ${base}: no answer within 50 ms`);
  });
});

/** A document of the given paths, bearer-secured, answering JSON arrays or objects. */
function tinyDocument(paths: Record<string, unknown>): OpenAPIV3.Document {
  return {
    openapi: '3.0.3',
    info: { title: 'probe', version: '1' },
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  } as OpenAPIV3.Document;
}

function listOf(operationId: string, parameters: unknown[]): object {
  const item = { type: 'object', properties: { id: { type: 'integer' } } };
  return {
    operationId,
    parameters,
    responses: {
      '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: item } } } },
    },
  };
}

function readOf(operationId: string, parameter: string): object {
  return {
    operationId,
    parameters: [{ name: parameter, in: 'path', required: true, schema: { type: 'integer' } }],
    responses: {
      '200': {
        description: 'ok',
        content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } },
      },
    },
  };
}
