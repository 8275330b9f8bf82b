import { describe, expect, it } from 'vitest';
import { readCurl } from './read-curl.js';
import { toCurl } from '../transport/to-curl.js';

describe('readCurl reads what toCurl writes', () => {
  it.each([
    ['a JSON body', '{"name":"Rex"}'],
    ['a body piped by printf: DEL, a newline, a backslash, a percent sign, é and an emoji', '{"n":"a\u007fb\n\\%d é 🐕"}'],
  ])('%s', (_, body) => {
    const curl = toCurl('POST', 'http://h/v1/pets', { 'Content-Type': 'application/json' }, body);
    expect(readCurl(curl)).toEqual({
      method: 'POST',
      url: 'http://h/v1/pets',
      headers: ['Content-Type: application/json'],
      body,
    });
  });
});
