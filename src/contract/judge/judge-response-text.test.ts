import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../openapi/load-spec.js';
import { judgeResponse } from './judge-response.js';
import { exchangeFor } from '../../../test/support/contract-unit.js';
import type { CheckId } from '../base/check-ids.js';

// What a failure says (expected, actual), which checks looked at an answer and whether later checks may use it:
// reports and CI read these words, so each is asserted as written.
const spec = await loadSpec();

/** The checks every answer gets, and the body check its status calls for. */
const BASE: CheckId[] = ['server.responds', 'response.bounded', 'server.no-5xx', 'content-type.json'];
const ERROR_CHECKS: CheckId[] = [...BASE, 'error.shape', 'auth.valid-key'];
const OK_CHECKS: CheckId[] = [...BASE, 'schema.response', 'status.documented', 'auth.valid-key'];
const BOUNDED_OK: CheckId[] = [...BASE, 'schema.response'];
const GET_OK: CheckId[] = [...BASE, 'schema.response', 'status.documented', 'get.returns-requested', 'auth.valid-key'];

const pet = (id: number | bigint) => ({ id, name: 'a', categoryId: 1 });
const error = (status: number) => ({ code: 'x', message: 'y', status });
const asked = (petId: string) => ({ pathValues: { petId } });

describe('judgeResponse: the words of each failure', () => {
  it.each([
    [
      'no answer, with why',
      exchangeFor('listPets', undefined, undefined, { error: 'connection refused (ECONNREFUSED)' }),
      undefined,
      ['server.responds'],
      [['server.responds', 'an HTTP answer within the timeout', 'connection refused (ECONNREFUSED)']],
    ],
    [
      'no answer, nothing said',
      exchangeFor('listPets', undefined, undefined),
      undefined,
      ['server.responds'],
      [['server.responds', 'an HTTP answer within the timeout', 'no answer']],
    ],
    [
      'a body over the cap (and too deep: the cap is said)',
      exchangeFor('listPets', 200, undefined, { problems: { tooLarge: true, tooDeep: true } }),
      1000,
      BOUNDED_OK,
      [
        [
          'response.bounded',
          'a body of at most 1000 bytes after decompression, nested at most 64 deep',
          'a body longer than 1000 bytes (reading stopped there; raise --max-body if this is expected)',
        ],
      ],
    ],
    [
      'JSON too deep',
      exchangeFor('listPets', 200, undefined, { problems: { tooDeep: true } }),
      1000,
      BOUNDED_OK,
      [
        [
          'response.bounded',
          'a body of at most 1000 bytes after decompression, nested at most 64 deep',
          'JSON nested deeper than 64 levels (not parsed)',
        ],
      ],
    ],
    [
      // The depth of bytes that did not decode means nothing: the decoding is what is said (judge-answer-basics.ts).
      'a body that did not decode, read as too deep',
      exchangeFor('listPets', 200, undefined, { problems: { tooDeep: true, encoding: 'x' } }),
      1000,
      BOUNDED_OK,
      [['response.bounded', 'a body of at most 1000 bytes after decompression, nested at most 64 deep', 'x']],
    ],
    [
      'a body that does not decompress, no cap given',
      exchangeFor('createPet', 400, undefined, { problems: { encoding: 'the gzip body does not decompress' } }),
      undefined,
      [...BASE, 'error.shape'],
      [
        [
          'response.bounded',
          'a body of at most Infinity bytes after decompression, nested at most 64 deep',
          'the gzip body does not decompress',
        ],
      ],
    ],
    [
      'invalid UTF-8 under a JSON type in capitals',
      exchangeFor('listPets', 200, undefined, { problems: { invalidUtf8: true }, contentType: 'Application/JSON' }),
      undefined,
      BOUNDED_OK,
      [
        [
          'content-type.json',
          'Content-Type application/json and a JSON body',
          'the body is not valid UTF-8 (RFC 8259 §8.1 requires UTF-8)',
        ],
      ],
    ],
    [
      'invalid UTF-8 as text/plain (the type is what is wrong)',
      exchangeFor('listPets', 200, undefined, { problems: { invalidUtf8: true }, contentType: 'text/plain' }),
      undefined,
      OK_CHECKS,
      [
        [
          'content-type.json',
          'Content-Type application/json and a JSON body',
          'Content-Type must be application/json (got text/plain)',
        ],
      ],
    ],
    [
      'invalid UTF-8 without a Content-Type',
      exchangeFor('listPets', 200, undefined, { problems: { invalidUtf8: true }, contentType: null }),
      undefined,
      OK_CHECKS,
      [
        [
          'content-type.json',
          'Content-Type application/json and a JSON body',
          'Content-Type must be application/json (got none)',
        ],
      ],
    ],
    ['a documented 400', exchangeFor('createPet', 400, error(400)), undefined, ERROR_CHECKS, []],
    ['a documented 201', exchangeFor('createPet', 201, pet(1)), undefined, OK_CHECKS, []],
    [
      'an Error 401 to a request without the key',
      exchangeFor('listPets', 401, error(401), { validKey: false }),
      undefined,
      [...BASE, 'error.shape'],
      [],
    ],
    [
      'an undocumented 200',
      exchangeFor('createPet', 200, pet(1)),
      undefined,
      OK_CHECKS,
      [['status.documented', 'a status documented for createPet', 'status 200 is not documented for createPet']],
    ],
    [
      'a 500',
      exchangeFor('listPets', 500, error(500)),
      undefined,
      ERROR_CHECKS,
      [
        [
          'server.no-5xx',
          'no 5xx for any request the suite sends',
          '500 application/json {"code":"x","message":"y","status":500}',
        ],
      ],
    ],
    [
      'an Error with another status',
      exchangeFor('getPet', 404, error(400)),
      undefined,
      ERROR_CHECKS,
      [
        [
          'error.shape',
          'an Error {code, message, status} with status 404',
          'response.status must equal the HTTP status 404 (got 400)',
        ],
      ],
    ],
    [
      'a list as text/plain',
      exchangeFor('listPets', 200, [], { contentType: 'text/plain' }),
      undefined,
      OK_CHECKS,
      [
        [
          'content-type.json',
          'Content-Type application/json and a JSON body',
          'Content-Type must be application/json (got text/plain)',
        ],
      ],
    ],
    [
      'a string id',
      exchangeFor('getPet', 200, { ...pet(1), id: '8' }, asked('7')),
      undefined,
      OK_CHECKS,
      [['schema.response', 'a body matching the schema of getPet 200', 'response.id must be an integer']],
    ],
    ['getPet answering the pet asked for', exchangeFor('getPet', 200, pet(7), asked('7')), undefined, GET_OK, []],
    [
      'getPet answering another pet',
      exchangeFor('getPet', 200, pet(8), asked('7')),
      undefined,
      GET_OK,
      [['get.returns-requested', 'the pet with id 7 (§4.3: 200 is the requested animal)', 'the pet with id 8']],
    ],
    [
      'getPet answering another pet, ids beyond 2^53',
      exchangeFor('getPet', 200, pet(9223372036854775807n), asked('9223372036854775806')),
      undefined,
      GET_OK,
      [
        [
          'get.returns-requested',
          'the pet with id 9223372036854775806 (§4.3: 200 is the requested animal)',
          'the pet with id 9223372036854775807',
        ],
      ],
    ],
    [
      'getPet answering another pet for a negative id',
      exchangeFor('getPet', 200, pet(2), asked('-1')),
      undefined,
      GET_OK,
      [['get.returns-requested', 'the pet with id -1 (§4.3: 200 is the requested animal)', 'the pet with id 2']],
    ],
    [
      'getPet answering another pet for a two-digit id',
      exchangeFor('getPet', 200, pet(13), asked('12')),
      undefined,
      GET_OK,
      [['get.returns-requested', 'the pet with id 12 (§4.3: 200 is the requested animal)', 'the pet with id 13']],
    ],
    // An id that is not an integer cannot name a pet: what came is not compared with it.
    ['getPet for a non-integer id', exchangeFor('getPet', 200, pet(7), asked('x7')), undefined, GET_OK, []],
    ['getPet for an id with a suffix', exchangeFor('getPet', 200, pet(7), asked('7x')), undefined, GET_OK, []],
    ['getPet with no path values', exchangeFor('getPet', 200, pet(7)), undefined, OK_CHECKS, []],
    ['listPets with a petId', exchangeFor('listPets', 200, [pet(8)], asked('7')), undefined, OK_CHECKS, []],
    [
      'the valid key refused with 403',
      exchangeFor('listPets', 403, error(403)),
      undefined,
      ERROR_CHECKS,
      [
        [
          'auth.valid-key',
          'the valid key to be accepted',
          '403 application/json {"code":"x","message":"y","status":403}',
        ],
      ],
    ],
  ])('judges %s', (_, exchange, maxBody, evaluated, failures) => {
    const judgement = judgeResponse(spec, exchange, maxBody);
    expect(judgement.evaluated).toEqual(evaluated);
    expect(judgement.failures.map(({ check, expected, actual }) => [check, expected, actual])).toEqual(failures);
    expect(judgement.usable).toBe(failures.length === 0);
  });

  it('reports a failure with the request, the answer and no status when none came', () => {
    const judged = judgeResponse(
      spec,
      exchangeFor('listPets', undefined, undefined, { error: 'no answer within 5 ms' }),
    );
    expect(judged.failures).toEqual([
      {
        check: 'server.responds',
        operation: 'listPets',
        expected: 'an HTTP answer within the timeout',
        actual: 'no answer within 5 ms',
        request: 'curl http://h/v1/pets',
        response: { contentType: 'application/json', body: '', error: 'no answer within 5 ms' },
      },
    ]);
  });

  it('reports an answer with its status and excerpt, and no error or schema errors when there are none', () => {
    const judged = judgeResponse(spec, exchangeFor('createPet', 200, pet(1), { excerpt: '{"id":1,…' }));
    expect(judged.failures).toEqual([
      {
        check: 'status.documented',
        operation: 'createPet',
        expected: 'a status documented for createPet',
        actual: 'status 200 is not documented for createPet',
        request: 'curl http://h/v1/pets',
        status: 200,
        response: { status: 200, contentType: 'application/json', body: '{"id":1,…' },
      },
    ]);
  });

  it('lists at most five schema errors, each with its path, rule, message and schema path', () => {
    const body = Array.from({ length: 7 }, (_, i) => ({ ...pet(i), categoryId: 'x' }));
    const [failure] = judgeResponse(spec, exchangeFor('listPets', 200, body)).failures;
    expect(failure?.actual).toBe(
      'response[0].categoryId must be an integer; response[1].categoryId must be an integer; response[2].categoryId must be an integer; and 4 more',
    );
    expect(failure?.schemaErrors).toEqual(
      [0, 1, 2, 3, 4].map((i) => ({
        path: `response[${i}].categoryId`,
        rule: 'type',
        message: `response[${i}].categoryId must be an integer`,
        schemaPath: '#/components/schemas/NewPet/properties/categoryId/type',
      })),
    );
  });

  it('gives an Error shape failure its schema errors, and a media type failure none', () => {
    const [shape] = judgeResponse(spec, exchangeFor('getPet', 404, { code: 'x', status: 404 })).failures;
    expect(shape?.schemaErrors).toEqual([
      {
        path: 'response.message',
        rule: 'required',
        message: 'response.message is required',
        schemaPath: '#/components/schemas/Error/required',
      },
    ]);
    const [type] = judgeResponse(spec, exchangeFor('listPets', 200, [], { contentType: 'text/plain' })).failures;
    expect(type).not.toHaveProperty('schemaErrors');
    // A wrong status in the body is no schema error: it has no schema path, so no details are listed.
    const [status] = judgeResponse(spec, exchangeFor('getPet', 404, error(400))).failures;
    expect(status).not.toHaveProperty('schemaErrors');
  });
});
