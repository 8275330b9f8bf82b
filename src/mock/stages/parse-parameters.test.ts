import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type Spec } from '../../openapi/load-spec.js';
import { parseParameters } from './parse-parameters.js';
import { failure } from '../../../test/support/refusal.js';

let spec: Spec;
beforeAll(async () => {
  spec = await loadSpec();
});

function listQuery(search: string) {
  return parseParameters(spec.operationById.get('listPets')!, {
    query: new URLSearchParams(search),
    path: {},
    headers: {},
  }).query;
}

describe('parseParameters: listPets', () => {
  it.each([
    ['', { limit: 20 }],
    ['limit=1', { limit: 1 }],
    ['limit=100', { limit: 100 }],
    ['status=sold', { limit: 20, status: 'sold' }],
    ['limit=5&status=pending&other=ignored', { limit: 5, status: 'pending' }],
  ])('accepts %j', (search, want) => {
    expect(listQuery(search)).toEqual(want);
  });

  it.each([
    ['limit=0', 'query.limit must be >= 1'],
    ['limit=101', 'query.limit must be <= 100'],
    ['limit=-1', 'query.limit must be >= 1'],
    ['limit=abc', 'query.limit must be an integer (got "abc")'],
    ['limit=1.5', 'query.limit must be an integer (got "1.5")'],
    ['limit=', 'query.limit must be an integer (got "")'],
    ['limit=%205', 'query.limit must be an integer (got " 5")'],
    ['limit=0x10', 'query.limit must be an integer (got "0x10")'],
    ['limit=1e2', 'query.limit must be an integer (got "1e2")'],
    ['limit=%2B7', 'query.limit must be an integer (got "+7")'],
    ['limit=007', 'query.limit must be an integer (got "007")'],
    ['limit=99999999999999999999999', 'query.limit must be <= 100'],
    ['limit=5&limit=6', 'query.limit must be given once (got 2 values)'],
    ['status=lost', 'query.status must be one of "available", "pending", "sold"'],
    ['status=', 'query.status must be one of'],
    ['status=Available', 'query.status must be one of'],
  ])('rejects %j with 400 naming the parameter and rule', (search, message) => {
    const error = failure(() => listQuery(search));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_parameter');
    expect(error.message).toContain(message);
  });

  it('cuts a long value short in the message', () => {
    expect(failure(() => listQuery(`limit=${'x'.repeat(10_000)}`)).message.length).toBeLessThan(120);
  });
});

describe('parseParameters: getPet', () => {
  const getPet = (petId: string) =>
    parseParameters(spec.operationById.get('getPet')!, { query: new URLSearchParams(), path: { petId }, headers: {} });

  it('converts the id', () => {
    expect(getPet('42').path).toEqual({ petId: 42 });
  });

  it('keeps an int64 path id beyond 2^53 - 1 exactly, as a bigint (the store then finds no pet: 404)', () => {
    expect(getPet('9007199254740993').path).toEqual({ petId: 9007199254740993n });
    expect(getPet('-9223372036854775808').path).toEqual({ petId: -9223372036854775808n });
  });

  it.each(['abc', '1.5', '', '9223372036854775808', '01', '+1'])(
    'answers 404 for a path id %j that names no pet',
    (petId) => {
      const error = failure(() => getPet(petId));
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
      expect(error.message).toContain('path.petId');
    },
  );
});
