import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createPetstoreFetch } from '../src/fetch/index.js';

// A body valid against both branches of a oneOf fails it (JSON Schema 2020-12 Core §10.2.1.3), and AJV reports no
// branch error to say why: the mock's 400 must still name the field and the rule, never an empty message.
const document = fileURLToPath(new URL('./fixtures/resource-documents/notes-twin-one-of.yaml', import.meta.url));
const KEY = 'one-of-key-53';
const BASE = 'https://notes.example.com/api';

describe('a body that matches more than one oneOf branch', () => {
  it('is refused with a message naming oneOf and the branches, and nothing is stored', async () => {
    const petstoreFetch = createPetstoreFetch({ spec: document, apiKeys: [KEY], baseUrl: BASE });
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    try {
      const both = await petstoreFetch(`${BASE}/notes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: 'both' }),
      });
      expect(both.status).toBe(400);
      expect(await both.json()).toEqual({
        code: 'invalid_body',
        status: 400,
        message: 'body must match exactly one schema in oneOf, but matches branches 0 and 1',
      });
      // One branch only (Memo's minLength refuses ''): created, so the refusal above was about oneOf alone.
      const one = await petstoreFetch(`${BASE}/notes`, { method: 'POST', headers, body: JSON.stringify({ text: '' }) });
      expect(one.status).toBe(201);
      const list = await petstoreFetch(`${BASE}/notes`, { headers });
      expect(await list.json()).toEqual([{ id: 1, text: '' }]);
    } finally {
      await petstoreFetch.close();
    }
  });
});
