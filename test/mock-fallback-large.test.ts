import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { startApi, type Api } from './support/api.js';
import { defaultSpecFile } from '../src/paths.js';
import { PRISM_MAX_EXPANSION } from '../src/mock/front-door/fallback.js';

/** Each Layer holds the next twice: Layer0 expands to 2^24 copies of the last, as each of Stripe's operations does. */
const DEPTH = 24;

/**
 * openapi.yaml plus GET /store/report, which no handler answers and whose 200 schema expands to millions of nodes:
 * prism-http's dereferencer copies and walks every one (a request to any of Stripe's operations hung the mock for
 * minutes), so the mock answers it from the document itself (src/mock/front-door/answer-from-document.ts).
 */
async function specWithHugeReport() {
  const document = parse(await readFile(defaultSpecFile, 'utf8'));
  const schemas = document.components.schemas;
  schemas[`Layer${DEPTH}`] = { type: 'string', minLength: 2 };
  for (let i = DEPTH - 1; i >= 0; i--) {
    const next = { $ref: `#/components/schemas/Layer${i + 1}` };
    schemas[`Layer${i}`] = { type: 'object', properties: { left: next, right: next } };
  }
  schemas.Report = {
    type: 'object',
    required: ['title', 'tree'],
    properties: { title: { type: 'string', minLength: 1 }, tree: { $ref: '#/components/schemas/Layer0' } },
  };
  const report = { $ref: '#/components/schemas/Report' };
  document.paths['/store/report'] = {
    get: {
      operationId: 'getReport',
      responses: {
        '200': {
          description: 'the report',
          content: {
            'application/json': {
              schema: report,
              examples: { named: { value: { title: 'named', tree: { left: { right: {} } } } } },
            },
          },
        },
        '202': { description: 'being written', content: { 'application/json': { schema: report } } },
        '401': { $ref: '#/components/responses/Unauthorized' },
      },
    },
  };
  document.paths['/store/summary'] = {
    get: {
      operationId: 'getSummary',
      responses: { '200': { description: 'no example', content: { 'application/json': { schema: report } } } },
    },
  };
  return document;
}

describe('an operation too large for prism-http is answered from the document', () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi({ spec: await specWithHugeReport() });
  });
  afterAll(() => api.close());

  it('serves the first example with the lowest 2xx', async () => {
    const response = await api.get('/store/report');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ title: 'named', tree: { left: { right: {} } } });
  });

  it('without an example, the least body the schema accepts, which validates', async () => {
    const response = await api.get('/store/summary');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ title: 'x', tree: {} });
    expect(api.server.mock.spec.schema('Report')(response.body)).toBe(true);
  });

  it('docs/mock.md states the bound the mock applies', async () => {
    const page = await readFile(new URL('../docs/mock.md', import.meta.url), 'utf8');
    expect(page).toContain(`past ${PRISM_MAX_EXPANSION.toLocaleString('en-US')} JSON nodes`);
  });

  it('honours Prefer: code= with that response', async () => {
    const response = await api.get('/store/report', { headers: { prefer: 'code=202' } });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ title: 'x', tree: {} });
  });

  // RFC 7240 §3: Preference-Applied lists what was applied; nothing is generated here, so dynamic=true is not.
  it('does not claim Prefer: dynamic=true, which it does not apply, and lists what it did apply', async () => {
    const alone = await api.get('/store/summary', { headers: { prefer: 'dynamic=true' } });
    expect(alone.body).toEqual({ title: 'x', tree: {} });
    expect(alone.headers.get('preference-applied')).toBeNull();
    const withCode = await api.get('/store/report', { headers: { prefer: 'dynamic=true, code=202, delay=0' } });
    expect(withCode.status).toBe(202);
    expect(withCode.headers.get('preference-applied')).toBe('code=202, delay=0');
  });
});
