import { describe, expect, it } from 'vitest';
import { redactHeader } from './redact-header.js';

const KEY = 'ab/cd=efgh-1=';

describe('redactHeader', () => {
  it.each([
    ['a bearer key keeps its scheme', 'authorization', `Bearer ${KEY}`, 'Bearer [redacted]'],
    ['the scheme in any case, written as registered', 'authorization', `bEaReR ${KEY}`, 'Bearer [redacted]'],
    ['a key as the first word is not a scheme', 'authorization', `${KEY} please`, '[redacted]'],
    ['an unknown first word is not kept', 'authorization', 's3cretkey please', '[redacted]'],
    ['a key alone', 'authorization', KEY, '[redacted]'],
    ['a scheme alone', 'authorization', 'Bearer', 'Bearer'],
    ['Basic credentials', 'proxy-authorization', 'Basic dXNlcjpwYXNz', 'Basic [redacted]'],
    ['Proxy-Authorization with a key first', 'proxy-authorization', `${KEY} x`, '[redacted]'],
    ['a cookie, whole', 'cookie', `session=${KEY}; theme=dark`, '[redacted]'],
    ['a header named like a key', 'x-api-key', 'anything', '[redacted]'],
    ['a header named like a token', 'x-auth-token', 'anything', '[redacted]'],
    ['a configured key elsewhere, written', 'referer', `http://app/?k=${KEY}`, 'http://app/?k=***'],
    [
      'a configured key elsewhere, percent-encoded',
      'referer',
      'http://app/?k=ab%2Fcd%3Defgh-1%3D',
      'http://app/?k=***',
    ],
    ['an ordinary header', 'accept', 'application/json', 'application/json'],
  ])('%s', (_, name, value, want) => {
    expect(redactHeader(name, value, [KEY])).toBe(want);
  });

  it('redacts each of a repeated header', () => {
    expect(redactHeader('authorization', [`Bearer ${KEY}`, `${KEY} x`], [KEY])).toEqual([
      'Bearer [redacted]',
      '[redacted]',
    ]);
  });
});
