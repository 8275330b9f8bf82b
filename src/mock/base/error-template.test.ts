import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from '../../openapi/ajv.js';
import { listOperations, type Operation } from '../../openapi/operations.js';
import { ApiError, apiError } from '../../errors.js';
import { errorTemplate } from './error-template.js';
import { errorReply } from './reply.js';

const ourError = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};
const integerCode = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'integer' }, message: { type: 'string' } },
};
const json = (schema: object) => ({ description: 'x', content: { 'application/json': { schema } } });

/** One operation of a one-path document with these responses, validators compiled as the mock compiles them. */
function operationWith(responses: Record<string, unknown>): Operation {
  const ajv = createAjv();
  const document = {
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: { '/things/{id}': { get: { operationId: 'getThing', responses } } },
  } as unknown as OpenAPIV3.Document;
  return listOperations(document, (schema) => ajv.compile(schema))[0]!;
}

const notFound = () => apiError('not_found', 'no thing has id 9');

describe('errorTemplate: what an operation declares for a status, as an error answer', () => {
  it('exact code, then range, then default (OAS 3.0.3 §4.7.16)', () => {
    const operation = operationWith({
      '200': json({ type: 'object' }),
      '404': json({ type: 'string' }),
      '4XX': json(integerCode),
      default: json({ type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } }),
    });
    const answer = (status: number) =>
      errorTemplate(operation, status)!.reply(new ApiError('forced', status, 'm'), 'm').body;
    expect(answer(404)).toBe('m');
    expect(answer(409)).toEqual({ code: 409, message: 'm' });
    expect(answer(503)).toEqual({ detail: 'm' });
  });

  it('decides once per operation and status, and keeps the decision', () => {
    const operation = operationWith({ default: json(integerCode) });
    expect(errorTemplate(operation, 404)).toBe(errorTemplate(operation, 404));
    expect(errorTemplate(operation, 404)).not.toBe(errorTemplate(operation, 400));
  });

  it.each([
    ['nothing declared for the status', { '200': json({ type: 'object' }) }],
    ['a response without content: it describes no payload and forbids none', { '404': { description: 'x' } }],
    ['the interface’s own Error schema: our shape, by the one path (v1’s bytes)', { '404': json(ourError) }],
    ['a schema that names no member', { '404': json({ type: 'object' }) }],
    [
      'XML only: the mock writes no XML',
      { '404': { description: 'x', content: { 'application/xml': { schema: integerCode } } } },
    ],
    ['any media type (*/*)', { '404': { description: 'x', content: { '*/*': { schema: integerCode } } } }],
    [
      'a schema no shape of which its validator accepts',
      {
        '404': json({
          type: 'object',
          required: ['ref'],
          properties: { ref: { type: 'string', pattern: '^R-[0-9]{4}$' } },
        }),
      },
    ],
  ])('%s: no template, our Error shape stays', (_, responses) => {
    const operation = operationWith(responses);
    expect(errorTemplate(operation, 404)).toBeUndefined();
    const reply = errorReply(notFound(), () => undefined, undefined, operation);
    expect(reply).toEqual({
      status: 404,
      headers: {},
      body: { code: 'not_found', message: 'no thing has id 9', status: 404 },
    });
  });

  it('application/problem+json: written out with its own Content-Type, the failure’s headers kept', () => {
    const operation = operationWith({ '4XX': { description: 'x', content: { 'application/problem+json': {} } } });
    const reply = errorReply(
      apiError('unauthorized', 'the key is unknown', { 'WWW-Authenticate': 'Bearer realm="petstore"' }),
      () => undefined,
      undefined,
      operation,
    );
    expect(reply).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="petstore"', 'Content-Type': 'application/problem+json' },
      bytes: '{"type":"about:blank","title":"Unauthorized","status":401,"detail":"the key is unknown"}',
    });
  });

  it('text/plain: the message as UTF-8 text', () => {
    const operation = operationWith({
      '404': { description: 'x', content: { 'text/plain': { schema: { type: 'string' } } } },
    });
    expect(errorReply(notFound(), () => undefined, undefined, operation)).toEqual({
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      bytes: 'no thing has id 9',
    });
  });

  it('the message is redacted before it is placed, whatever the shape', () => {
    const operation = operationWith({ default: json(integerCode) });
    const reply = errorReply(
      apiError('not_found', 'no thing has id secret-key'),
      () => undefined,
      (text) => text.replace('secret-key', '***'),
      operation,
    );
    expect(reply.body).toEqual({ code: 404, message: 'no thing has id ***' });
  });

  it('checks each shape with the operation’s own validator: what it answers, the document accepts', () => {
    const schema = {
      type: 'object',
      required: ['code', 'message', 'at'],
      properties: {
        code: { type: 'integer', minimum: 400 },
        message: { type: 'string', maxLength: 12 },
        at: { type: 'string', format: 'date-time' },
      },
    };
    const operation = operationWith({ default: json(schema) });
    const validate = operation.responses.get('DEFAULT')!.validate!;
    for (const status of [400, 401, 404, 405, 406, 409, 413, 415, 429, 500, 501, 502, 503, 504]) {
      const message = 'a message longer than twelve characters';
      const body = errorTemplate(operation, status)!.reply(new ApiError('forced', status, message), message).body;
      expect(validate(body), JSON.stringify(body)).toBe(true);
      expect(body).toEqual({ code: status, message: message.slice(0, 12), at: '1970-01-01T00:00:00Z' });
    }
  });
});
