import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { writeSecurityDocument } from './fixtures/security-documents.js';

/**
 * Every security scheme, end to end over HTTP, on the small documents of fixtures/security-documents.ts: the key is
 * the credential of every scheme (OpenAPI 3.0.3 §4.8.27), any one requirement of a list satisfies and every scheme
 * of one must (§4.8.30), and a request without it gets 401 with a challenge naming the scheme (RFC 9110 §11.6.1)
 * and the Error body, having stored nothing.
 */
const KEY = 'mock-security-key-0123456789';
const BASIC_KEY = 'alice:wonder-land-7';
const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

interface Credential {
  headers?: Record<string, string>;
  query?: string;
}

const servers = new Map<string, MockServer>();
beforeAll(async () => {
  const names = ['apikey-header', 'apikey-query', 'apikey-cookie', 'bearer', 'basic', 'token', 'oauth2'];
  for (const name of [...names, 'open-id-connect', 'alternatives', 'combination', 'mutual-tls'])
    servers.set(name, await createMockServer({ apiKeys: [KEY, BASIC_KEY], spec: writeSecurityDocument(name) }));
});
afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

async function call(name: string, method: string, path: string, credential: Credential = {}, body?: unknown) {
  const server = servers.get(name)!;
  const url = `${server.url}${path}${credential.query ? `${path.includes('?') ? '&' : '?'}${credential.query}` : ''}`;
  const response = await fetch(url, {
    method,
    headers: { ...credential.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: text ? JSON.parse(text) : undefined,
  };
}

// [document, a valid credential, a wrong one, what the 401 for none says, its challenge]
const kinds: [string, Credential, Credential, string, string][] = [
  [
    'apikey-header',
    { headers: { 'X-API-Key': KEY } },
    { headers: { 'X-API-Key': `${KEY}x` } },
    'the header X-API-Key is missing; send "X-API-Key: <API key>"',
    'ApiKey realm="petstore", in="header", name="X-API-Key"',
  ],
  [
    'apikey-query',
    { query: `appid=${encodeURIComponent(KEY)}` },
    { query: 'appid=not-the-key' },
    'the query parameter appid is missing; send "?appid=<API key>"',
    'ApiKey realm="petstore", in="query", name="appid"',
  ],
  [
    'apikey-cookie',
    { headers: { Cookie: `theme=dark; sid=${KEY}` } },
    { headers: { Cookie: `sid=${KEY.toUpperCase()}` } },
    'the cookie sid is missing; send "Cookie: sid=<API key>"',
    'ApiKey realm="petstore", in="cookie", name="sid"',
  ],
  [
    'bearer',
    { headers: { Authorization: `Bearer ${KEY}` } },
    { headers: { Authorization: `Bearer ${KEY.slice(0, -1)}` } },
    'the Authorization header is missing; send "Authorization: Bearer <API key>"',
    'Bearer realm="petstore"',
  ],
  [
    'basic',
    { headers: { Authorization: basic(`anyone:${KEY}`) } },
    { headers: { Authorization: basic(`${KEY}:`) } },
    'the Authorization header is missing; send "Authorization: Basic <base64 of user:API key>"',
    'Basic realm="petstore", charset="UTF-8"',
  ],
  [
    'token',
    { headers: { Authorization: `Token ${KEY}` } },
    { headers: { Authorization: `Bearer ${KEY}` } },
    'the Authorization header is missing; send "Authorization: Token <API key>"',
    'Token realm="petstore"',
  ],
  [
    'oauth2',
    { headers: { Authorization: `Bearer ${KEY}` } },
    { headers: { Authorization: 'Bearer an-access-token-we-never-issued' } },
    'the Authorization header is missing; send "Authorization: Bearer <API key>"',
    'Bearer realm="petstore", scope="notes:read"',
  ],
  [
    'open-id-connect',
    { headers: { Authorization: `Bearer ${KEY}` } },
    { headers: { Authorization: `Basic ${KEY}` } },
    'the Authorization header is missing; send "Authorization: Bearer <API key>"',
    'Bearer realm="petstore"',
  ],
];

describe.each(kinds)('the mock on a document whose scheme is %s', (name, valid, wrong, message, challenge) => {
  it('serves a request with the key as the scheme says', async () => {
    const listed = await call(name, 'GET', '/notes', valid);
    expect(listed.status).toBe(200);
    expect(Array.isArray(listed.body)).toBe(true);
    const created = await call(name, 'POST', '/notes', valid, { text: `${name} kept` });
    expect(created).toMatchObject({ status: 201, body: { text: `${name} kept` } });
  });

  it('refuses none with 401, the Error body naming what to send, and a challenge naming the scheme', async () => {
    // Before the 404 no note 1 would get: credentials are checked first.
    const read = await call(name, 'GET', '/notes/1');
    expect(read).toEqual({ status: 401, challenge, body: { code: 'unauthorized', message, status: 401 } });
  });

  it('refuses a wrong one with 401, and stores nothing it was sent', async () => {
    const store = servers.get(name)!.mock.store;
    const before = await store.count();
    for (const credential of [{}, wrong]) {
      const refused = await call(name, 'POST', '/notes', credential, { text: `${name} refused` });
      expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized', status: 401 } });
      expect(refused.challenge).toMatch(new RegExp(`^${challenge.split(' ')[0]!} realm="petstore"`));
    }
    expect(await store.count()).toBe(before);
    const listed = await call(name, 'GET', '/notes?limit=50', valid);
    expect(listed.body.map((note: { text: string }) => note.text)).not.toContain(`${name} refused`);
  });
});

describe('an empty requirement among the alternatives (security: [{ bearer: [] }, {}])', () => {
  it('serves the list without credentials, and with them', async () => {
    expect((await call('bearer', 'GET', '/notes')).status).toBe(200);
    expect((await call('bearer', 'GET', '/notes', { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
  });
});

describe('a user:password key', () => {
  it('is the Basic credential of that user alone, and no other scheme takes it', async () => {
    expect((await call('basic', 'GET', '/notes', { headers: { Authorization: basic(BASIC_KEY) } })).status).toBe(200);
    const other = await call('basic', 'GET', '/notes', { headers: { Authorization: basic('bob:wonder-land-7') } });
    expect(other).toMatchObject({ status: 401, body: { message: 'the user name and password are not valid' } });
    expect((await call('apikey-header', 'GET', '/notes', { headers: { 'X-API-Key': BASIC_KEY } })).status).toBe(401);
  });
});

describe('alternatives: any one requirement satisfies (OpenAPI 3.0.3 §4.8.30)', () => {
  it.each<[string, string, string, Credential, number]>([
    ['the list takes the apiKey in the query', 'GET', '/notes', { query: `appid=${KEY}` }, 200],
    ['the list takes an OAuth2 token', 'GET', '/notes', { headers: { Authorization: `Bearer ${KEY}` } }, 200],
    ['the list takes no apiKey header (the create does)', 'GET', '/notes', { headers: { 'X-API-Key': KEY } }, 401],
    ['the create takes the apiKey header', 'POST', '/notes', { headers: { 'X-API-Key': KEY } }, 201],
    ['the create takes Basic', 'POST', '/notes', { headers: { Authorization: basic(`me:${KEY}`) } }, 201],
    [
      'the create takes no OAuth2 token (its own security overrides)',
      'POST',
      '/notes',
      { headers: { Authorization: `Bearer ${KEY}` } },
      401,
    ],
  ])('%s', async (_, method, path, credential, status) => {
    const answer = await call(
      'alternatives',
      method,
      path,
      credential,
      method === 'POST' ? { text: 'alt' } : undefined,
    );
    expect(answer.status).toBe(status);
  });

  it('names every way in for a request with none, and challenges for each', async () => {
    expect(await call('alternatives', 'GET', '/notes')).toEqual({
      status: 401,
      challenge: 'ApiKey realm="petstore", in="query", name="appid", Bearer realm="petstore", scope="notes:read"',
      body: {
        code: 'unauthorized',
        message: 'no credentials were sent; send "?appid=<API key>", or "Authorization: Bearer <API key>"',
        status: 401,
      },
    });
  });
});

describe('a combination: every scheme of one requirement', () => {
  it('serves the create with the apiKey header and the cookie together', async () => {
    const both = { headers: { 'X-API-Key': KEY, Cookie: `sid=${KEY}` } };
    expect((await call('combination', 'POST', '/notes', both, { text: 'both' })).status).toBe(201);
  });

  it('refuses one without the other, naming the missing one, and stores nothing', async () => {
    const store = servers.get('combination')!.mock.store;
    const before = await store.count();
    const half = await call('combination', 'POST', '/notes', { headers: { 'X-API-Key': KEY } }, { text: 'half' });
    expect(half).toMatchObject({
      status: 401,
      body: { code: 'unauthorized', message: 'the cookie sid is missing; send "Cookie: sid=<API key>"', status: 401 },
    });
    const other = await call('combination', 'POST', '/notes', { headers: { Cookie: `sid=${KEY}` } }, { text: 'half' });
    expect(other.body.message).toBe('the header X-API-Key is missing; send "X-API-Key: <API key>"');
    expect(await store.count()).toBe(before);
  });

  it("takes the list's own combination: a bearer token and the apiKey in the query", async () => {
    const bearer = { Authorization: `Bearer ${KEY}` };
    expect((await call('combination', 'GET', '/notes', { headers: bearer, query: `appid=${KEY}` })).status).toBe(200);
    expect((await call('combination', 'GET', '/notes', { headers: bearer })).status).toBe(401);
  });
});

describe('mutualTLS (OpenAPI 3.1), which a mock cannot check', () => {
  it('serves an operation that requires it alone without credentials', async () => {
    expect((await call('mutual-tls', 'GET', '/notes')).status).toBe(200);
  });

  it('still requires the apiKey it is combined with', async () => {
    expect((await call('mutual-tls', 'POST', '/notes', {}, { text: 'm' })).status).toBe(401);
    const keyed = { headers: { 'X-API-Key': KEY } };
    expect((await call('mutual-tls', 'POST', '/notes', keyed, { text: 'm' })).status).toBe(201);
  });
});

describe('Prefer: code=401 on an apiKey document', () => {
  it("challenges with the operation's own scheme", async () => {
    const forced = await call('apikey-header', 'GET', '/notes', { headers: { 'X-API-Key': KEY, Prefer: 'code=401' } });
    expect(forced).toMatchObject({ status: 401, challenge: 'ApiKey realm="petstore", in="header", name="X-API-Key"' });
  });
});
