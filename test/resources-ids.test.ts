import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { createPetstoreFetch, type PetstoreFetch } from '../src/fetch/index.js';

/**
 * A document that is not the Petstore's shape: a path parameter named `id`, UUID ids the server assigns, operationIds
 * that say nothing of their role, a `limit` with other bounds, and a collection whose id is named by the
 * `x-petstore-kit-id` extension (a string id). The mock finds each role from the method and path alone.
 */
const KEY = 'resources-ids-test-key';
const BASE = 'http://127.0.0.1:4010/api';
const auth = { Authorization: `Bearer ${KEY}` };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const error: OpenAPIV3.ResponseObject = {
  description: 'An error.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};
const json = (schema: OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject, description = 'An answer.') => ({
  description,
  content: { 'application/json': { schema } },
});
const note = { $ref: '#/components/schemas/Note' };
const label = { $ref: '#/components/schemas/Label' };

const document: OpenAPIV3.Document = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1.0.0' },
  servers: [{ url: 'https://notes.example.com/api' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/notes': {
      get: {
        operationId: 'browseEverything',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 5, default: 2 } }],
        responses: { '200': json({ type: 'array', items: note }), '400': error, '401': error },
      },
      post: {
        operationId: 'scribble',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewNote' } } },
        },
        responses: { '201': json(note), '400': error, '401': error },
      },
    },
    '/notes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: { operationId: 'peek', responses: { '200': json(note), '401': error, '404': error } },
      delete: { operationId: 'shred', responses: { '204': { description: 'Gone.' }, '401': error, '404': error } },
    },
    '/labels': {
      get: { operationId: 'allLabels', responses: { '200': json({ type: 'array', items: label }), '401': error } },
      post: {
        operationId: 'stick',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewLabel' } } },
        },
        responses: { '201': json(label), '400': error, '401': error },
      },
    },
    '/labels/{slug}': {
      'x-petstore-kit-id': 'code',
      parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'oneLabel', responses: { '200': json(label), '401': error, '404': error } },
    } as OpenAPIV3.PathItemObject,
  },
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
      },
      NewNote: {
        type: 'object',
        required: ['text'],
        properties: { text: { type: 'string', minLength: 1, maxLength: 20 } },
      },
      Note: {
        type: 'object',
        required: ['id', 'text'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, text: { type: 'string' } },
      },
      NewLabel: { type: 'object', required: ['colour'], properties: { colour: { type: 'string' } } },
      Label: {
        type: 'object',
        required: ['code', 'colour'],
        properties: { code: { type: 'string', readOnly: true }, colour: { type: 'string' } },
      },
    },
  },
};

let petstoreFetch: PetstoreFetch;
beforeAll(async () => {
  petstoreFetch = createPetstoreFetch({ spec: document, fixtures: [], apiKeys: [KEY], baseUrl: BASE });
  await petstoreFetch.ready;
});
afterAll(() => petstoreFetch.close());

async function send(method: string, path: string, body?: unknown) {
  const answer = await petstoreFetch(`${BASE}${path}`, {
    method,
    headers: body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('a path parameter named id, UUID ids and operationIds that name no role', () => {
  it('creates with a UUID the server assigns (an id sent is ignored), reads it back, and lists within the limit', async () => {
    const created = [];
    for (const text of ['one', 'two', 'three']) {
      const answer = await send('POST', '/notes', { text, id: '00000000-0000-4000-8000-000000000000' });
      expect(answer.status).toBe(201);
      const body = answer.body as { id: string; text: string };
      expect(body.id).toMatch(UUID);
      expect(body.text).toBe(text);
      expect(answer.headers.get('location')).toBe(`/api/notes/${body.id}`);
      created.push(body);
    }
    expect(new Set(created.map((item) => item.id)).size).toBe(3);
    expect((await send('GET', `/notes/${created[1]!.id}`)).body).toEqual(created[1]);
    // The document's default (2) and maximum (5), not v1's 20 and 100; creation order for UUIDs.
    expect((await send('GET', '/notes')).body).toEqual(created.slice(0, 2));
    expect((await send('GET', '/notes?limit=5')).body).toEqual(created);
    const tooMany = await send('GET', '/notes?limit=6');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ status: 400 });
    expect((tooMany.body as { message: string }).message).toContain('limit');
  });

  it("deletes by its id: 204, then the document's 404 on read and delete; an unknown UUID is a 404 too", async () => {
    const made = (await send('POST', '/notes', { text: 'short-lived' })).body as { id: string };
    expect((await send('DELETE', `/notes/${made.id}`)).status).toBe(204);
    for (const method of ['GET', 'DELETE']) {
      const gone = await send(method, `/notes/${made.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ status: 404 });
    }
    expect((await send('GET', '/notes?limit=5')).body).not.toContainEqual(expect.objectContaining({ id: made.id }));
    expect((await send('GET', '/notes/6f1c2b9e-3a4d-4e5f-8a7b-0c1d2e3f4a5b')).status).toBe(404);
  });

  it('refuses a note breaking its schema with 400 naming the field, and stores nothing', async () => {
    const before = (await send('GET', '/notes?limit=5')).body as unknown[];
    const refused = await send('POST', '/notes', { text: 'x'.repeat(21) });
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toContain('text');
    expect((await send('GET', '/notes?limit=5')).body).toEqual(before);
  });
});

describe('an id named by x-petstore-kit-id', () => {
  it('keeps string ids in the named property, found through the path parameter', async () => {
    const red = await send('POST', '/labels', { colour: 'red' });
    const blue = await send('POST', '/labels', { colour: 'blue' });
    expect(red.status).toBe(201);
    expect(red.body).toEqual({ code: '1', colour: 'red' });
    expect(blue.body).toEqual({ code: '2', colour: 'blue' });
    expect((await send('GET', '/labels/2')).body).toEqual({ code: '2', colour: 'blue' });
    expect((await send('GET', '/labels')).body).toEqual([red.body, blue.body]);
    expect((await send('GET', '/labels/nope')).status).toBe(404);
  });
});
