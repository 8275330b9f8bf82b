import { describe, expect, it } from 'vitest';
import { createAuthenticator } from './authenticate.js';
import { ApiError } from '../../errors.js';

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
  it.each(['Bearer key-one', 'Bearer key-two', 'bearer key-one', 'BEARER key-two', 'Bearer  key-one '])(
    'accepts %j',
    (header) => {
      expect(() => authenticate(header)).not.toThrow();
    },
  );

  it.each([
    ['no header', undefined, 'is missing', 'Bearer realm="petstore"'],
    ['an empty header', '', 'is missing', 'Bearer realm="petstore"'],
    ['Basic', 'Basic a2V5LW9uZQ==', 'must use the Bearer scheme', 'Bearer realm="petstore", error="invalid_request"'],
    [
      'a token without scheme',
      'key-one',
      'must use the Bearer scheme',
      'Bearer realm="petstore", error="invalid_request"',
    ],
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

describe('authenticate, keys of different lengths', () => {
  const check = createAuthenticator(['short', 'a-much-longer-key-0123456789', 'ключ']);
  it.each(['Bearer short', 'Bearer a-much-longer-key-0123456789'])('accepts %j', (header) => {
    expect(() => check(header)).not.toThrow();
  });

  it.each([
    ['a key with a suffix', 'Bearer shortx'],
    ['a key cut short', 'Bearer shor'],
    ['a longer key cut to the short one', 'Bearer a-much'],
    ['a token longer than every key', `Bearer a-much-longer-key-0123456789${'x'.repeat(500)}`],
    ['the padding itself', 'Bearer short==='],
  ])('rejects %s', (_, header) => {
    expect(() => check(header)).toThrow(/not valid|does not allow/);
  });

  it('never accepts a non-ASCII key, which no bearer token can spell', () => {
    expect(() => check(`Bearer ${encodeURIComponent('ключ')}`)).toThrow(/not valid|does not allow/);
    expect(() => check(`Bearer ${Buffer.from('ключ').toString('latin1')}`)).toThrow(/not valid|does not allow/);
  });
});
