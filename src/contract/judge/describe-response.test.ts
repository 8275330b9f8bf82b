import { describe, expect, it } from 'vitest';
import { describeResponse } from './describe-response.js';
import { exchangeFor } from '../../../test/support/contract-unit.js';

/** An answer whose excerpt (what reports show) is `excerpt`. */
function answered(excerpt: string, status = 404) {
  return exchangeFor('getPet', status, undefined, { excerpt });
}

describe('describeResponse', () => {
  it.each([
    [
      'no answer, with why',
      exchangeFor('listPets', undefined, undefined, { error: 'no answer within 10 ms' }),
      'no answer within 10 ms',
    ],
    ['no answer, nothing said', exchangeFor('listPets', undefined, undefined), 'no answer'],
    ['a list', exchangeFor('listPets', 200, [{ id: 1 }, { id: 2 }]), '200 application/json, 2 items'],
    ['an empty list', exchangeFor('listPets', 200, []), '200 application/json, 0 items'],
    [
      'a list without a Content-Type',
      exchangeFor('listPets', 200, [{ id: 1 }], { contentType: null }),
      '200 no Content-Type, 1 items',
    ],
    ['an object', answered('{"code":"x"}'), '404 application/json {"code":"x"}'],
    [
      'an empty body',
      exchangeFor('createPet', 204, undefined, { contentType: null }),
      '204 no Content-Type, empty body',
    ],
    ['an empty JSON-labelled body', answered('', 500), '500 application/json, empty body'],
  ])('describes %s', (_, exchange, want) => {
    expect(describeResponse(exchange)).toBe(want);
  });

  it('keeps an excerpt of 160 characters whole and cuts a longer one at 160, marked', () => {
    expect(describeResponse(answered('a'.repeat(160)))).toBe(`404 application/json ${'a'.repeat(160)}`);
    expect(describeResponse(answered('b'.repeat(161)))).toBe(`404 application/json ${'b'.repeat(160)}…`);
  });

  it('drops an escape the cut broke in two, and only such an escape at the end of the cut', () => {
    // '\x1b' cut after '\x1': the broken escape goes, the text before it stays.
    expect(describeResponse(answered(`${'a'.repeat(157)}\\x1b${'c'.repeat(10)}`))).toBe(
      `404 application/json ${'a'.repeat(157)}…`,
    );
    // A backslash and five characters at the end of the cut (a whole '\u00e9' or a broken longer escape) go.
    expect(describeResponse(answered(`${'a'.repeat(154)}\\u00e9${'c'.repeat(10)}`))).toBe(
      `404 application/json ${'a'.repeat(154)}…`,
    );
    // Six characters after the backslash: no escape of the excerpt is that long, so the text is kept.
    expect(describeResponse(answered(`${'a'.repeat(153)}\\nbbbbb${'c'.repeat(10)}`))).toBe(
      `404 application/json ${'a'.repeat(153)}\\nbbbbb…`,
    );
    // An escape whole before the end of the cut stays, however close to the start.
    expect(describeResponse(answered(`a\\nb${'c'.repeat(200)}`))).toBe(`404 application/json a\\nb${'c'.repeat(156)}…`);
  });
});
