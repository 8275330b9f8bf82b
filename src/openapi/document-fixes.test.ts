import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { loadSpec, basePathOf } from './load-spec.js';
import { defaultSpecFile } from '../paths.js';

// The document's own fixes: what Specmatic, Spectral and the interface asked of openapi.yaml.
describe('openapi.yaml', () => {
  it('pairs every getPet response example with a petId example of the same name, valid for the parameter, the ids agreeing', async () => {
    const spec = await loadSpec();
    const getPet = spec.operationById.get('getPet')!;
    const petId = getPet.parameters.find((p) => p.name === 'petId')!;
    const raw = getPet.object.parameters!.find((p) => 'name' in p && p.name === 'petId') as {
      examples?: Record<string, { value: unknown }>;
    };
    const parameterExamples = raw.examples ?? {};
    expect(Object.keys(parameterExamples).length).toBeGreaterThan(0);
    for (const [name, example] of Object.entries(parameterExamples))
      expect(petId.validate(example.value), name).toBe(true);
    const ok = (
      getPet.object.responses['200'] as {
        content: Record<string, { examples: Record<string, { value: { id: number } }> }>;
      }
    ).content['application/json']!.examples;
    for (const [name, example] of Object.entries(ok))
      expect(parameterExamples[name]?.value, `petId example "${name}"`).toBe(example.value.id);
    const notFound = (
      getPet.object.responses['404'] as {
        content: Record<string, { examples: Record<string, { value: { message: string } }> }>;
      }
    ).content['application/json']!.examples;
    for (const [name, example] of Object.entries(notFound))
      expect(example.value.message).toContain(String(parameterExamples[name]?.value));
  });

  it('describes every operation (Spectral operation-description)', async () => {
    const spec = await loadSpec();
    for (const operation of spec.operations) expect(operation.object.description?.trim(), operation.id).toBeTruthy();
  });

  it('makes {base_url} the whole base address, as the interface does, with /v1 still the base path', async () => {
    const spec = await loadSpec();
    expect(spec.document.servers?.map((server) => server.url)).toEqual(['{base_url}', '{staging_base_url}']);
    expect(spec.document.servers?.[0]?.variables?.base_url?.default).toMatch(/^https:\/\/[^/]+\/v1$/);
    expect(basePathOf(spec.document)).toBe('/v1');
  });

  it('marks x-deprecated-since as our decision in a field tools read, not only a YAML comment', async () => {
    const raw = parse(await readFile(defaultSpecFile, 'utf8')) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const getPet = raw.paths['/pets/{petId}']!.get!;
    expect(getPet['x-deprecated-since']).toBeDefined();
    expect((getPet['x-petstore-kit-decision'] as Record<string, string>)['x-deprecated-since']).toMatch(
      /Our date, not the interface's/,
    );
  });
});
