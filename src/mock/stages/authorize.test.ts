import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { authorizers } from './authorize.js';
import { challengesOf } from './challenges.js';
import { ApiError } from '../../errors.js';
import { operationSecurity, readDocumentSecurity } from '../../openapi/security.js';
import type { RequestHeaders } from '../mock-request.js';

const KEY = 'k3y-0123456789';
const BASIC_KEY = 'alice:wonder:land';
const { schemes } = readDocumentSecurity({
  components: {
    securitySchemes: {
      header: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      query: { type: 'apiKey', in: 'query', name: 'app id' },
      cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
      bearer: { type: 'http', scheme: 'bearer' },
      oauth: { type: 'oauth2', flows: {} },
      basic: { type: 'http', scheme: 'basic' },
      token: { type: 'http', scheme: 'Token' },
      mtls: { type: 'mutualTLS' },
    },
  },
} as unknown as OpenAPIV3.Document);
const build = authorizers([KEY, BASIC_KEY]);
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

/** The check of `security`, run on a request with these headers and query: undefined when it passes, else the 401. */
function refusal(security: OpenAPIV3.SecurityRequirementObject[], headers: RequestHeaders, search = '') {
  const authorize = build(operationSecurity(security, schemes, 'op'));
  if (!authorize) return 'anonymous';
  try {
    authorize({ headers, search });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { status, message, headers: sent } = error as ApiError;
    return { status, message, challenge: sent['WWW-Authenticate'] };
  }
}

describe('authorize: each scheme', () => {
  // [name, security, request headers, query, passes]
  it.each<[string, OpenAPIV3.SecurityRequirementObject[], RequestHeaders, string, boolean]>([
    ['apiKey header', [{ header: [] }], { 'x-api-key': KEY }, '', true],
    ['apiKey header, wrong key', [{ header: [] }], { 'x-api-key': 'nope' }, '', false],
    ['apiKey header, the key as a bearer token', [{ header: [] }], { authorization: `Bearer ${KEY}` }, '', false],
    ['apiKey query, percent-encoded name', [{ query: [] }], {}, `app%20id=${KEY}`, true],
    ['apiKey query, name with +', [{ query: [] }], {}, `app+id=${KEY}`, true],
    ['apiKey query, a + in the value stays a +', [{ query: [] }], {}, `app%20id=${KEY}+`, false],
    ['apiKey query in a header', [{ query: [] }], { 'app id': KEY }, '', false],
    ['apiKey cookie among others', [{ cookie: [] }], { cookie: `a=1; sid=${KEY}; b=2` }, '', true],
    ['apiKey cookie, quoted', [{ cookie: [] }], { cookie: `sid="${KEY}"` }, '', true],
    ['apiKey cookie, the name in another case', [{ cookie: [] }], { cookie: `SID=${KEY}` }, '', false],
    ['a user:password key is no apiKey', [{ header: [] }], { 'x-api-key': BASIC_KEY }, '', false],
    ['oauth2 bearer token', [{ oauth: [] }], { authorization: `bearer ${KEY}` }, '', true],
    ['Basic, any user, the key as the password', [{ basic: [] }], { authorization: basic(`bob:${KEY}`) }, '', true],
    ['Basic, an empty user', [{ basic: [] }], { authorization: basic(`:${KEY}`) }, '', true],
    ['Basic, a user:password key', [{ basic: [] }], { authorization: basic(BASIC_KEY) }, '', true],
    [
      'Basic, a user:password key for another user',
      [{ basic: [] }],
      { authorization: basic('bob:wonder:land') },
      '',
      false,
    ],
    ['Basic, the key as the user', [{ basic: [] }], { authorization: basic(`${KEY}:`) }, '', false],
    ['Basic, not base64', [{ basic: [] }], { authorization: `Basic ${KEY}` }, '', false],
    ['Token scheme', [{ token: [] }], { authorization: `token ${KEY}` }, '', true],
    ['Token scheme, sent as Bearer', [{ token: [] }], { authorization: `Bearer ${KEY}` }, '', false],
    ['alternatives: the second', [{ header: [] }, { query: [] }], {}, `app%20id=${KEY}`, true],
    ['alternatives: neither', [{ header: [] }, { query: [] }], { cookie: `sid=${KEY}` }, '', false],
    ['combination: both', [{ header: [], cookie: [] }], { 'x-api-key': KEY, cookie: `sid=${KEY}` }, '', true],
    ['combination: one of two', [{ header: [], cookie: [] }], { 'x-api-key': KEY }, '', false],
    ['combination with mutualTLS: the other checked', [{ mtls: [], header: [] }], {}, '', false],
    ['combination with mutualTLS: the other sent', [{ mtls: [], header: [] }], { 'x-api-key': KEY }, '', true],
  ])('%s', (_, security, headers, search, passes) => {
    const result = refusal(security, headers, search);
    if (passes) expect(result).toBeUndefined();
    else expect(result).toMatchObject({ status: 401 });
  });

  it.each<[string, OpenAPIV3.SecurityRequirementObject[]]>([
    ['no requirement', []],
    ['an empty alternative', [{ header: [] }, {}]],
    ['mutualTLS alone', [{ mtls: [] }]],
  ])('builds no check for %s: served without credentials', (_, security) => {
    expect(refusal(security, {})).toBe('anonymous');
  });
});

