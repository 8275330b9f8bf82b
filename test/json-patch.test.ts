import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPetstoreFetch, type PetstoreFetch } from '../src/fetch/index.js';

/**
 * A document whose PATCH takes RFC 6902 JSON Patch (`application/json-patch+json`): the v1.1 test document with its
 * merge patch swapped for it. The mock applies the operations in order to the stored pet, keeps what cannot be
 * patched (the id), refuses a patch that fails or would break the schema with the Error shape, and then has changed
 * nothing.
 */
const KEY = 'json-patch-test-key';
const BASE = 'http://127.0.0.1:4010/v1';
const auth = { Authorization: `Bearer ${KEY}` };
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

let dir: string;
let petstoreFetch: PetstoreFetch;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'json-patch-'));
  const text = readFileSync(v11, 'utf8');
  const swapped = text.replace(
    /application\/merge-patch\+json:\n(\s+)schema: \{ \$ref: '#\/components\/schemas\/PetPatch' \}/,
    'application/json-patch+json:\n$1schema: { type: array, items: { type: object, required: [op, path] } }',
  );
  expect(swapped).not.toBe(text);
  const spec = join(dir, 'petstore-json-patch.yaml');
  writeFileSync(spec, swapped);
  petstoreFetch = createPetstoreFetch({ spec, apiKeys: [KEY] });
  await petstoreFetch.ready;
});

afterAll(async () => {
  await petstoreFetch.close();
  rmSync(dir, { recursive: true, force: true });
});

async function createPet(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await petstoreFetch(`${BASE}/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(201);
  return (await answer.json()) as Record<string, unknown>;
}

function patch(id: unknown, operations: unknown): Promise<Response> {
  return petstoreFetch(`${BASE}/pets/${String(id)}`, {
    method: 'PATCH',
    headers: { ...auth, 'Content-Type': 'application/json-patch+json' },
    body: JSON.stringify(operations),
  });
}

async function stored(id: unknown): Promise<unknown> {
  const answer = await petstoreFetch(`${BASE}/pets/${String(id)}`, { headers: auth });
  expect(answer.status).toBe(200);
  return answer.json();
}

describe('PATCH with application/json-patch+json', () => {
  it('applies the operations in order, and what it answers is what is stored', async () => {
    const pet = await createPet({ name: 'Rex', categoryId: 2, status: 'available', tag: 'old' });
    const answer = await patch(pet.id, [
      { op: 'test', path: '/name', value: 'Rex' },
      { op: 'replace', path: '/name', value: 'Rex II' },
      { op: 'remove', path: '/tag' },
      { op: 'copy', from: '/status', path: '/tag' },
      { op: 'replace', path: '/id', value: 999_999 },
    ]);
    expect(answer.status).toBe(200);
    const expected = { id: pet.id, name: 'Rex II', categoryId: 2, status: 'available', tag: 'available' };
    expect(await answer.json()).toEqual(expected);
    expect(await stored(pet.id)).toEqual(expected);
  });

  it.for([
    ['a failed test', [{ op: 'test', path: '/name', value: 'Other' }], 'body[0]: test failed at /name'],
    [
      'a path that is not there, after an operation that succeeded',
      [
        { op: 'replace', path: '/name', value: 'Half' },
        { op: 'remove', path: '/nothing' },
      ],
      'body[1]: no value at /nothing',
    ],
    ['a result that breaks the schema', [{ op: 'replace', path: '/name', value: 5 }], 'would break its schema'],
    ['an unknown op', [{ op: 'merge', path: '/name', value: 'x' }], 'body[0].op must be add, remove, replace'],
  ] as [string, unknown, string][])(
    'refuses %s with 400 and the Error shape, and changes nothing',
    async ([, operations, message]) => {
      const pet = await createPet({ name: 'Stay', categoryId: 3, status: 'sold' });
      const answer = await patch(pet.id, operations);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const error = (await answer.json()) as { code: string; message: string; status: number };
      expect(error).toMatchObject({ code: 'invalid_body', status: 400 });
      expect(error.message).toContain(message);
      expect(await stored(pet.id)).toEqual(pet);
    },
  );

  it("answers an unknown id with the document's 404, whatever the patch", async () => {
    const answer = await patch(987_654, [{ op: 'replace', path: '/name', value: 'x' }]);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: 'not_found', status: 404 });
  });
});
