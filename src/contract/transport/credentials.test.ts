import { describe, expect, it } from 'vitest';
import type { Operation } from '../../openapi/operations.js';
import type { SecurityRequirement, SecurityScheme } from '../../openapi/security.js';
import { chosenRequirement, sendsValidCredentials, unsendableSecurity, validCredentials } from './credentials.js';

// readme's security-multiple.yaml, its schemes as the loader reads them.
const apiKeyHeader: SecurityScheme = { kind: 'apiKey', name: 'apiKey_header', in: 'header', parameter: 'X-API-KEY' };
const basic: SecurityScheme = { kind: 'basic', name: 'basic' };
const bearer: SecurityScheme = { kind: 'bearer', name: 'bearer', type: 'http' };
const oauth2: SecurityScheme = { kind: 'bearer', name: 'oauth2', type: 'oauth2' };
const KEY = 'credentials-key-53';

function securedBy(...alternatives: SecurityScheme[][]): Operation {
  const requirements: SecurityRequirement[] = alternatives.map((a) => a.map((scheme) => ({ scheme, scopes: [] })));
  return {
    id: 'op',
    security: { alternatives: requirements, anonymous: false, bearerOnly: false },
  } as unknown as Operation;
}

describe('a security requirement one request can carry (OAS 3.0.3 §4.7.30; RFC 9110 §11.6.2)', () => {
  it.each([
    [
      'apiKey header, Basic and Bearer at once: nothing can be sent',
      [[apiKeyHeader, basic, oauth2]],
      /Basic \(basic\) and Bearer \(oauth2\)/,
    ],
    ['bearer and oauth2 agree on Bearer <key>', [[bearer, oauth2]], undefined],
    ['a clashing requirement beside one that can be sent', [[oauth2, basic], [apiKeyHeader]], undefined],
    [
      'every requirement clashes',
      [
        [oauth2, basic],
        [basic, bearer],
      ],
      /requirements each need/,
    ],
  ] as const)('%s', (_name, alternatives, want) => {
    const operation = securedBy(...alternatives.map((a) => [...a]));
    const reason = unsendableSecurity(operation, KEY);
    if (want === undefined) {
      expect(reason).toBeUndefined();
      expect(sendsValidCredentials(operation, KEY)).toBe(true);
    } else {
      expect(reason).toMatch(want);
      expect(sendsValidCredentials(operation, KEY)).toBe(false);
    }
  });

  it('chooses the requirement that can be sent whole, and sends every scheme of it', () => {
    const operation = securedBy([oauth2, basic], [oauth2, apiKeyHeader]);
    expect(chosenRequirement(operation, KEY)?.map((r) => r.scheme.name)).toEqual(['oauth2', 'apiKey_header']);
    expect(validCredentials(operation, { apiKey: KEY, headers: {} })).toEqual({
      authorization: `Bearer ${KEY}`,
      headers: { 'X-API-KEY': KEY },
      query: {},
      cookies: {},
    });
  });
});
