import { describe, expect, it } from 'vitest';
import { checkRequestHeaders } from './check-request-headers.js';
import type { ApiError } from '../../errors.js';

const failure = (raw: string[], version = '1.1') => {
  try {
    checkRequestHeaders(raw, version);
  } catch (error) {
    return error as ApiError;
  }
  return undefined;
};

describe('checkRequestHeaders', () => {
  it.each([
    [
      'two Authorization fields',
      ['Host', 'x', 'Authorization', 'Bearer good', 'authorization', 'Bearer bad'],
      'Authorization',
    ],
    [
      'two Content-Type fields',
      ['Host', 'x', 'Content-Type', 'application/json', 'Content-Type', 'text/plain'],
      'Content-Type',
    ],
    [
      'two Proxy-Authorization fields',
      ['Host', 'x', 'Proxy-Authorization', 'a', 'Proxy-Authorization', 'b'],
      'Proxy-Authorization',
    ],
    ['two Host fields', ['Host', 'x', 'HOST', 'y'], 'Host'],
    ['HTTP/1.1 without Host', ['Accept', '*/*'], 'must have a Host header'],
  ])('refuses %s with 400 bad_request naming it', (_, raw, mention) => {
    const error = failure(raw);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', headers: { Connection: 'close' } });
    expect(error!.message).toContain(mention);
  });

  it('lets a single field of each, repeated list fields, and HTTP/1.0 without Host through', () => {
    expect(
      failure([
        'Host',
        'x',
        'Authorization',
        'Bearer k',
        'Accept',
        'a',
        'Accept',
        'b',
        'Content-Type',
        'application/json',
      ]),
    ).toBeUndefined();
    expect(failure(['Accept', '*/*'], '1.0')).toBeUndefined();
  });

  it('counts every copy of a repeated field by its name in any case, never a value that looks like one', () => {
    const error = failure([
      'Host',
      'x',
      'authorization',
      'Bearer a',
      'AUTHORIZATION',
      'Bearer b',
      'Authorization',
      'Bearer c',
    ]);
    expect(error!.message).toBe('the request has 3 Authorization header fields; send exactly one (RFC 9110 §5.3)');
    // A value spelled like a field name, and names as long as one of the four, are neither counted nor refused.
    expect(
      failure(['Host', 'x', 'X-Note', 'Authorization', 'Authorization', 'Bearer k', 'X-Request-Id', 'host']),
    ).toBeUndefined();
  });
});
