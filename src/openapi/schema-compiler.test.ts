import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.js';
import { DocumentError } from '../input-errors.js';

/** A document with one component schema, `S`, and a request and response that use it. */
function documentWith(version: string, schema: object): object {
  const content = { 'application/json': { schema: { $ref: '#/components/schemas/S' } } };
  return {
    openapi: version,
    info: { title: 't', version: '1' },
    paths: { '/s': { post: { requestBody: { content }, responses: { '200': { description: 'ok', content } } } } },
    components: { schemas: { S: schema } },
  };
}

async function validators(version: string, schema: object) {
  const spec = await loadSpec(documentWith(version, schema) as never);
  const operation = spec.operations[0]!;
  return { request: operation.body!.validate!, response: operation.responses.get('200')!.validate! };
}

describe('validators compiled by reference', () => {
  it('readOnly is required in a response only, writeOnly in a request only (OAS 3.0.3 §4.7.25)', async () => {
    const { request, response } = await validators('3.0.3', {
      type: 'object',
      required: ['id', 'secret'],
      properties: { id: { type: 'integer', readOnly: true }, secret: { type: 'string', writeOnly: true } },
    });
    expect(request({ secret: 'x' })).toBe(true);
    expect(request({ id: 1 })).toBe(false);
    expect(response({ id: 1 })).toBe(true);
    expect(response({ secret: 'x' })).toBe(false);
  });

  it('3.0: nullable adds null, an enum without null still refuses it', async () => {
    const { request } = await validators('3.0.3', {
      type: 'object',
      properties: { a: { type: 'string', nullable: true }, b: { type: 'string', nullable: true, enum: ['x'] } },
    });
    expect(request({ a: null })).toBe(true);
    expect(request({ b: null })).toBe(false);
    expect(request({ b: 'x' })).toBe(true);
  });

  it('3.0: a boolean exclusiveMinimum makes minimum exclusive', async () => {
    const { request } = await validators('3.0.3', { type: 'integer', minimum: 1, exclusiveMinimum: true });
    expect(request(1)).toBe(false);
    expect(request(2)).toBe(true);
  });

  it('3.1: prefixItems, const, type arrays and numeric exclusive bounds are enforced', async () => {
    const { request } = await validators('3.1.0', {
      type: 'object',
      properties: {
        point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] },
        kind: { const: 'k' },
        note: { type: ['string', 'null'] },
        n: { type: 'number', exclusiveMinimum: 0 },
      },
    });
    expect(request({ point: [1, 'x'], kind: 'k', note: null, n: 0.5 })).toBe(true);
    expect(request({ point: ['x', 1] })).toBe(false);
    expect(request({ kind: 'other' })).toBe(false);
    expect(request({ note: 1 })).toBe(false);
    expect(request({ n: 0 })).toBe(false);
  });

  it('a recursive schema validates to any depth', async () => {
    const { request } = await validators('3.1.0', {
      type: 'object',
      required: ['label'],
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/S' } } },
    });
    expect(request({ label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] })).toBe(true);
    expect(request({ label: 'a', children: [{ label: 'b', children: [{}] }] })).toBe(false);
    expect(request.errors?.[0]?.instancePath).toBe('/children/0/children/0');
  });

  it('a discriminator annotates: its oneOf validates, with or without a mapping', async () => {
    const { request } = await validators('3.0.3', {
      oneOf: [
        {
          type: 'object',
          required: ['kind', 'bark'],
          properties: { kind: { enum: ['dog'] }, bark: { type: 'boolean' } },
        },
        {
          type: 'object',
          required: ['kind', 'purr'],
          properties: { kind: { enum: ['cat'] }, purr: { type: 'boolean' } },
        },
      ],
      discriminator: { propertyName: 'kind', mapping: { dog: '#/x', cat: '#/y' } },
    });
    expect(request({ kind: 'dog', bark: true })).toBe(true);
    expect(request({ kind: 'cat', bark: true })).toBe(false);
  });

  it('a schema AJV cannot read is refused when the document is read, naming where, in one line', async () => {
    const error = await loadSpec(
      documentWith('3.1.0', { type: 'object', properties: { a: { minimum: 'one' } } }) as never,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentError);
    expect((error as Error).message).toMatch(
      /^the OpenAPI document: components\.schemas\.S: schema\.properties\.a\.minimum must be a number$/,
    );
  });
});
