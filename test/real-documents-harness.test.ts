import { describe, expect, it } from 'vitest';
import { buildRequest } from './support/real-documents/build-request.js';
import { locateAll, NO_CORPUS, readManifest } from './support/real-documents/corpus.js';
import { IndependentValidator } from './support/real-documents/independent-validator.js';
import { judgeAnswer } from './support/real-documents/judge-answer.js';
import { NotSendable } from './support/real-documents/not-sendable.js';
import { operationsOf, readDocument, type Document } from './support/real-documents/read-document.js';
import { NOT_SENDABLE } from './support/real-documents/expectations.js';
import { tryDocument } from './support/real-documents/try-document.js';
import { KnownItems } from './support/real-documents/known-items.js';
import { sameRequest } from './support/real-documents/same-request.js';
import { fileURLToPath } from 'node:url';

/**
 * The harness of real-documents.test.ts judged by itself, apart from the mock: its judge reads each dialect as
 * the specification does (planted answers, valid and not), and it can build a valid request for every operation of
 * the corpus's small documents but those named here, each for a reason in the document.
 */
const json = (body: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(body) });

function judgeOf(document: Document) {
  const validator = new IndependentValidator(document);
  return (answer: { status: number; contentType: string | null; text: string }) =>
    judgeAnswer(validator, { method: 'get', path: '/x' }, answer);
}

const petstore30 = (schema: Document, responses: Document = {}): Document => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/x': {
      get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } }, ...responses } },
    },
  },
  components: { schemas: { Ref: { type: 'integer' } } },
});

describe('the judge', () => {
  it.each([
    // OAS 3.0.3 §4.7.24: nullable adds null to the type; an enum without null still refuses it.
    ['3.0 nullable', { type: 'string', nullable: true }, null, []],
    [
      '3.0 nullable with an enum',
      { type: 'string', nullable: true, enum: ['a'] },
      null,
      ['/ must be equal to one of the allowed values'],
    ],
    // Boolean exclusive bounds modify minimum.
    ['3.0 exclusiveMinimum true', { type: 'integer', minimum: 1, exclusiveMinimum: true }, 1, ['/ must be > 1']],
    ['3.0 exclusiveMinimum false', { type: 'integer', minimum: 1, exclusiveMinimum: false }, 1, []],
    // OAS 3.0.3 §4.7.23: siblings of $ref are ignored.
    ['3.0 $ref siblings ignored', { $ref: '#/components/schemas/Ref', type: 'string' }, 5, []],
    [
      'a writeOnly required property absent from an answer',
      { type: 'object', required: ['p'], properties: { p: { type: 'string', writeOnly: true } } },
      {},
      [],
    ],
    [
      'a readOnly required property absent from an answer',
      { type: 'object', required: ['p'], properties: { p: { type: 'string', readOnly: true } } },
      {},
      ["/ must have required property 'p'"],
    ],
  ])('%s', (_, schema, body, problems) => {
    expect(judgeOf(petstore30(schema as Document))(json(body))).toEqual(problems.map((p) => `200 (as 200) body ${p}`));
  });

  it('reads 3.1 as JSON Schema 2020-12: type arrays, const, prefixItems, numeric exclusive bounds', () => {
    const schema = {
      type: 'array',
      prefixItems: [{ type: 'string' }, { const: 1 }],
      items: { type: ['integer', 'null'], exclusiveMinimum: 0 },
    };
    const judge = judgeOf({ ...petstore30(schema), openapi: '3.1.0' });
    expect(judge(json(['x', 1, null, 3]))).toEqual([]);
    expect(judge(json(['x', 2]))).toEqual(['200 (as 200) body /1 must be equal to constant']);
    expect(judge(json([1, 1]))).toEqual(['200 (as 200) body /0 must be string']);
    expect(judge(json(['x', 1, 0]))).toEqual(['200 (as 200) body /2 must be > 0']);
  });

  it('finds the status exactly, then by range, then as default (OAS 3.0.3 §4.7.16), and names an undeclared one', () => {
    const judge = judgeOf(
      petstore30(
        { type: 'object' },
        {
          '4XX': { description: 'range', content: { 'application/json': { schema: { type: 'string' } } } },
          404: { description: 'exact', content: { 'application/json': { schema: { type: 'integer' } } } },
        },
      ),
    );
    expect(judge({ ...json(1), status: 404 })).toEqual([]);
    expect(judge({ ...json('x'), status: 418 })).toEqual([]);
    expect(judge({ ...json(1), status: 418 })).toEqual(['418 (as 4XX) body / must be string']);
    expect(judge({ ...json({}), status: 500 })).toEqual(['status 500 not declared (declared: 200, 404, 4XX)']);
  });

  it('takes a declared media type or range, refuses another and a body where none is declared', () => {
    const document = petstore30({ type: 'object' }, { 204: { description: 'none' } });
    document.paths['/x'].get.responses[200].content['text/*'] = { schema: { type: 'string' } };
    const judge = judgeOf(document);
    expect(judge({ status: 200, contentType: 'text/plain; charset=utf-8', text: 'hi' })).toEqual([]);
    expect(judge({ status: 200, contentType: 'application/xml', text: '<x/>' })).toEqual([
      '200 (as 200) is application/xml, not application/json or text/*',
    ]);
    expect(judge({ status: 200, contentType: 'application/json', text: '{' })).toEqual([
      '200 (as 200) is application/json but its body is not JSON',
    ]);
    expect(judge({ status: 204, contentType: null, text: '' })).toEqual([]);
    expect(judge({ status: 204, contentType: 'application/json', text: '{}' })).toEqual([
      '204 (as 204) has a application/json body where the document declares none',
    ]);
  });

  it('compiles a recursive schema once, by reference', () => {
    const document = petstore30({ $ref: '#/components/schemas/Node' });
    document.components.schemas.Node = { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } };
    const judge = judgeOf(document);
    expect(judge(json({ next: { next: {} } }))).toEqual([]);
    expect(judge(json({ next: { next: 1 } }))).toEqual(['200 (as 200) body /next/next must be object']);
  });
});

