import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { startApi, expectError, TEST_KEY, type Api } from './support/api.js';
import { createMock } from '../src/mock/create-mock.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { checkResponse } from '../src/openapi/check-response.js';
import { defaultSpecFile } from '../src/paths.js';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${api.server.origin}/__admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TEST_KEY}`, ...init.headers },
  });

describe('the journal never keeps a key', () => {
  it('redacts a key sent in the query, in the path and in another header', async () => {
    api.server.clearJournal();
    await api.get(`/pets?api_key=${TEST_KEY}&limit=1`);
    await api.get(`/pets/${TEST_KEY}`);
    await api.get('/pets?limit=1', { headers: { 'x-api-key': TEST_KEY } });
    const response = await admin('/journal');
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain(TEST_KEY);
    const { entries } = JSON.parse(text) as {
      entries: { path: string; query: Record<string, string>; requestHeaders: Record<string, string> }[];
    };
    expect(entries.map((e) => e.path)).toEqual(['/v1/pets', '/v1/pets/***', '/v1/pets']);
    expect(entries[2]!.query).toEqual({ api_key: '***', limit: '1' });
    // Named like a credential: redacted whole, whatever it holds.
    expect(entries[0]!.requestHeaders['x-api-key']).toBe('[redacted]');
  });

  it('keeps a small body and only the size of a large one', async () => {
    api.server.clearJournal();
    await api.post('/pets', { name: 'Small', categoryId: 1 });
    await api.post('/pets', { name: 'x'.repeat(10_000), categoryId: 1 });
    const [large, small] = api.server.journal({ operation: 'createPet' });
    expect(small!.requestBody).toEqual({ name: 'Small', categoryId: 1 });
    expect(large!.requestBody).toMatch(/^\[a body of \d+ bytes, not kept\]$/);
  });

  it('answers a filter named like an Object member as an unknown filter', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const response = await admin(`/journal?${name}=1`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(`query.${name} is not a filter`);
    }
  });
});

describe('observers', () => {
  it('cannot turn a stored create into a 500 by failing', async () => {
    const failures: unknown[] = [];
    const mock = await createMock({ apiKeys: [TEST_KEY], onInternalError: (error) => failures.push(error) });
    const seen: number[] = [];
    mock.observers.add(() => {
      throw new Error('observer broke');
    });
    mock.observers.add((exchange) => seen.push(exchange.reply.status));
    const { Readable } = await import('node:stream');
    const reply = await mock.dispatch({
      method: 'POST',
      url: '/v1/pets',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: Readable.from([Buffer.from('{"name":"Kept","categoryId":1}')]),
      mountPath: '',
    });
    expect(reply.status).toBe(201);
    expect(seen).toEqual([201]);
    expect(failures).toHaveLength(1);
    expect(await mock.store.count()).toBe(58);
  });

  it('are not added for a journal of size 0', async () => {
    expect((await createMock({ apiKeys: [TEST_KEY], journalSize: 0 })).observers.size).toBe(0);
  });
});

describe('request targets and keys', () => {
  it('routes an absolute-form request target (RFC 9112 §3.2.2)', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: api.server.port,
          method: 'GET',
          path: `http://127.0.0.1:${api.server.port}/v1/pets?limit=2`,
          headers: { authorization: `Bearer ${TEST_KEY}` },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(JSON.parse(body)).toHaveLength(2);
  });

  it.each(['my key!', 'clé', ''])('refuses at start-up a key no client could send: %j', async (key) => {
    await expect(createMock({ apiKeys: [key] })).rejects.toThrow(/API key 1 of 1 cannot be sent as a bearer token/);
  });
});

describe('checkResponse without an Error schema in the document', () => {
  // A document that declares its errors as any object is judged by that declaration, not by the interface's Error
  // (issue 52: errors in the document's own words): an object without `status` passes, an array does not.
  it("judges error answers against the document's own declaration", async () => {
    const document = parse(await readFile(defaultSpecFile, 'utf8'));
    delete document.components.schemas.Error;
    const errorRef = { type: 'object' };
    for (const path of Object.values<Record<string, { responses: Record<string, unknown> }>>(document.paths)) {
      for (const operation of Object.values(path)) {
        for (const status of Object.keys(operation.responses))
          if (status >= '400')
            operation.responses[status] = {
              description: 'error',
              content: { 'application/json': { schema: errorRef } },
            };
      }
    }
    delete document.components.responses;
    const spec = await loadSpec(document);
    const getPet = spec.operations.find((operation) => operation.id === 'getPet');
    const answer = (text: string) =>
      checkResponse(spec, getPet, { status: 404, contentType: 'application/json', body: JSON.parse(text), text });
    expect(answer('{"code":"x","message":"y"}')).toEqual([]);
    expect(answer('["x"]').map((v) => v.message)).toEqual(['response must be an object']);
  });
});

describe('integers in the query', () => {
  it.each(['007', '%2B5'])('are plain decimals: limit=%s gets a 400', async (limit) => {
    expectError(await api.get(`/pets?limit=${limit}`), 400, 'invalid_parameter', 'query.limit must be an integer');
  });
});
