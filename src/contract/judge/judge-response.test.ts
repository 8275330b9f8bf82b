import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../openapi/load-spec.js';
import { judgeResponse } from './judge-response.js';
import { exchangeFor as exchange } from '../../../test/support/contract-unit.js';

const spec = await loadSpec();

describe('judgeResponse', () => {
  it.each([
    ['a conforming list', exchange('listPets', 200, [{ id: 1, name: 'a', categoryId: 1 }]), []],
    ['an Error 401', exchange('listPets', 401, { code: 'x', message: 'y', status: 401 }, { validKey: false }), []],
    ['a string id', exchange('getPet', 200, { id: '1', name: 'a', categoryId: 1 }), ['schema.response']],
    [
      'an undocumented 200 on createPet',
      exchange('createPet', 200, { id: 1, name: 'a', categoryId: 1 }),
      ['status.documented'],
    ],
    ['text/plain', exchange('listPets', 200, [], { contentType: 'text/plain' }), ['content-type.json']],
    // Interface §1 and §7 name application/json; parameters are allowed (RFC 9110 §8.3.1), another type is not.
    [
      'application/json; charset=utf-8',
      exchange('listPets', 200, [], { contentType: 'application/json; charset=utf-8' }),
      [],
    ],
    [
      'Application/JSON;charset="UTF-8"',
      exchange('listPets', 200, [], { contentType: 'Application/JSON;charset="UTF-8"' }),
      [],
    ],
    [
      'a list as application/vnd.petstore+json',
      exchange('listPets', 200, [], { contentType: 'application/vnd.petstore+json' }),
      ['content-type.json'],
    ],
    [
      'an Error 401 as application/problem+json',
      exchange(
        'listPets',
        401,
        { code: 'x', message: 'y', status: 401 },
        { validKey: false, contentType: 'application/problem+json' },
      ),
      ['content-type.json'],
    ],
    [
      'an undocumented Error 414 as application/problem+json',
      exchange(
        'getPet',
        414,
        { code: 'x', message: 'y', status: 414 },
        { validKey: false, contentType: 'application/problem+json' },
      ),
      ['content-type.json'],
    ],
    [
      'an undocumented Error 414 as application/json',
      exchange('getPet', 414, { code: 'x', message: 'y', status: 414 }, { validKey: false }),
      [],
    ],
    [
      'an Error whose status differs',
      exchange('getPet', 404, { code: 'x', message: 'y', status: 400 }),
      ['error.shape'],
    ],
    ['a 500 Error', exchange('listPets', 500, { code: 'x', message: 'y', status: 500 }), ['server.no-5xx']],
    [
      'an HTML 500',
      exchange('listPets', 500, undefined, { contentType: 'text/html', text: '<h1>oops</h1>' }),
      ['server.no-5xx', 'content-type.json'],
    ],
    ['the valid key refused', exchange('getPet', 401, { code: 'x', message: 'y', status: 401 }), ['auth.valid-key']],
    ['no answer', exchange('listPets', undefined, undefined, { error: 'no answer within 10 ms' }), ['server.responds']],
    [
      'a body over the cap',
      exchange('listPets', 200, undefined, { problems: { tooLarge: true } }),
      ['response.bounded'],
    ],
    [
      'JSON nested too deep',
      exchange('listPets', 200, undefined, { problems: { tooDeep: true } }),
      ['response.bounded'],
    ],
    [
      'a gzip body that does not decompress',
      exchange('listPets', 200, undefined, { problems: { encoding: 'the gzip body does not decompress' } }),
      ['response.bounded'],
    ],
    [
      'invalid UTF-8 in JSON',
      exchange('listPets', 200, undefined, { problems: { invalidUtf8: true } }),
      ['content-type.json'],
    ],
  ])('judges %s', (_, given, want) => {
    const judgement = judgeResponse(spec, given);
    expect(judgement.failures.map((f) => f.check)).toEqual(want);
    expect(judgement.usable).toBe(want.length === 0);
  });

  it('gives a schema failure the body path and AJV schema path', () => {
    const [failure] = judgeResponse(spec, exchange('listPets', 200, [{ id: 1, name: 'a', categoryId: 'x' }])).failures;
    expect(failure).toMatchObject({
      check: 'schema.response',
      operation: 'listPets',
      status: 200,
      request: 'curl http://h/v1/pets',
      actual: 'response[0].categoryId must be an integer',
      schemaErrors: [
        {
          path: 'response[0].categoryId',
          rule: 'type',
          schemaPath: '#/components/schemas/NewPet/properties/categoryId/type',
        },
      ],
    });
  });
});
