import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { describeRedis, startRedisServer, type RedisServer } from './support/redis-server.js';

/**
 * Key layout 3 beyond the v1.1 document: a collection with UUID ids, a filter that takes several values, and PATCH
 * by RFC 6902 JSON Patch (the memory store's one implementation, applied in the replica, written by compare-and-set):
 * two replicas patching one note at once lose no patch.
 */
const KEY = 'redis-uuid-patch-key';
const error = { $ref: '#/components/schemas/Error' };
const document: OpenAPIV3.Document = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1.0.0' },
  servers: [{ url: '/v1' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          {
            name: 'color',
            in: 'query',
            style: 'form',
            explode: false,
            schema: { type: 'array', items: { type: 'string' } },
          },
        ],
        responses: {
          '200': {
            description: 'Notes.',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Note' } } },
            },
          },
        },
      },
      post: {
        operationId: 'createNote',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewNote' } } },
        },
        responses: {
          '201': {
            description: 'Created.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
          '400': { description: 'Bad.', content: { 'application/json': { schema: error } } },
        },
      },
    },
    '/notes/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: {
        operationId: 'getNote',
        responses: {
          '200': {
            description: 'A note.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
          '404': { description: 'None.', content: { 'application/json': { schema: error } } },
        },
      },
      patch: {
        operationId: 'patchNote',
        requestBody: {
          required: true,
          content: { 'application/json-patch+json': { schema: { type: 'array', items: { type: 'object' } } } },
        },
        responses: {
          '200': {
            description: 'Patched.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
          '400': { description: 'Bad.', content: { 'application/json': { schema: error } } },
          '404': { description: 'None.', content: { 'application/json': { schema: error } } },
        },
      },
    },
  },
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    schemas: {
      NewNote: {
        type: 'object',
        required: ['text'],
        properties: {
          text: { type: 'string' },
          color: { type: 'string' },
          marks: { type: 'array', items: { type: 'string' } },
        },
      },
      Note: {
        allOf: [
          { $ref: '#/components/schemas/NewNote' },
          { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
        ],
      },
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
      },
    },
  },
};

type Note = { id: string; text: string; color?: string; marks?: string[] };

describeRedis('two replicas on one Redis: UUID ids, a many-valued filter, JSON Patch', () => {
  let redis: RedisServer;
  let a: MockServer;
  let b: MockServer;

  async function send(server: MockServer, method: string, path: string, body?: unknown, type = 'application/json') {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': type },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Note & Note[] & { code?: string } };
  }

  beforeAll(async () => {
    redis = await startRedisServer({ durable: false });
    const options = { spec: document, fixtures: [], apiKeys: [KEY], store: redis.url, storePrefix: 'notes' };
    a = await createMockServer(options);
    b = await createMockServer(options);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.close();
  });

  it('hands out UUIDs on both replicas, lists in creation order, filters by any of several values', async () => {
    const made: Note[] = [];
    for (const [server, text, color] of [
      [a, 'one', 'red'],
      [b, 'two', 'blue'],
      [a, 'three', 'green'],
      [b, 'four', 'red'],
    ] as const) {
      const created = await send(server, 'POST', '/notes', { text, color });
      expect(created.status).toBe(201);
      expect(created.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      made.push(created.body);
    }
    expect((await send(b, 'GET', '/notes')).body).toEqual(made);
    expect((await send(a, 'GET', '/notes?color=red&color=blue')).body).toEqual([made[0], made[1], made[3]]);
    expect((await send(b, 'GET', '/notes?color=red&limit=1')).body).toEqual([made[0]]);
    expect((await send(a, 'GET', `/notes/${made[2]!.id}`)).body).toEqual(made[2]);
    const unknown = await send(a, 'GET', '/notes/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });

  it('applies JSON Patch on one replica, read on the other; a failed test op changes nothing', async () => {
    const note = (await send(a, 'POST', '/notes', { text: 'patch me', color: 'red', marks: [] })).body;
    const patched = await send(
      b,
      'PATCH',
      `/notes/${note.id}`,
      [
        { op: 'replace', path: '/color', value: 'blue' },
        { op: 'add', path: '/marks/-', value: 'x' },
      ],
      'application/json-patch+json',
    );
    expect(patched).toEqual({ status: 200, body: { id: note.id, text: 'patch me', color: 'blue', marks: ['x'] } });
    expect((await send(a, 'GET', `/notes/${note.id}`)).body).toEqual(patched.body);
    expect((await send(a, 'GET', '/notes?color=blue')).body).toContainEqual(patched.body);
    expect((await send(a, 'GET', '/notes?color=red')).body).not.toContainEqual(
      expect.objectContaining({ id: note.id }),
    );
    const failed = await send(
      a,
      'PATCH',
      `/notes/${note.id}`,
      [
        { op: 'test', path: '/color', value: 'red' },
        { op: 'remove', path: '/marks' },
      ],
      'application/json-patch+json',
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect((await send(b, 'GET', `/notes/${note.id}`)).body).toEqual(patched.body);
  });

  it('loses no patch when both replicas patch one note at once (compare-and-set, computed again on a race)', async () => {
    const note = (await send(a, 'POST', '/notes', { text: 'race', marks: [] })).body;
    const patches = Array.from({ length: 40 }, (_, i) =>
      send(
        i % 2 === 0 ? a : b,
        'PATCH',
        `/notes/${note.id}`,
        [{ op: 'add', path: '/marks/-', value: `m${i}` }],
        'application/json-patch+json',
      ),
    );
    const answers = await Promise.all(patches);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const final = (await send(b, 'GET', `/notes/${note.id}`)).body;
    expect([...final.marks!].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`).sort());
  });
});
