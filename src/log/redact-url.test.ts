import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it.each([
    ['a plain path', '/v1/pets', [], '/v1/pets'],
    ['ordinary query values', '/v1/pets?limit=2&status=sold', [], '/v1/pets?limit=2&status=sold'],
    ['api_key', '/v1/pets?api_key=abc&limit=2', [], '/v1/pets?api_key=***&limit=2'],
    ['key, token, access_token, secret, password', '/v1/pets?key=a&token=b&access_token=c&client_secret=d&password=e', [], '/v1/pets?key=***&token=***&access_token=***&client_secret=***&password=***'],
    ['auth and sig', '/v1/pets?auth=a&sig=b&signature=c&session_id=d', [], '/v1/pets?auth=***&sig=***&signature=***&session_id=***'],
    ['a percent-encoded name', '/v1/pets?api%5Fkey=abc', [], '/v1/pets?api%5Fkey=***'],
    ['a configured key anywhere', '/v1/pets/s3cret-key?x=s3cret-key', ['s3cret-key'], '/v1/pets/***?x=***'],
    ['a name without a value', '/v1/pets?token', [], '/v1/pets?token'],
    ['a malformed escape in a name', '/v1/pets?%zz=1', [], '/v1/pets?%zz=1'],
    ['a percent-encoded key in the path', '/v1/pets/s3cr%65t-key', ['s3cret-key'], '/v1/pets/***'],
    ['a percent-encoded key in a value', '/v1/pets?x=s3cr%65t-key&limit=2', ['s3cret-key'], '/v1/pets?x=***&limit=2'],
  ])('%s', (_, url, keys, want) => {
    expect(redactUrl(url, keys)).toBe(want);
  });
});
