import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMock, type Mock } from '../create-mock.js';
import { createMockApp, shapeForExpress } from './express-adapter.js';

// What the mock's server relies on for speed (see shapeForExpress): once a request and its response are shaped,
// neither Express nor the mock adds an own property to them, so all requests share their hidden classes.
const KEY = 'shape-test-key';

interface Seen {
  request: string[];
  response: string[];
}

const keysOf = (value: object) => Reflect.ownKeys(value).map(String);
const added = (before: string[], after: string[]) => after.filter((key) => !before.includes(key));

describe('shapeForExpress', () => {
  let mock: Mock;
  let server: Server;
  let origin: string;
  let base: string;
  let shape = true;
  let seen: Promise<Seen>;

  beforeAll(async () => {
    mock = await createMock({ apiKeys: [KEY] });
    const app = createMockApp(mock);
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (shape) shapeForExpress(req, res);
      // What the request and the response hold as Express gets them; anything added later is what `seen` reports.
      const before = { request: keysOf(req), response: keysOf(res) };
      seen = new Promise((resolve) =>
        res.on('finish', () =>
          resolve({ request: added(before.request, keysOf(req)), response: added(before.response, keysOf(res)) }),
        ),
      );
      app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    base = `${origin}/v1`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await mock.close();
  });

  const exchanges: [string, string, RequestInit, number][] = [
    ['a list', '/pets?limit=2', {}, 200],
    [
      'a create',
      '/pets',
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Shape', categoryId: 1 }),
        headers: { 'Content-Type': 'application/json' },
      },
      201,
    ],
    ['a lookup', '/pets/1', {}, 200],
    ['a refused key', '/pets', { headers: { Authorization: 'Bearer wrong' } }, 401],
    ['an unknown path', '/nowhere', {}, 404],
    ['a HEAD of the list', '/pets?limit=2', { method: 'HEAD' }, 200],
    [
      'an invalid body',
      '/pets',
      { method: 'POST', body: '{"name":1}', headers: { 'Content-Type': 'application/json' } },
      400,
    ],
    [
      'a CORS preflight',
      '/pets',
      { method: 'OPTIONS', headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'POST' } },
      204,
    ],
    ['a method the path has not', '/pets/1', { method: 'DELETE' }, 405],
    ['a journal read', '/__admin/journal?limit=1', {}, 200],
  ];

  it.each(exchanges)('leaves Express and the mock nothing to add to %s', async (_, path, init, status) => {
    shape = true;
    const url = path.startsWith('/__admin') ? origin + path : base + path;
    const response = await fetch(url, { ...init, headers: { Authorization: `Bearer ${KEY}`, ...init.headers } });
    expect(response.status).toBe(status);
    await response.arrayBuffer();
    expect(await seen).toEqual({ request: [], response: [] });
  });

  it('gives in advance exactly what Express adds to a request it was not given shaped', async () => {
    shape = false;
    const response = await fetch(`${base}/pets?limit=1`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const unshaped = await seen;
    // What shapeForExpress adds to a fresh pair, compared with what Express added on its own.
    const req = {} as IncomingMessage;
    const res = {} as ServerResponse;
    shapeForExpress(req, res);
    expect(unshaped.request.sort()).toEqual(keysOf(req).sort());
    expect(unshaped.response.sort()).toEqual(keysOf(res).sort());
    expect(unshaped.request).toContain('Symbol(router.tracing.matchedRoute)');
  });
});
