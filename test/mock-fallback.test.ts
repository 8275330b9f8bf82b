import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';
import { createMock, createMockRouter } from '../src/index.js';
import { defaultSpecFile } from '../src/paths.js';

/** openapi.yaml plus an operation no handler knows: adding it to the document must be enough to serve it. */
async function specWithOrders() {
  const document = parse(await readFile(defaultSpecFile, 'utf8'));
  document.components.schemas.Order = {
    type: 'object',
    required: ['id', 'petId', 'quantity'],
    properties: { id: { type: 'integer' }, petId: { type: 'integer' }, quantity: { type: 'integer', minimum: 1 } },
  };
  document.paths['/store/orders'] = {
    get: {
      operationId: 'listOrders',
      parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10 } }],
      responses: {
        '200': {
          description: 'orders',
          content: {
            'application/json': {
              schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } },
              examples: {
                some: { value: [{ id: 1, petId: 2, quantity: 1 }] },
                none: { value: [] },
              },
            },
          },
        },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '404': {
          description: 'no store',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Error' },
              example: { code: 'not_found', message: 'no store', status: 404 },
            },
          },
        },
      },
    },
  };
  // Only generated bodies: at least one order, so a check of every generated order can never pass on an empty list.
  document.paths['/store/orders/recent'] = {
    get: {
      operationId: 'listRecentOrders',
      responses: {
        '200': {
          description: 'recent orders',
          content: {
            'application/json': {
              schema: { type: 'array', minItems: 1, maxItems: 5, items: { $ref: '#/components/schemas/Order' } },
            },
          },
        },
        '401': { $ref: '#/components/responses/Unauthorized' },
      },
    },
  };
  // museum-openapi-example's ticket QR code: a 200 that is an image only, which the mock once labelled JSON.
  document.paths['/store/orders/{orderId}/qr'] = {
    get: {
      operationId: 'getOrderCode',
      parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: {
        '200': { description: 'a QR code', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
        '401': { $ref: '#/components/responses/Unauthorized' },
      },
    },
  };
  return document;
}

describe('operations without a handler are served by prism-http', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ spec: await specWithOrders() });
  });
  afterAll(() => api.close());

  it('answers a media type that is not JSON under its own Content-Type, never as JSON', async () => {
    const response = await api.get('/store/orders/7/qr');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    // Asked for JSON, which it does not have: what it has (RFC 9110 §12.5.1 lets a server disregard Accept), no 500.
    const asked = await api.get('/store/orders/7/qr', { headers: { accept: 'application/json' } });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('content-type')).toBe('image/png');
  });

  it('serves the first example with the first 2xx', async () => {
    const response = await api.get('/store/orders');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([{ id: 1, petId: 2, quantity: 1 }]);
  });

  it('enforces our auth and our parameter rules before prism mocks', async () => {
    expectError(await api.get('/store/orders', { key: null }), 401, 'unauthorized', 'missing');
    expectError(await api.get('/store/orders?limit=11'), 400, 'invalid_parameter', 'query.limit must be <= 10');
  });

  it.each([
    ['example=none', 200, []],
    ['code=404', 404, { code: 'not_found', message: 'no store', status: 404 }],
    ['code=200, example=some', 200, [{ id: 1, petId: 2, quantity: 1 }]],
  ])('honours Prefer: %s', async (prefer, status, body) => {
    const response = await api.get('/store/orders', { headers: { prefer } });
    expect(response.status).toBe(status);
    expect(response.body).toEqual(body);
  });

  it('generates a body from the schema with Prefer: dynamic=true', async () => {
    const isOrder = api.server.mock.spec.schema('Order');
    for (let i = 0; i < 5; i++) {
      const response = await api.get('/store/orders/recent', { headers: { prefer: 'dynamic=true' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('preference-applied')).toBe('dynamic=true');
      expect(response.body.length).toBeGreaterThanOrEqual(1);
      expect(response.body.length).toBeLessThanOrEqual(5);
      for (const order of response.body) expect(isOrder(order), JSON.stringify(order)).toBe(true);
    }
    // One Preference-Applied list (RFC 7240 §3): the negotiator's, then the fallback's own dynamic=true.
    const delayed = await api.get('/store/orders/recent', { headers: { prefer: 'dynamic=true, delay=0' } });
    expect(delayed.headers.get('preference-applied')).toBe('delay=0, dynamic=true');
  });

  it('negotiates Prefer as for the stateful operations: Preference-Applied, and a challenge on a forced 401', async () => {
    const forced = await api.get('/store/orders', { headers: { prefer: 'code=401' } });
    expect(forced.status).toBe(401);
    expect(forced.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    expect(forced.headers.get('preference-applied')).toBe('code=401');
    const stateful = await api.get('/pets', { headers: { prefer: 'code=401' } });
    expect(stateful.headers.get('www-authenticate')).toBe('Bearer realm="petstore"');
    expect(stateful.headers.get('preference-applied')).toBe('code=401');
    // RFC 7240: the first occurrence wins, and what follows ";" belongs to the preference before it.
    expect(
      (await api.get('/store/orders', { headers: { prefer: 'example=none; code=404, example=some' } })).body,
    ).toEqual([]);
  });

  it('does not apply dynamic=true to an operation with a handler: the store answers, and Preference-Applied does not claim it', async () => {
    const response = await api.get('/pets?limit=2', { headers: { prefer: 'dynamic=true' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(await api.server.mock.store.list({ limit: 2 }));
    expect(response.headers.get('preference-applied')).toBeNull();
  });

  it.each(['code=418', 'example=missing'])(
    'answers Prefer: %s that the document cannot satisfy with a 400 Error',
    async (prefer) => {
      expectError(await api.get('/store/orders', { headers: { prefer } }), 400, 'invalid_parameter', 'header.Prefer');
    },
  );

  it('keeps the stateful handlers for the pet operations', async () => {
    const created = await api.post('/pets', { name: 'Kept', categoryId: 1 });
    expect((await api.get(`/pets/${created.body.id}`)).body).toEqual(created.body);
  });
});

describe('mounted inside an existing Express app', () => {
  it('serves under the mount path, after the host app parsed JSON itself', async () => {
    const mock = await createMock({ apiKeys: [TEST_KEY] });
    const host = express();
    host.use(express.json());
    host.get('/health', (_req, res) => {
      res.json({ ok: true });
    });
    host.use('/mock', createMockRouter(mock));
    const server = createServer(host).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const headers = { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' };
    try {
      expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
      const list = await fetch(`${base}/mock/v1/pets?limit=2`, { headers });
      expect(list.status).toBe(200);
      expect(await list.json()).toHaveLength(2);
      const created = await fetch(`${base}/mock/v1/pets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Host', categoryId: 2 }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('/mock/v1/pets/58');
      const fetched = await fetch(`${base}/mock/v1/pets/58`, { headers });
      expect(await fetched.json()).toEqual({ id: 58, name: 'Host', categoryId: 2 });
      expect(fetched.headers.get('link')).toBe('</mock/v1/pets>; rel="successor-version"');
      const bad = await fetch(`${base}/mock/v1/pets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'NoCategory' }),
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'invalid_body', status: 400 });
      expect(await mock.store.count()).toBe(58);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
