import { describe, expect, it } from 'vitest';
import { createSecretRedactor, MIN_MASKED_SECRET_LENGTH, redactSecrets } from './redact-secrets.js';

const KEY = 'atk+key/99=Zq';
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('createSecretRedactor', () => {
  it.each([
    ['as written', 'Authorization: Bearer k3y"\\x-long1', 'Authorization: Bearer ***'],
    ['JSON-escaped', '{"message":"bad key k3y\\"\\\\x-long1"}', '{"message":"bad key ***"}'],
    ['URL-encoded', '/pets?key=k3y%22%5Cx-long1', '/pets?key=***'],
    ['repeated', 'k3y"\\x-long1 k3y"\\x-long1', '*** ***'],
  ])('hides the key %s', (_, text, want) => {
    expect(createSecretRedactor(['k3y"\\x-long1'])(text)).toBe(want);
  });

  // Every way a hostile target or upstream was seen (or could be expected) to echo the key back.
  it.each([
    ['\\u escapes', 'atk\\u002Bkey\\/99\\u003dZq'],
    ['\\u escapes, lower case hex', 'atk\\u002bkey/99=Zq'],
    [
      'every character \\u-escaped',
      [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ],
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
    const out = createSecretRedactor([KEY])(`before ${echoed} after`);
    expect(out).toContain('***');
    expect(out).not.toContain(echoed);
    expect(out.startsWith('before ')).toBe(true);
    expect(out.endsWith(' after')).toBe(true);
  });

  it('hides every secret it is given', () => {
    expect(createSecretRedactor(['first-secret', 'second-secret'])('a first-secret b SECOND-SECRET c')).toBe(
      'a *** b *** c',
    );
  });

  it('leaves text without the key alone', () => {
    expect(createSecretRedactor(['long-secret-1'])('Bearer contract-invalid-1')).toBe('Bearer contract-invalid-1');
    expect(createSecretRedactor([])('anything')).toBe('anything');
  });

  // A short development key (x, test, sek) masked in free text rewrote words, numbers and field names.
  it.each(['x', 'test', 'sek', 'secret1', 'a'.repeat(MIN_MASKED_SECRET_LENGTH - 1)])(
    'never searches free text for the short key %j',
    (key) => {
      const text = `{"expected":"x","example":734,"name":"Rex test sek secret1","port":"127.0.0.1:35455","id":"${'a'.repeat(20)}"}`;
      expect(createSecretRedactor([key])(text)).toBe(text);
    },
  );

  it('searches free text for keys from the minimum length on', () => {
    const key = 'k'.repeat(MIN_MASKED_SECRET_LENGTH);
    expect(createSecretRedactor([key])(`a ${key} b`)).toBe('a *** b');
  });
});

describe('redactSecrets', () => {
  it('masks as the redactor does, reusing the compiled pattern', () => {
    expect(redactSecrets('/v1/pets?x=s3cret%2Dkey-0042', ['s3cret-key-0042'])).toBe('/v1/pets?x=***');
    expect(redactSecrets('/v1/pets?x=s3cret%2Dkey-0042', ['s3cret-key-0042'])).toBe('/v1/pets?x=***');
    expect(redactSecrets('anything', [])).toBe('anything');
  });

  // The mock's and the proxy's free text is a request target a client wrote: a short key in it is masked as written.
  it('masks a short key as written or percent-encoded when asked, and only then', () => {
    const target = '/v1/pets/k3y/with%3D?q=k3y%2fwith%3d&r=K3Y/WITH=';
    expect(redactSecrets(target, ['k3y/with='], { shortSecrets: 'as-written' })).toBe('/v1/pets/***?q=***&r=K3Y/WITH=');
    expect(redactSecrets(target, ['k3y/with='])).toBe(target);
  });
});