const { present, absent } = locateAll(readManifest().filter((entry) => !entry.large && !entry.invalid));

describe.skipIf(present.length === 0)('requests for every operation', () => {
  it.each(present.map(({ entry, path }) => [entry.file, path] as const))(
    '%s',
    (file, location) => {
      const validator = new IndependentValidator(readDocument(location));
      const notSent: Record<string, string> = {};
      for (const { method, path } of operationsOf(validator.document)) {
        try {
          buildRequest(validator, { method, path }, 'key');
        } catch (error) {
          if (!(error instanceof NotSendable)) throw error;
          notSent[`${method.toUpperCase()} ${path}`] = error.message;
        }
      }
      const expected = Object.entries(NOT_SENDABLE[file] ?? {}).map(([op, reason]) => [
        op,
        expect.stringMatching(reason),
      ]);
      expect(notSent).toEqual(Object.fromEntries(expected));
      // A hang detector, not a measure: star-trek's 120 operations on a busy 2-core machine.
    },
    120_000,
  );
});

describe.skipIf(absent.length === 0)(NO_CORPUS, () => {
  it.skip.each(absent.map((entry) => [entry.file] as const))('%s', () => {});
});

describe('items the harness addresses', () => {
  const answer = (body: unknown) => ({
    status: 200,
    contentType: 'application/json; charset=utf-8',
    text: JSON.stringify(body),
  });

  it('are the ones the mock created or listed, by the parameter’s own name, else by id', () => {
    const known = new KnownItems();
    expect(known.addressFor('/agents/{agent_id}')).toBeUndefined();
    known.note('get', '/agents', answer([{ id: 'listed' }]));
    expect(known.addressFor('/agents/{agent_id}')).toEqual({ name: 'agent_id', value: 'listed' });
    known.note('post', '/agents', answer({ id: 'created', agent_id: 'own' }));
    expect(known.addressFor('/agents/{agent_id}')).toEqual({ name: 'agent_id', value: 'own' });
    // An error, a non-JSON answer, or an answer on an item path shows no item of a collection.
    known.note('post', '/users', { status: 400, contentType: 'application/json', text: '{"id":"x"}' });
    known.note('post', '/users/{username}', answer({ id: 'x' }));
    expect(known.addressFor('/users/{username}')).toBeUndefined();
    expect(known.addressFor('/agents/{agent_id}/runs/{run}')).toBeUndefined();
  });

  it('judges an operation kept apart by a fragment with those of the same request (RFC 3986 §3.5)', () => {
    const all = [
      { method: 'get', path: '/shared_items' },
      { method: 'get', path: '/shared_items#folders' },
      { method: 'put', path: '/shared_items#folders' },
      { method: 'get', path: '/shared_items/{id}' },
    ];
    expect(sameRequest(all, all[1]!)).toEqual([all[1], all[0]]);
    expect(sameRequest(all, all[0]!)).toEqual([all[0], all[1]]);
    expect(sameRequest(all, all[3]!)).toEqual([all[3]]);
  });

  it('reads the item it created; a made-up one that is not there is a named outcome, not an invalid answer', async () => {
    const file = fileURLToPath(new URL('./fixtures/documents/items-created-then-read.yaml', import.meta.url));
    const outcome = await tryDocument(file);
    expect(outcome.started).toBe(true);
    if (!outcome.started) return;
    expect(outcome.results).toEqual([
      { operation: 'POST /agents', status: 200, causes: [] },
      { operation: 'GET /agents/{agent_id}', status: 200, causes: [] },
      { operation: 'GET /users/{username}', status: 404, absent: true, causes: [] },
    ]);
  });
});
