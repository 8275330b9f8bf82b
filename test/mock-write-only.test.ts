import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createPetstoreFetch } from '../src/fetch/index.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { judgedClient } from './support/judged-client.js';

// OAS 3.0.3 §4.7.25: a writeOnly property "MAY be sent as part of a request but SHOULD NOT be sent as part of the
// response". The mock keeps what a client sent; what it answers — the create's echo, a read, a list, a replace —
// leaves out the members the answer's schema marks writeOnly, at the top level and nested (through allOf), and every
// answer validates against the document.
const document = fileURLToPath(new URL('./fixtures/resource-documents/accounts-write-only.yaml', import.meta.url));
const KEY = 'write-only-key-52';
const BASE = 'https://accounts.example.com/api';
const spec = await loadSpec(document);

/** A client of the portable core whose every answer must validate against the document. */
function send(petstoreFetch: typeof fetch, method: string, path: string, body?: unknown) {
  return judgedClient(petstoreFetch, BASE, KEY, () => spec)(method, path, body);
}

describe('writeOnly members are kept but never answered', () => {
  it('the create, the read, the list and the replace answer without the password and the card number', async () => {
    const petstoreFetch = createPetstoreFetch({ spec: document, apiKeys: [KEY], baseUrl: BASE });
    try {
      const sent = {
        name: 'Ada',
        password: 'hunter2-secret',
        payment: { holder: 'Ada', cardNumber: '4111111111111111' },
      };
      const created = await send(petstoreFetch, 'POST', '/accounts', sent);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: 1, name: 'Ada', payment: { holder: 'Ada' } });
      const read = await send(petstoreFetch, 'GET', '/accounts/1');
      expect(read.body).toEqual({ id: 1, name: 'Ada', payment: { holder: 'Ada' } });
      const list = await send(petstoreFetch, 'GET', '/accounts');
      expect(list.body).toEqual([{ id: 1, name: 'Ada', payment: { holder: 'Ada' } }]);
      const replaced = await send(petstoreFetch, 'PUT', '/accounts/1', { name: 'Ada L', password: 'another-secret' });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual({ id: 1, name: 'Ada L' });
      for (const answer of [created, read, list, replaced]) {
        expect(answer.text).not.toContain('secret');
        expect(answer.text).not.toContain('4111');
      }
    } finally {
      await petstoreFetch.close();
    }
  });
});
