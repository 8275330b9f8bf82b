import { describe, expect, it } from 'vitest';
import { createAuthenticator } from './authenticate.js';
import { ApiError } from '../errors.js';

const authenticate = createAuthenticator(['key-one', 'key-two']);

function failure(header: string | undefined): ApiError {
  try {
    authenticate(header);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error(`accepted ${header}`);
}

describe('authenticate', () => {
  it.each(['Bearer key-one', 'Bearer key-two', 'bearer key-one', 'BEARER key-two', 'Bearer  key-one '])('accepts %j', (header) => {
    expect(() => authenticate(header)).not.toThrow();
  });

  it.each([
    ['no header', undefined, 'is missing', 'Bearer realm="petstore"'],
    ['an empty header', '', 'is missing', 'Bearer realm="petstore"'],
    ['Basic', 'Basic a2V5LW9uZQ==', 'must use the Bearer scheme', 'Bearer realm="petstore", error="invalid_request"'],
    ['a token without scheme', 'key-one', 'must use the Bearer scheme', 'Bearer realm="petstore", error="invalid_request"'],
    ['an empty token', 'Bearer ', 'no API key', 'Bearer realm="petstore", error="invalid_request"'],
    ['an illegal token', 'Bearer key one', 'does not allow', 'Bearer realm="petstore", error="invalid_request"'],
    ['an unknown key', 'Bearer key-three', 'is not valid', 'Bearer realm="petstore", error="invalid_token"'],
    ['a prefix of a key', 'Bearer key-on', 'is not valid', 'Bearer realm="petstore", error="invalid_token"'],
  ])('rejects %s with 401 and a challenge', (_, header, message, challenge) => {
    const error = failure(header);
    expect(error.toBody()).toEqual({ code: 'unauthorized', message: expect.stringContaining(message), status: 401 });
    expect(error.headers['WWW-Authenticate']).toBe(challenge);
  });

  it('never repeats the key it was sent', () => {
    expect(failure('Bearer secret-guess').message).not.toContain('secret-guess');
    expect(failure('Basic secret-guess').message).not.toContain('secret-guess');
  });
});