describe('authorize: what a refusal says', () => {
  it.each<[string, OpenAPIV3.SecurityRequirementObject[], RequestHeaders, string, string, string]>([
    [
      'apiKey header missing',
      [{ header: [] }],
      {},
      '',
      'the header X-API-Key is missing; send "X-API-Key: <API key>"',
      'ApiKey realm="petstore", in="header", name="X-API-Key"',
    ],
    [
      'apiKey query empty',
      [{ query: [] }],
      {},
      'app%20id=',
      'the query parameter app id is empty; send "?app id=<API key>"',
      'ApiKey realm="petstore", in="query", name="app id"',
    ],
    [
      'apiKey cookie wrong',
      [{ cookie: [] }],
      { cookie: 'sid=guess-guess-guess' },
      '',
      'the API key in the cookie sid is not valid',
      'ApiKey realm="petstore", in="cookie", name="sid"',
    ],
    [
      'oauth2 with scopes, an unknown token',
      [{ oauth: ['read:pets', 'write:pets'] }],
      { authorization: 'Bearer guess-guess-guess' },
      '',
      'the API key is not valid',
      'Bearer realm="petstore", scope="read:pets write:pets", error="invalid_token"',
    ],
    [
      'Basic under another scheme',
      [{ basic: [] }],
      { authorization: `Bearer ${KEY}` },
      '',
      'the Authorization header must use the Basic scheme: "Authorization: Basic <base64 of user:API key>"',
      'Basic realm="petstore", charset="UTF-8"',
    ],
    [
      'Basic with a wrong password',
      [{ basic: [] }],
      { authorization: basic('bob:guess-guess') },
      '',
      'the user name and password are not valid',
      'Basic realm="petstore", charset="UTF-8"',
    ],
    [
      'alternatives, nothing sent: every way named, every challenge',
      [{ header: [] }, { oauth: [] }],
      {},
      '',
      'no credentials were sent; send "X-API-Key: <API key>", or "Authorization: Bearer <API key>"',
      'ApiKey realm="petstore", in="header", name="X-API-Key", Bearer realm="petstore"',
    ],
    [
      'alternatives, one tried: its refusal told, with its error',
      [{ header: [] }, { oauth: [] }],
      { authorization: 'Bearer guess-guess-guess' },
      '',
      'the API key is not valid',
      'ApiKey realm="petstore", in="header", name="X-API-Key", Bearer realm="petstore", error="invalid_token"',
    ],
    [
      'a combination, nothing sent',
      [{ header: [], cookie: [] }],
      {},
      '',
      'no credentials were sent; send "X-API-Key: <API key>" and "Cookie: sid=<API key>"',
      'ApiKey realm="petstore", in="header", name="X-API-Key", ApiKey realm="petstore", in="cookie", name="sid"',
    ],
    [
      'a combination, one of two sent: the other named',
      [{ header: [], cookie: [] }],
      { 'x-api-key': KEY },
      '',
      'the cookie sid is missing; send "Cookie: sid=<API key>"',
      'ApiKey realm="petstore", in="header", name="X-API-Key", ApiKey realm="petstore", in="cookie", name="sid"',
    ],
    [
      'oauth2 and http bearer: one challenge',
      [{ oauth: [] }, { bearer: [] }],
      { authorization: 'Bearer guess-guess-guess' },
      '',
      'the API key is not valid',
      'Bearer realm="petstore", error="invalid_token"',
    ],
  ])('%s', (_, security, headers, search, message, challenge) => {
    expect(refusal(security, headers, search)).toEqual({ status: 401, message, challenge });
  });

  it('never repeats what was sent', () => {
    const sent = 'guess-guess-guess-1234';
    for (const security of [[{ header: [] }], [{ query: [] }], [{ cookie: [] }], [{ basic: [] }], [{ oauth: [] }]]) {
      const result = refusal(
        security,
        { 'x-api-key': sent, cookie: `sid=${sent}`, authorization: basic(`u:${sent}`) },
        `app%20id=${sent}`,
      );
      expect(JSON.stringify(result)).not.toContain(sent);
      expect(JSON.stringify(result)).not.toContain(Buffer.from(`u:${sent}`).toString('base64'));
    }
  });
});

describe('challengesOf: a forced 401', () => {
  it.each<[OpenAPIV3.SecurityRequirementObject[], string]>([
    [[{ bearer: [] }], 'Bearer realm="petstore"'],
    [[], 'Bearer realm="petstore"'],
    [
      [{ header: [] }, { basic: [] }],
      'ApiKey realm="petstore", in="header", name="X-API-Key", Basic realm="petstore", charset="UTF-8"',
    ],
    [[{ mtls: [] }], 'Bearer realm="petstore"'],
  ])('%j → %s', (security, challenge) => {
    expect(challengesOf(operationSecurity(security, schemes, 'op'))).toBe(challenge);
  });
});
