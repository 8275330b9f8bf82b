import { describe, expect, it } from 'vitest';
import { toCurl } from './to-curl.js';

describe('toCurl', () => {
  it.each([
    ['a GET', ['GET', 'http://h/v1/pets', { Authorization: 'Bearer ***' }, undefined], "curl -sS -i http://h/v1/pets -H 'Authorization: Bearer ***'"],
    ['a query', ['GET', 'http://h/v1/pets?limit=1&status=sold', {}, undefined], "curl -sS -i 'http://h/v1/pets?limit=1&status=sold'"],
    ['a POST with a quote in the body', ['POST', 'http://h/v1/pets', { 'Content-Type': 'application/json' }, `{"name":"O'Neil"}`],
      `curl -sS -i -X POST http://h/v1/pets -H 'Content-Type: application/json' --data-raw '{"name":"O'\\''Neil"}'`],
  ] as const)('writes %s as a shell command', (_, [method, url, headers, body], want) => {
    expect(toCurl(method, url, headers, body)).toBe(want);
  });
});
