import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';

describe('createRedactor', () => {
  it.each([
    ['as written', 'Authorization: Bearer k3y"\\x', 'Authorization: Bearer ***'],
    ['JSON-escaped', '{"message":"bad key k3y\\"\\\\x"}', '{"message":"bad key ***"}'],
    ['URL-encoded', '/pets?key=k3y%22%5Cx', '/pets?key=***'],
    ['repeated', 'k3y"\\x k3y"\\x', '*** ***'],
  ])('hides the key %s', (_, text, want) => {
    expect(createRedactor('k3y"\\x')(text)).toBe(want);
  });

  it('leaves text without the key alone', () => {
    expect(createRedactor('secret')('Bearer contract-invalid-1')).toBe('Bearer contract-invalid-1');
  });
});
