import { expect, it } from 'vitest';
import { forEachSchemaRoot, resolveReferences } from './resolve-references.js';
import { DocumentError } from '../input-errors.js';

const ref = (to: string) => ({ $ref: to });

it('replaces each reference by the object it names, shared, and keeps where each object is written', () => {
  const document = {
    paths: {
      '/a': {
        get: { responses: { default: ref('#/components/responses/E'), '200': ref('#/components/responses/E') } },
      },
    },
    components: {
      responses: {
        E: { description: 'e', content: { 'application/json': { schema: ref('#/components/schemas/E') } } },
      },
      schemas: { E: { type: 'object', properties: { self: ref('#/components/schemas/E') } } },
    },
  };
  const { view, pointerOf } = resolveReferences(document);
  const responses = view.paths['/a'].get.responses as Record<string, unknown>;
  // A response named `default` is no schema default: its reference is resolved too (Box's documents).
  expect(responses.default).toBe(responses['200']);
  expect(pointerOf.get(responses.default as object)).toBe('#/components/responses/E');
  const schema = view.components.schemas.E as { properties: { self: unknown } };
  expect(schema.properties.self).toBe(schema);
  expect(document.components.schemas.E.properties.self).toEqual(ref('#/components/schemas/E'));
});

it('shares data as it is: an example, a default or an enum holding "$ref" is not followed', () => {
  const data = { $ref: '#/nowhere' };
  const document = {
    components: {
      schemas: { S: { type: 'object', default: data, enum: [data], example: data, examples: [data], 'x-a': data } },
      examples: { E: { value: data } },
    },
  };
  const { view } = resolveReferences(document);
  expect(view.components.schemas.S.default).toBe(data);
  expect(view.components.examples.E.value).toBe(data);
});

it('follows references that name references, and refuses one that names nothing or loops, in one line', () => {
  const chain = {
    components: {
      schemas: { A: ref('#/components/schemas/B'), B: ref('#/components/schemas/C'), C: { type: 'string' } },
    },
    x: { schema: ref('#/components/schemas/A') },
  };
  const { view } = resolveReferences(chain);
  expect(view.x.schema).toBe(view.components.schemas.C);
  expect(() => resolveReferences({ x: { schema: ref('#/components/schemas/Nope') } })).toThrow(
    new DocumentError('#/x/schema: $ref "#/components/schemas/Nope" names nothing in the document'),
  );
  const loop = { components: { schemas: { A: ref('#/components/schemas/B'), B: ref('#/components/schemas/A') } } };
  expect(() => resolveReferences(loop)).toThrow(/a loop of \$refs names no schema/);
  expect(() => resolveReferences({ x: { schema: ref('other.yaml#/S') } })).toThrow(/names another document/);
});

it('reads percent-encoded and escaped pointers (RFC 6901, RFC 3986)', () => {
  const document = {
    components: { schemas: { 'a/b c': { type: 'string' } } },
    x: { schema: ref('#/components/schemas/a~1b%20c') },
  };
  const { view } = resolveReferences(document);
  expect(view.x.schema).toBe(view.components.schemas['a/b c']);
});

it('forEachSchemaRoot visits each schema not inside another, with its pointer', () => {
  const document = {
    paths: {
      '/a': {
        get: {
          parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }],
          responses: { '200': { content: { 'application/json': { schema: ref('#/components/schemas/S') } } } },
        },
      },
    },
    components: { schemas: { S: { type: 'object', properties: { a: { type: 'string' } } } } },
  };
  const seen: string[] = [];
  forEachSchemaRoot(document, (_, at) => seen.push(at));
  expect(seen.sort()).toEqual(['#/components/schemas/S', '#/paths/~1a/get/parameters/0/schema']);
});
