import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { describeScheme, operationSecurity, readDocumentSecurity, type OperationSecurity } from './security.js';
import { DocumentError } from '../input-errors.js';
import { loadSpec } from './load-spec.js';
import { stringify } from 'yaml';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const securitySchemes = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  BearerCaps: { type: 'http', scheme: 'BEARER' },
  basic: { type: 'http', scheme: 'Basic' },
  token: { type: 'http', scheme: 'Token' },
  digest: { type: 'http', scheme: 'Digest' },
  header: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  query: { type: 'apiKey', in: 'query', name: 'api_key' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'Session' },
  oauth: {
    type: 'oauth2',
    flows: {
      implicit: { authorizationUrl: 'https://a.example/auth', scopes: { 'read:pets': 'r', 'write:pets': 'w' } },
    },
  },
  oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://a.example/.well-known/openid-configuration' },
  mtls: { type: 'mutualTLS' },
};
const document = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { securitySchemes } };
const { schemes, places } = readDocumentSecurity(document as unknown as OpenAPIV3.Document);

/** An operation's security as names: each alternative its scheme names (with scopes), and the two flags. */
function shape(security: OperationSecurity) {
  return {
    alternatives: security.alternatives.map((a) =>
      a.map((r) => (r.scopes.length ? `${r.scheme.name}[${r.scopes.join(' ')}]` : r.scheme.name)),
    ),
    anonymous: security.anonymous,
    bearerOnly: security.bearerOnly,
  };
}

describe('readDocumentSecurity', () => {
  it.each([
    ['bearer', { kind: 'bearer', type: 'http' }],
    ['BearerCaps', { kind: 'bearer', type: 'http' }],
    ['basic', { kind: 'basic' }],
    ['token', { kind: 'token', authScheme: 'Token' }],
    ['digest', { kind: 'unenforced', reason: expect.stringContaining('Digest') }],
    ['header', { kind: 'apiKey', in: 'header', parameter: 'X-API-Key' }],
    ['query', { kind: 'apiKey', in: 'query', parameter: 'api_key' }],
    ['cookie', { kind: 'apiKey', in: 'cookie', parameter: 'Session' }],
    ['oauth', { kind: 'bearer', type: 'oauth2' }],
    ['oidc', { kind: 'bearer', type: 'openIdConnect' }],
    ['mtls', { kind: 'unenforced', reason: expect.stringContaining('mutualTLS') }],
  ])('reads %s', (name, want) => {
    expect(schemes.get(name)).toMatchObject({ name, ...want });
  });

  it('lists where apiKeys go: header names in lower case, query and cookie names as written', () => {
    expect(places).toEqual({ header: ['x-api-key'], query: ['api_key'], cookie: ['Session'] });
  });

  it.each([
    [{ type: 'apiKey', in: 'body', name: 'k' }, /"broken": an apiKey scheme needs "in"/],
    [{ type: 'apiKey', in: 'header' }, /"broken": an apiKey scheme needs "in" \(header, query or cookie\) and "name"/],
    [{ type: 'http' }, /"broken": an http scheme needs "scheme"/],
    [{ type: 'http', scheme: 'two words' }, /"broken": an http scheme needs "scheme"/],
    [{ type: 'magic' }, /"broken": type "magic" is none of apiKey/],
  ])('refuses a scheme the specification does not define, in one line: %j', (scheme, message) => {
    const broken = { ...document, components: { securitySchemes: { broken: scheme } } };
    expect(() => readDocumentSecurity(broken as unknown as OpenAPIV3.Document)).toThrow(DocumentError);
    expect(() => readDocumentSecurity(broken as unknown as OpenAPIV3.Document)).toThrow(message);
  });
});

describe('operationSecurity', () => {
  // [name, operation's `security` (or the global one where the operation has none), want]
  it.each<[string, OpenAPIV3.SecurityRequirementObject[] | undefined, ReturnType<typeof shape>]>([
    ['no security at all', undefined, { alternatives: [], anonymous: true, bearerOnly: false }],
    ['security: []', [], { alternatives: [], anonymous: true, bearerOnly: false }],
    ['v1: one bearer', [{ bearer: [] }], { alternatives: [['bearer']], anonymous: false, bearerOnly: true }],
    [
      'an oauth2 token is no v1 bearer',
      [{ oauth: [] }],
      { alternatives: [['oauth']], anonymous: false, bearerOnly: false },
    ],
    [
      'alternatives: any one of them',
      [{ header: [] }, { query: [] }],
      { alternatives: [['header'], ['query']], anonymous: false, bearerOnly: false },
    ],
    [
      'a combination: all of one requirement',
      [{ header: [], cookie: [] }],
      { alternatives: [['header', 'cookie']], anonymous: false, bearerOnly: false },
    ],
    [
      'an empty alternative: anonymous allowed',
      [{ bearer: [] }, {}],
      { alternatives: [['bearer'], []], anonymous: true, bearerOnly: false },
    ],
    [
      'scopes kept to be shown',
      [{ oauth: ['read:pets', 'write:pets'] }],
      { alternatives: [['oauth[read:pets write:pets]']], anonymous: false, bearerOnly: false },
    ],
    [
      'an alternative of unenforced schemes only: served without credentials',
      [{ bearer: [] }, { mtls: [] }],
      { alternatives: [['bearer'], ['mtls']], anonymous: true, bearerOnly: false },
    ],
    [
      'an unenforced scheme beside an enforced one: the other is still required',
      [{ mtls: [], header: [] }],
      { alternatives: [['mtls', 'header']], anonymous: false, bearerOnly: false },
    ],
  ])('%s', (_, requirements, want) => {
    expect(shape(operationSecurity(requirements, schemes, 'op'))).toEqual(want);
  });

  it('takes the operation\'s security over the global one (§4.7.10 "overrides"), and the global one otherwise', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'security-')), 'doc.yaml');
    const ok = { '200': { description: 'ok' } };
    writeFileSync(
      file,
      stringify({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        security: [{ header: [] }],
        paths: {
          '/a': { get: { operationId: 'global', responses: ok } },
          '/b': { get: { operationId: 'own', security: [{ query: [] }], responses: ok } },
          '/c': { get: { operationId: 'open', security: [], responses: ok } },
        },
        components: { securitySchemes: { header: securitySchemes.header, query: securitySchemes.query } },
      }),
    );
    const spec = await loadSpec(file);
    const names = (id: string) => shape(spec.operationById.get(id)!.security).alternatives;
    expect([names('global'), names('own'), names('open')]).toEqual([[['header']], [['query']], []]);
  });

  it('refuses a scheme name the document does not define, in one line naming the operation', () => {
    expect(() => operationSecurity([{ nowhere: [] }], schemes, 'listPets')).toThrow(
      'operation listPets: security scheme "nowhere" is not defined in components.securitySchemes',
    );
  });
});

describe('describeScheme', () => {
  it.each([
    ['header', [], 'header (apiKey in header X-API-Key)'],
    ['oauth', ['read:pets'], 'oauth (oauth2 bearer token; scopes read:pets, shown, not enforced)'],
    ['basic', [], 'basic (HTTP basic)'],
    ['mtls', [], expect.stringMatching(/^mtls \(not enforced: mutualTLS/)],
  ])('%s', (name, scopes, want) => {
    expect(describeScheme({ scheme: schemes.get(name)!, scopes: scopes as string[] })).toEqual(want);
  });
});
