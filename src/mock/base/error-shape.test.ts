import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { errorShapes, renderShape, type ErrorShape } from './error-shape.js';
import { minimalValue } from './minimal-value.js';

// An AJV of the test's own (2020-12, formats checked), not the mock's: the bodies must validate for any reader.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

const MESSAGE = 'no animal has id 999';

/** The first shape whose body the schema accepts, as the mock's template chooses; its body. */
function shaped(schema: unknown, status: number, kind: string, problem = false, check = schema) {
  const shapes = errorShapes(schema, status, problem);
  const validate = check === undefined ? undefined : ajv.compile(check as object);
  const shape = shapes.find((candidate) => !validate || validate(renderShape(candidate, kind, MESSAGE)));
  return { shapes, shape, body: shape && renderShape(shape, kind, MESSAGE) };
}

const errorWithIntegerCode = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
};

describe('errorShapes: a made-up error body in the schema’s words', () => {
  it.each([
    [
      'an integer code gets the status (petstore-expanded)',
      errorWithIntegerCode,
      404,
      'not_found',
      {
        code: 404,
        message: MESSAGE,
      },
    ],
    [
      'a string code gets the kind, and the members keep their declared order (the interface’s Error)',
      {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
      },
      404,
      'not_found',
      { code: 'not_found', message: MESSAGE, status: 404 },
    ],
    [
      'an enum of codes: the kind in its own spelling',
      {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { enum: ['BAD_REQUEST', 'NOT_FOUND'] }, message: { type: 'string' } },
      },
      404,
      'not_found',
      { code: 'NOT_FOUND', message: MESSAGE },
    ],
    [
      'an enum without the kind: the status phrase’s value',
      {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', enum: ['Conflict', 'Bad Request'] }, message: { type: 'string' } },
      },
      400,
      'invalid_json',
      { code: 'Bad Request', message: MESSAGE },
    ],
    [
      'the message goes to detail where there is no message; a string status gets the digits',
      {
        type: 'object',
        required: ['detail', 'status'],
        properties: { status: { type: 'string' }, detail: { type: 'string', maxLength: 200 } },
      },
      409,
      'store_full',
      { status: '409', detail: MESSAGE },
    ],
    [
      'Spring Boot’s shape: error gets the status phrase once message holds the message; optional path left out',
      {
        type: 'object',
        required: ['timestamp', 'status', 'error', 'message'],
        properties: {
          timestamp: { type: 'string', format: 'date-time' },
          status: { type: 'integer' },
          error: { type: 'string' },
          message: { type: 'string' },
          path: { type: 'string' },
        },
      },
      415,
      'unsupported_media_type',
      { timestamp: '1970-01-01T00:00:00Z', status: 415, error: 'Unsupported Media Type', message: MESSAGE },
    ],
    [
      'required members of other shapes get the least value their schema takes',
      {
        type: 'object',
        required: ['message', 'level', 'retryable', 'details', 'requestId', 'count', 'source'],
        properties: {
          message: { type: 'string', maxLength: 8 },
          level: { type: 'string', enum: ['error', 'warning'] },
          retryable: { type: 'boolean' },
          details: {
            type: 'array',
            minItems: 1,
            items: { type: 'object', required: ['field'], properties: { field: { type: 'string', minLength: 1 } } },
          },
          requestId: { type: 'string', format: 'uuid' },
          count: { type: 'integer', exclusiveMinimum: 0 },
          source: { const: 'mock' },
        },
      },
      400,
      'invalid_body',
      {
        message: MESSAGE.slice(0, 8),
        level: 'error',
        retryable: false,
        details: [{ field: 'x' }],
        requestId: '00000000-0000-0000-0000-000000000000',
        count: 1,
        source: 'mock',
      },
    ],
    [
      'allOf parts are merged, members in declaration order',
      {
        allOf: [
          errorWithIntegerCode,
          { type: 'object', required: ['traceId'], properties: { traceId: { type: 'string', minLength: 3 } } },
        ],
      },
      503,
      'store_unavailable',
      { code: 503, message: MESSAGE, traceId: 'xxx' },
    ],
    ['a string schema is the message itself', { type: 'string' }, 404, 'not_found', MESSAGE],
    [
      'a string schema with a maxLength gets the message cut',
      { type: 'string', maxLength: 5 },
      404,
      'not_found',
      MESSAGE.slice(0, 5),
    ],
  ] as [string, object, number, string, unknown][])('%s', (_, schema, status, kind, want) => {
    const { body } = shaped(schema, status, kind);
    expect(body).toEqual(want);
    // Deep equality ignores order; the bytes do not.
    expect(JSON.stringify(body)).toBe(JSON.stringify(want));
  });

  it('a oneOf: the branch that carries the message, among those the schema accepts', () => {
    const schema = {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['errors'],
          properties: { errors: { type: 'array', minItems: 1, items: { type: 'string' } } },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['message'],
          properties: { message: { type: 'string' } },
        },
      ],
    };
    const { shapes, body } = shaped(schema, 400, 'invalid_body');
    expect(shapes).toHaveLength(2);
    expect(body).toEqual({ message: MESSAGE });
  });

  it('a oneOf branch the schema refuses is passed over for the next one', () => {
    // The first branch's message must match a pattern the mock cannot meet: its body ('' for the message) is
    // refused, and the second branch, a bare integer code, is what the document accepts.
    const schema = {
      oneOf: [
        { type: 'object', required: ['message'], properties: { message: { type: 'string', pattern: '^E[0-9]+$' } } },
        { type: 'object', required: ['code'], properties: { code: { type: 'integer' } } },
      ],
    };
    const { shapes, body } = shaped(schema, 404, 'not_found');
    expect(shapes).toHaveLength(2);
    expect(body).toEqual({ code: 404 });
  });

  it('a shared and recursive schema ($ref by object): every use filled, the recursion stopped', () => {
    // What the loader hands on: every $ref replaced by the object it names, so Error contains itself.
    const pointer: Record<string, unknown> = {
      type: 'object',
      required: ['at'],
      properties: { at: { type: 'string', format: 'json-pointer' } },
    };
    const error: Record<string, unknown> = { type: 'object', required: ['message', 'from', 'to', 'causes'] };
    error.properties = {
      message: { type: 'string' },
      from: pointer,
      to: pointer,
      causes: { type: 'array', items: error },
      cause: error,
    };
    const { body } = shaped(error, 409, 'store_full', false, {
      $defs: {
        pointer: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'json-pointer' } } },
        error: {
          type: 'object',
          required: ['message', 'from', 'to', 'causes'],
          properties: {
            message: { type: 'string' },
            from: { $ref: '#/$defs/pointer' },
            to: { $ref: '#/$defs/pointer' },
            causes: { type: 'array', items: { $ref: '#/$defs/error' } },
            cause: { $ref: '#/$defs/error' },
          },
        },
      },
      $ref: '#/$defs/error',
    });
    expect(body).toEqual({ message: MESSAGE, from: { at: '' }, to: { at: '' }, causes: [] });
  });

  it('a required member that needs itself is cut at the cycle, never followed for ever', () => {
    const node: Record<string, unknown> = { type: 'object', required: ['next'] };
    node.properties = { next: node };
    expect(minimalValue(node)).toEqual({ next: null });
  });

  describe('application/problem+json (RFC 9457)', () => {
    it('the members RFC 9457 defines, then the declared ones, required extras filled', () => {
      const problem = {
        type: 'object',
        required: ['type', 'title', 'status', 'detail', 'traceId', 'errors'],
        properties: {
          type: { type: 'string', format: 'uri-reference' },
          title: { type: 'string' },
          status: { type: 'integer', minimum: 400, maximum: 499 },
          detail: { type: 'string' },
          instance: { type: 'string', format: 'uri-reference' },
          traceId: { type: 'string', format: 'uuid' },
          errors: { type: 'array', items: { type: 'object' } },
        },
      };
      expect(JSON.stringify(shaped(problem, 404, 'not_found', true).body)).toBe(
        JSON.stringify({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: MESSAGE,
          traceId: '00000000-0000-0000-0000-000000000000',
          errors: [],
        }),
      );
    });

    it('without a schema, or with one that declares no member: type, title, status and detail', () => {
      const want = { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: MESSAGE };
      expect(shaped(undefined, 405, 'method_not_allowed', true).body).toEqual(want);
      expect(JSON.stringify(shaped({ type: 'object' }, 405, 'method_not_allowed', true).body)).toBe(
        JSON.stringify(want),
      );
    });

    it('a closed problem schema keeps only its own members', () => {
      const closed = {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'status'],
        properties: { title: { type: 'string' }, status: { type: 'integer' } },
      };
      expect(shaped(closed, 500, 'forced', true).body).toEqual({ title: 'Internal Server Error', status: 500 });
    });
  });

  it.each([
    ['no schema', undefined],
    ['an empty schema', {}],
    ['an object that names no member', { type: 'object' }],
    ['an array', { type: 'array', items: { type: 'object', properties: { message: { type: 'string' } } } }],
  ])('%s gives no shape: the mock’s own Error shape stays', (_, schema) => {
    expect(errorShapes(schema, 404, false)).toEqual([] satisfies ErrorShape[]);
  });
});
