import { describe, expect, it } from 'vitest';
import { judgeAnswerBasics, type AnswerFacts, type AnswerBasics } from './judge-answer-basics.js';

const json = 'application/json; charset=utf-8';

describe('judgeAnswerBasics', () => {
  it.each<[string, { given: AnswerFacts; want: AnswerBasics }]>([
    ['a sound answer', { given: { status: 200, contentType: json }, want: { notUtf8Json: false, serverError: false } }],
    ['a 5xx', { given: { status: 503, contentType: json }, want: { notUtf8Json: false, serverError: true } }],
    [
      'a JSON body that is not UTF-8',
      { given: { status: 200, contentType: json, invalidUtf8: true }, want: { notUtf8Json: true, serverError: false } },
    ],
    [
      'a text body that is not UTF-8 (no JSON rule broken)',
      {
        given: { status: 200, contentType: 'text/plain', invalidUtf8: true },
        want: { notUtf8Json: false, serverError: false },
      },
    ],
    [
      'a body over the bound, before anything else',
      {
        given: { status: 500, contentType: json, tooLarge: true, encoding: 'cut', tooDeep: true },
        want: {
          unbounded: { reason: 'too-large', message: 'a body longer than 10 bytes' },
          notUtf8Json: false,
          serverError: true,
        },
      },
    ],
    [
      'a body that did not decode says nothing of its depth',
      {
        given: { status: 200, contentType: json, encoding: 'the body broke off', tooDeep: true },
        want: {
          unbounded: { reason: 'encoding', message: 'the body broke off' },
          notUtf8Json: false,
          serverError: false,
        },
      },
    ],
    [
      'JSON too deep',
      {
        given: { status: 200, contentType: json, tooDeep: true },
        want: {
          unbounded: { reason: 'too-deep', message: 'JSON nested deeper than 64 levels' },
          notUtf8Json: false,
          serverError: false,
        },
      },
    ],
  ])('%s', (_, { given, want }) => {
    expect(judgeAnswerBasics(given, 10)).toEqual(want);
  });
});
