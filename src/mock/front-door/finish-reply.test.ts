import { describe, expect, it } from 'vitest';
import { finishReply } from './finish-reply.js';
import { createCors } from '../base/cors.js';

const anyOrigin = createCors({ origins: '*' });

describe('finishReply, the one finishing step', () => {
  it("adds the base headers, then the reply's own, CORS and extra ones, and serialises a JSON body once", () => {
    const reply = { status: 201, headers: { Location: '/v1/pets/58' }, body: { id: 58 } };
    const finished = finishReply(reply, 'POST', 'http://app.test', anyOrigin, { Deprecation: '@0' });
    expect(finished.headers).toEqual({
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      Location: '/v1/pets/58',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': expect.stringContaining('Location'),
      Deprecation: '@0',
      'Content-Type': 'application/json',
      'Content-Length': '9',
    });
    expect(finished.payload).toBe('{"id":58}');
    // The reply it was given is left as it was, and the result cannot be changed by whoever sees it next.
    expect(reply.headers).toEqual({ Location: '/v1/pets/58' });
    expect(Object.isFrozen(finished) && Object.isFrozen(finished.headers)).toBe(true);
  });

  it("lets a route's own Cache-Control win, and sends bytes with their own Content-Type and length", () => {
    const bytes = Buffer.from([1, 2, 3, 4]);
    const finished = finishReply(
      { status: 200, headers: { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400' }, bytes },
      'GET',
      undefined,
      anyOrigin,
    );
    expect(finished.headers).toEqual({
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'image/png',
      'Content-Length': '4',
    });
    expect(finished.payload).toBe(bytes);
  });

  it("answers HEAD with GET's headers, Content-Length included, and no content (RFC 9110 §9.3.2)", () => {
    const finished = finishReply({ status: 200, body: ['é'] }, 'HEAD', undefined, createCors(false));
    expect(finished.headers['Content-Length']).toBe(String(Buffer.byteLength('["é"]')));
    expect(finished.payload).toBeUndefined();
  });

  it('turns a dropped connection into the one frozen drop, with no headers at all', () => {
    const finished = finishReply({ status: 0, drop: true }, 'GET', 'http://app.test', anyOrigin);
    expect(finished).toEqual({ status: 0, drop: true, headers: {}, payload: undefined });
  });
});
