import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startApi, type Api } from './support/api.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { answerFromDocument } from '../src/mock/front-door/answer-from-document.js';
import { createBodyCheck } from '../src/mock/front-door/valid-body.js';
import { isApiError } from '../src/errors.js';

const STORED = fileURLToPath(new URL('./fixtures/documents/stored-items-lack-members.yaml', import.meta.url));
const DOCUMENT = fileURLToPath(new URL('./fixtures/documents/property-examples-break-schemas.yaml', import.meta.url));

/** What a body made of the document's valid examples and the least values is, for the document's Link. */
const LEAST_LINK = { id: '7', shared_link: { url: 'https://example.com/s/1', accessed: 'open' }, kind: 'file' };

/**
 * The mock never sends a body its response's schema refuses when a valid one can be made (issue 52: "every answer
 * the mock gives on it validates against it"). The document's property examples break their schemas as Box's and
 * Asana's do; startApi checks every answer against the document, so a broken body fails there as well as here.
 */
describe('bodies made for operations without a handler keep their schema', () => {
  let api: Api;
  const internal: unknown[] = [];
  beforeAll(async () => {
    api = await startApi({ spec: DOCUMENT, onInternalError: (error) => void internal.push(error) });
  });
  afterAll(() => api.close());

  it('a body prism-http composes from broken property examples gives way to the least valid one', async () => {
    const response = await api.get('/links/current');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(LEAST_LINK);
    expect(api.server.mock.spec.schema('Link')(response.body)).toBe(true);
  });

  it('a first example that breaks its schema is not sent unasked', async () => {
    const response = await api.get('/links/broken');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(LEAST_LINK);
  });

  it('an example the client names is sent as asked, and Preference-Applied says so', async () => {
    // Plain fetch: startApi's client would rightly fail this body, which is the document's own, asked for by name.
    const response = await fetch(`${api.server.url}/links/broken`, { headers: { Prefer: 'example=broken' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('example=broken');
    expect(await response.json()).toEqual({ id: '9', shared_link: { url: 'asana.com' }, kind: 'web_link' });
  });

  it('where no valid body can be made, the declared 500 names the operation and the rule, and is reported', async () => {
    internal.length = 0;
    const response = await api.get('/codes/current');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      message:
        'getCurrentCode: no 200 body the mock can make validates against its schema: ' +
        'response.code must match pattern "^[A-Z]{3}-[0-9]+$"',
    });
    expect(internal).toHaveLength(1);
  });
});

describe('an operation answered from the document (too large for prism-http) keeps its schema too', () => {
  it('passes over a broken first example, sends a named one as asked, and refuses to make up an invalid body', async () => {
    const spec = await loadSpec(DOCUMENT);
    const check = createBodyCheck(spec.compile);
    const broken = spec.operationById.get('getBrokenLink')!;
    expect(answerFromDocument(broken, undefined, check)).toEqual({ status: 200, body: LEAST_LINK });
    expect(answerFromDocument(broken, { exampleKey: 'broken', dynamic: false }, check)).toEqual({
      status: 200,
      body: { id: '9', shared_link: { url: 'asana.com' }, kind: 'web_link' },
    });
    const code = spec.operationById.get('getCurrentCode')!;
    let thrown: unknown;
    try {
      answerFromDocument(code, undefined, check);
    } catch (error) {
      thrown = error;
    }
    expect(isApiError(thrown) && thrown.code).toBe('internal_error');
    expect((thrown as Error).message).toBe(
      'getCurrentCode: no 200 body the mock can make validates against its schema: response.code must match pattern "^[A-Z]{3}-[0-9]+$"',
    );
  });
});

describe('a stored item is answered with the members its answer requires and no request carried', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ spec: STORED });
  });
  afterAll(() => api.close());

  it("completes the create's nested parent (3.0 nullable beside allOf), and the read answers it the same", async () => {
    // startApi judges both answers against the document: without the completion, parent lacks its required type.
    const created = await api.post('/folders', { name: 'Docs', parent: { id: '0' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: '1', name: 'Docs', parent: { id: '0', type: 'folder' } });
    expect((await api.get('/folders/1')).body).toEqual(created.body);
  });
});
