import { describe, expect, it } from 'vitest';
import { answersAsDeclared, expectedAnswers, isDeclaredAnswer } from './declared-answer.js';
import type { Operation, ResponseSpec } from './operations.js';

/** An operation declaring `responses` (status key → media types), as listOperations keys them. */
function declaring(responses: Record<string, string[]>): Operation {
  const map = new Map<string, ResponseSpec>(
    Object.entries(responses).map(([key, mediaTypes]) => [key, { mediaTypes, schema: undefined, validate: undefined }]),
  );
  return { id: 'op', responses: map } as unknown as Operation;
}

describe('an answer the document declares', () => {
  it.each([
    ['a 200 without content, declared so', { '200': [] }, 200, null, '', true],
    ['a 200 with a body where no content is declared', { '200': [] }, 200, 'text/html', '<html>', false],
    [
      'a declared media type, parameters allowed',
      { '200': ['application/json'] },
      200,
      'application/json; charset=utf-8',
      '[]',
      true,
    ],
    ['another media type', { '200': ['application/json'] }, 200, 'text/html', '<html>', false],
    ['a media range', { '200': ['text/*'] }, 200, 'text/plain', 'ok', true],
    ['a 301 the operation lists', { '301': [] }, 301, null, '', true],
    ['a status under default', { DEFAULT: ['application/json'] }, 404, 'application/json', '{}', true],
    ['a status under a range', { '4XX': [] }, 404, null, '', true],
    ['a status not declared', { '200': [] }, 404, null, '', false],
  ])('%s: %s', (_, responses, status, contentType, text, declared) => {
    expect(isDeclaredAnswer(declaring(responses), { status, contentType, text })).toBe(declared);
  });
});

describe('what a valid request is expected to answer', () => {
  it.each([
    [{ '200': [], '400': [] }, 'a 2xx', [200, 204], [400, 301]],
    [{ '2XX': [] }, 'a 2xx', [201], [400]],
    [{ '301': [] }, '301 (the only status op declares)', [301], [200, 400]],
    [{ '400': [], '409': [] }, '400 or 409 (the statuses op declares)', [400, 409], [200, 404]],
    [{ DEFAULT: [] }, 'default (the only status op declares)', [200, 400], []],
  ])('%j: %s', (responses, words, answers, others) => {
    const operation = declaring(responses);
    expect(expectedAnswers(operation)).toBe(words);
    for (const status of answers) expect(answersAsDeclared(operation, status)).toBe(true);
    for (const status of others) expect(answersAsDeclared(operation, status)).toBe(false);
  });
});
