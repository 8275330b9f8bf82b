import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { loadSpec, basePathOf } from './load-spec.js';
import { defaultSpecFile } from '../paths.js';
import { DocumentError } from '../input-errors.js';

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3 document by swagger-parser', async () => {
    const api = (await SwaggerParser.validate(defaultSpecFile)) as { openapi: string; info: { version: string } };
    expect(api.openapi).toMatch(/^3\./);
    expect(api.info.version).toBe('1.0.0');
  });

  it('renders the interface: servers under /v1, tag animals, bearer on everything, three operations', async () => {
    const spec = await loadSpec();
    expect(spec.document.servers?.map((s) => s.url)).toEqual(['{base_url}', '{staging_base_url}']);
    expect(spec.basePath).toBe('/v1');
    expect(spec.document.tags?.map((t) => t.name)).toEqual(['animals']);
    expect(spec.operations.map((o) => `${o.method} ${o.path} ${o.id}`)).toEqual([
      'get /pets listPets',
      'post /pets createPet',
      'get /pets/{petId} getPet',
    ]);
    for (const operation of spec.operations) {
      expect(operation.security.bearerOnly).toBe(true);
      expect(operation.tags).toEqual(['animals']);
      expect([...operation.responses.keys()]).toContain('401');
    }
    expect(Object.keys(spec.document.components?.schemas ?? {})).toEqual([
      'PetStatus',
      'NewPet',
      'Pet',
      'Pets',
      'Error',
    ]);
  });

  it('states listPets limit 1..100 default 20, and no 400 the interface does not declare', async () => {
    const spec = await loadSpec();
    const list = spec.operationById.get('listPets')!;
    const limit = list.parameters.find((p) => p.name === 'limit')!;
    expect(limit).toMatchObject({ in: 'query', required: false, type: 'integer', default: 20 });
    expect([0, 1, 100, 101].map((n) => limit.validate(n))).toEqual([false, true, true, false]);
    expect([...list.responses.keys()]).toEqual(['200', '401']);
    expect([...spec.operationById.get('createPet')!.responses.keys()]).toEqual(['201', '400', '401']);
    expect([...spec.operationById.get('getPet')!.responses.keys()]).toEqual(['200', '401', '404']);
  });

  it('records getPet as deprecated with its removal date and replacement', async () => {
    const spec = await loadSpec();
    const get = spec.operationById.get('getPet')!;
    expect(get.deprecated).toBe(true);
    expect(get.sunset?.toISOString()).toBe('2030-12-05T00:00:00.000Z');
    expect(get.replacedBy).toBe('listPets');
    expect(spec.operations.filter((o) => o.deprecated).map((o) => o.id)).toEqual(['getPet']);
  });

  it('gives every response an example that matches its own schema', async () => {
    const spec = await loadSpec();
    let checked = 0;
    for (const operation of spec.operations) {
      for (const [status, response] of Object.entries(operation.object.responses)) {
        const media = (response as { content?: Record<string, { examples?: Record<string, { value: unknown }> }> })
          .content?.['application/json'];
        expect(media?.examples, `${operation.id} ${status} has examples`).toBeDefined();
        for (const example of Object.values(media!.examples!)) {
          expect(operation.responses.get(status)!.validate!(example.value), `${operation.id} ${status}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it("marks the interface's open points instead of inventing contract", async () => {
    const raw = parse(await readFile(defaultSpecFile, 'utf8')) as { info: Record<string, unknown> };
    expect((raw.info['x-open-points'] as string[]).length).toBeGreaterThanOrEqual(8);
    const spec = await loadSpec();
    const newPet = spec.document.components!.schemas!.NewPet as { properties: { status: Record<string, unknown> } };
    expect(newPet.properties.status).not.toHaveProperty('default');
  });
});

describe('loadSpec', () => {
  it.each([
    ['a missing file', '/nonexistent/openapi.yaml', /nonexistent\/openapi\.yaml.*ENOENT/],
    ['a Swagger 2 document', { swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }, /only OpenAPI 3/],
    ['an invalid document', { openapi: '3.0.3', info: { title: 't' }, paths: {} }, /version/],
  ])('rejects %s with a one-line DocumentError', async (_, source, message) => {
    const error = await loadSpec(source as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  // swagger-parser alone said "… is not a valid Openapi API definition" or "schema is invalid" with no place.
  const badType = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'stringg' } } } } };
  it.each([
    [
      'no paths',
      { openapi: '3.0.3', info: { title: 't', version: '1' } },
      'not an OpenAPI document: document.paths is required',
    ],
    [
      'neither openapi nor paths',
      { info: { title: 't', version: '1' } },
      'document.openapi is required; document.paths is required',
    ],
    [
      'OpenAPI 3.1 without info.version',
      { openapi: '3.1.0', info: { title: 't' }, paths: {} },
      'the document breaks the OpenAPI 3.1 schema: document.info.version is required',
    ],
    [
      'OpenAPI 3.0 with a bad schema type',
      { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: badType } } } },
      'document.paths./a.get.responses[200].content.application/json.schema.type must be one of',
    ],
    [
      'OpenAPI 3.1 with a bad schema type',
      { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/a': { get: { responses: badType } } } },
      'paths./a.get.responses.200.content.application/json.schema: schema.type must be one of "array", "boolean"',
    ],
  ])('says why and where a document with %s is refused', async (_, source, message) => {
    const error = await loadSpec(source as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toMatch(/not a valid Openapi|\n/);
  });

  it.each([
    [[{ url: 'https://{host}/v1', variables: { host: { default: 'a.example' } } }], '/v1'],
    [[{ url: '/api/v2/' }], '/api/v2'],
    [[{ url: 'http://localhost:8080' }], ''],
    [undefined, ''],
  ])('takes the base path of servers %j as %j', (servers, want) => {
    expect(basePathOf({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, servers })).toBe(want);
  });
});
