import { describe, expect, it } from 'vitest';
import { redactKeys, redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it.each([
    ['a plain path', '/v1/pets', [], '/v1/pets'],
    ['ordinary query values', '/v1/pets?limit=2&status=sold', [], '/v1/pets?limit=2&status=sold'],
    ['api_key', '/v1/pets?api_key=abc&limit=2', [], '/v1/pets?api_key=***&limit=2'],
    [
      'key, token, access_token, secret, password',
      '/v1/pets?key=a&token=b&access_token=c&client_secret=d&password=e',
      [],
      '/v1/pets?key=***&token=***&access_token=***&client_secret=***&password=***',
    ],
    [
      'auth and sig',
      '/v1/pets?auth=a&sig=b&signature=c&session_id=d',
      [],
      '/v1/pets?auth=***&sig=***&signature=***&session_id=***',
    ],
    ['a percent-encoded name', '/v1/pets?api%5Fkey=abc', [], '/v1/pets?api%5Fkey=***'],
    ['a configured key anywhere', '/v1/pets/s3cret-key?x=s3cret-key', ['s3cret-key'], '/v1/pets/***?x=***'],
    ['a name without a value', '/v1/pets?token', [], '/v1/pets?token'],
    ['a malformed escape in a name', '/v1/pets?%zz=1', [], '/v1/pets?%zz=1'],
    ['a percent-encoded key in the path', '/v1/pets/s3cr%65t-key', ['s3cret-key'], '/v1/pets/***'],
    ['a percent-encoded key in a value', '/v1/pets?x=s3cr%65t-key&limit=2', ['s3cret-key'], '/v1/pets?x=***&limit=2'],
    // A key with `/` or `=`, part of it percent-encoded, across the separators the old check split on.
    ['a key with / and =, partly encoded in the path', '/v1/pets/ab/cd%3Defgh-1%3D', ['ab/cd=efgh-1='], '/v1/pets/***'],
    [
      'a key with / and =, partly encoded in a query value',
      '/v1/pets?x=ab%2Fcd%3Defgh-1%3D&limit=1',
      ['ab/cd=efgh-1='],
      '/v1/pets?x=***&limit=1',
    ],
    ['a key across a query separator', '/v1/pets?ab/cd%3Defgh-1=', ['ab/cd=efgh-1='], '/v1/pets?***'],
    [
      'every character encoded',
      `/v1/pets/${[...'ab/cd=efgh-1='].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
      ['ab/cd=efgh-1='],
      '/v1/pets/***',
    ],
    ['a + in a key, encoded', '/v1/pets?x=a%2Bb-long-key', ['a+b-long-key'], '/v1/pets?x=***'],
  ])('%s', (_, url, keys, want) => {
    expect(redactUrl(url, keys)).toBe(want);
  });
});

describe('redactKeys', () => {
  it('redacts every occurrence, written or decoded, and leaves the rest', () => {
    expect(redactKeys('no operation at GET /v1/ab%2Fcd%3Defgh-1%3D/x and ab/cd=efgh-1= again', ['ab/cd=efgh-1='])).toBe(
      'no operation at GET /v1/***/x and *** again',
    );
    expect(redactKeys('100%25 sure, %zz', ['k-long-key'])).toBe('100%25 sure, %zz');
  });

  it('masks a key echoed JSON-escaped or base64-encoded (one redaction for every output)', () => {
    const key = 'upstream+key/7f3a2c';
    const b64 = Buffer.from(`Bearer ${key}`).toString('base64');
    const out = redactKeys(`{"echo":"upstream\\u002Bkey\\/7f3a2c","b64":"${b64}"}`, [key]);
    expect(out).toMatch(/^\{"echo":"\*\*\*","b64":"[A-Za-z0-9+/]*\*\*\*[A-Za-z0-9+/=]*"\}$/);
    expect(out).not.toContain(b64.slice(12, 24));
  });

  it('masks a short key only as written or percent-encoded, never in other case or encodings', () => {
    expect(redactKeys('/v1/pets?example=1&x=k1&y=k%31&z=K1', ['k1'])).toBe('/v1/pets?example=1&x=***&y=***&z=K1');
  });
});
