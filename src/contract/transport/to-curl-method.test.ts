import { describe, expect, it } from 'vitest';
import { toCurl } from './to-curl.js';

// curl sends GET without a body and POST with --data-raw: -X says the method whenever that default would be wrong.
describe('toCurl, the method and the body', () => {
  it.each([
    ['a GET without a body: curl’s default', 'GET', undefined, "curl -sS -i http://h/v1/pets -H 'Accept: x'"],
    [
      'a GET with a body: -X GET, or --data-raw would make it a POST',
      'GET',
      '{}',
      "curl -sS -i -X GET http://h/v1/pets -H 'Accept: x' -H 'Content-Type:' --data-raw '{}'",
    ],
    ['a POST without a body: -X POST', 'POST', undefined, "curl -sS -i -X POST http://h/v1/pets -H 'Accept: x'"],
  ])('%s', (_, method, body, want) => {
    expect(toCurl(method, 'http://h/v1/pets', { Accept: 'x' }, body)).toBe(want);
  });
});
