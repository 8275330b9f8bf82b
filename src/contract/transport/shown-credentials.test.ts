import { describe, expect, it } from 'vitest';
import { headerVariable, KEY_VARIABLE, keyForms, showHeaderValue, swapCase } from './shown-credentials.js';

describe('keyForms', () => {
  it('gives the key, its other case, less its last character and the Basic credential, longest first', () => {
    expect(keyForms('aB3d')).toEqual([
      { text: btoa('aB3d:'), shell: `$(printf %s: "$PETSTORE_API_KEY" | base64 | tr -d '\\n')` },
      { text: 'aB3d', shell: '${PETSTORE_API_KEY}' },
      { text: 'Ab3D', shell: '$(printf %s "$PETSTORE_API_KEY" | tr a-zA-Z A-Za-z)' },
      { text: 'aB3', shell: '${PETSTORE_API_KEY%?}' },
    ]);
  });

  it('encodes a non-ASCII key as UTF-8 before base64, as a client does', () => {
    expect(keyForms('é').find((form) => form.shell.includes('base64'))?.text).toBe(
      Buffer.from('é:').toString('base64'),
    );
  });

  it('lists a form once when two coincide, and never an empty one', () => {
    // '1' has no other case, and less its last character it is empty.
    expect(keyForms('1').map((form) => form.text)).toEqual([btoa('1:'), '1']);
  });
});

describe('headerVariable, swapCase', () => {
  it('names the variable of a -H header from its name', () => {
    expect(headerVariable('X-Gateway-Token')).toBe('PETSTORE_HEADER_X_GATEWAY_TOKEN');
    expect(headerVariable('x.a--b9')).toBe('PETSTORE_HEADER_X_A_B9');
    expect(KEY_VARIABLE).toBe('PETSTORE_API_KEY');
  });

  it('swaps the case of letters only', () => {
    expect(swapCase('aZ-9é')).toBe('Az-9É');
  });
});

describe('showHeaderValue beyond the common forms', () => {
  it('keeps the scheme word and the whitespace after it as written', () => {
    expect(showHeaderValue('Authorization', 'Bearer \t k', 'k', false)).toEqual({
      parts: ['Bearer \t ', { shell: '${PETSTORE_API_KEY}' }],
    });
  });

  it('rewrites a scheme-like word in any other header when it is the key', () => {
    expect(showHeaderValue('x-api-key', 'k rest', 'k', false)).toEqual({
      parts: [{ shell: '${PETSTORE_API_KEY}' }, ' rest'],
    });
  });

  it('shows text between two forms of the key as written', () => {
    expect(showHeaderValue('x-api-key', 'ab,ab', 'ab', false)).toEqual({
      parts: [{ shell: '${PETSTORE_API_KEY}' }, ',', { shell: '${PETSTORE_API_KEY}' }],
    });
  });

  it('rewrites nothing for an empty key', () => {
    expect(showHeaderValue('authorization', 'Bearer ', '', false)).toBe('Bearer ');
    expect(showHeaderValue('authorization', 'Bearer abc', '', false)).toBe('Bearer abc');
    // The Basic form of an empty key would be base64(':'); no form of it is looked for.
    expect(showHeaderValue('x-api-key', `${btoa(':')} undefined`, '', false)).toBe(`${btoa(':')} undefined`);
  });

  it('never rewrites the scheme word of an Authorization value, even when the key occurs in it', () => {
    for (const name of ['authorization', 'Authorization'])
      expect(showHeaderValue(name, 'Bearer e', 'e', false)).toEqual({
        parts: ['Bearer ', { shell: '${PETSTORE_API_KEY}' }],
      });
    // In any other header the same text is all value.
    expect(showHeaderValue('x-api-key', 'Be', 'e', false)).toEqual({ parts: ['B', { shell: '${PETSTORE_API_KEY}' }] });
  });
});
