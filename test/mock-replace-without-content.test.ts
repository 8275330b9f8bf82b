import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createPetstoreFetch } from '../src/fetch/index.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { judgedClient } from './support/judged-client.js';

// A replace whose 200 declares no content (Swagger's Petstore 3, PUT /user/{username}) is answered without a body,
// as a create's is: a body there is one the document does not declare. The change is stored all the same.
const document = fileURLToPath(
  new URL('./fixtures/resource-documents/users-replaced-without-content.yaml', import.meta.url),
);
const KEY = 'replace-without-content-key';
const BASE = 'https://users.example.com/api';
const spec = await loadSpec(document);

describe('a replace declared without content', () => {
  it('answers 200 without a body, and the read shows the replaced user', async () => {
    const petstoreFetch = createPetstoreFetch({ spec: document, apiKeys: [KEY], baseUrl: BASE });
    const send = judgedClient(petstoreFetch, BASE, KEY, () => spec);
    try {
      const created = await send('POST', '/users', { name: 'Ada' });
      expect(created.status).toBe(201);
      const replaced = await send('PUT', `/users/${created.body.id}`, { name: 'Ada L' });
      expect(replaced).toMatchObject({ status: 200, text: '' });
      expect((await send('GET', `/users/${created.body.id}`)).body).toEqual({ id: created.body.id, name: 'Ada L' });
    } finally {
      await petstoreFetch.close();
    }
  });
});
