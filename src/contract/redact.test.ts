import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';

const KEY = 'atk+key/99=Zq';
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('createRedactor', () => {
  it.each([
    ['as written', 'Authorization: Bearer k3y"\\x', 'Authorization: Bearer ***'],
    ['JSON-escaped', '{"message":"bad key k3y\\"\\\\x"}', '{"message":"bad key ***"}'],
    ['URL-encoded', '/pets?key=k3y%22%5Cx', '/pets?key=***'],
    ['repeated', 'k3y"\\x k3y"\\x', '*** ***'],
  ])('hides the key %s', (_, text, want) => {
    expect(createRedactor('k3y"\\x')(text)).toBe(want);
  });

  // Every way a hostile target was seen (or could be expected) to echo the key back.
  it.each([
    ['\\u escapes', 'atk\\u002Bkey\\/99\\u003dZq'],
    ['\\u escapes, lower case hex', 'atk\\u002bkey/99=Zq'],
    ['every character \\u-escaped', [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['JSON in JSON', 'atk\\\\u002Bkey\\\\/99=Zq'],
    ['\\/ only', 'atk+key\\/99=Zq'],
    ['percent-encoded, upper case', encodeURIComponent(KEY)],
    ['percent-encoded, lower case', encodeURIComponent(KEY).toLowerCase()],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(KEY))],
    ['every byte percent-encoded', [...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join('')],
    ['upper case', KEY.toUpperCase()],
    ['lower case', KEY.toLowerCase()],
    ['HTML references', 'atk&#43;key&#x2F;99&#61;Zq'],
    ['base64', b64(KEY)],
    ['base64 of a header', b64(`Bearer ${KEY}`)],
    ['base64 at offset 2', b64(`xy${KEY}tail`)],
    ['base64url', b64(`x${KEY}`).replace(/\+/g, '-').replace(/\//g, '_')],
    ['hex', Buffer.from(KEY).toString('hex').toUpperCase()],
  ])('hides the key echoed %s', (_, echoed) => {
    const out = createRedactor(KEY)(`before ${echoed} after`);
    expect(out).toContain('***');
    expect(out).not.toContain(echoed);
    expect(out.startsWith('before ')).toBe(true);
  });

  it('hides every secret it is given', () => {
    expect(createRedactor(['first-secret', 'second-secret'])('a first-secret b SECOND-SECRET c')).toBe('a *** b *** c');
  });

  it('leaves text without the key alone', () => {
    expect(createRedactor('secret')('Bearer contract-invalid-1')).toBe('Bearer contract-invalid-1');
    expect(createRedactor([])('anything')).toBe('anything');
  });
});
