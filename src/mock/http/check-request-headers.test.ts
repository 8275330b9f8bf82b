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
    ['two Authorization fields', ['Host', 'x', 'Authorization', 'Bearer good', 'authorization', 'Bearer bad'], 'Authorization'],
    ['two Content-Type fields', ['Host', 'x', 'Content-Type', 'application/json', 'Content-Type', 'text/plain'], 'Content-Type'],
    ['two Proxy-Authorization fields', ['Host', 'x', 'Proxy-Authorization', 'a', 'Proxy-Authorization', 'b'], 'Proxy-Authorization'],
    ['two Host fields', ['Host', 'x', 'HOST', 'y'], 'Host'],
    ['HTTP/1.1 without Host', ['Accept', '*/*'], 'must have a Host header'],
  ])('refuses %s with 400 bad_request naming it', (_, raw, mention) => {
    const error = failure(raw);
    expect(error).toMatchObject({ status: 400, code: 'bad_request', headers: { Connection: 'close' } });
    expect(error!.message).toContain(mention);
  });

  it('lets a single field of each, repeated list fields, and HTTP/1.0 without Host through', () => {
    expect(failure(['Host', 'x', 'Authorization', 'Bearer k', 'Accept', 'a', 'Accept', 'b', 'Content-Type', 'application/json'])).toBeUndefined();
    expect(failure(['Accept', '*/*'], '1.0')).toBeUndefined();
  });
});
