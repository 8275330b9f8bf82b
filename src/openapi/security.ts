import type { OpenAPIV3 } from 'openapi-types';
import { DocumentError } from '../input-errors.js';
import type { CredentialPlaces } from '../redact/credential-places.js';

export type { CredentialPlaces };

/**
 * A Security Scheme Object (OpenAPI 3.0.3 §4.8.27, 3.1 §4.8.27) as the mock checks it and the runner sends it:
 * - `apiKey`: the key as the whole value of a header, a query parameter or a cookie (`in`, `name`);
 * - `bearer`: `Authorization: Bearer <key>` — HTTP `bearer`, and `oauth2` and `openIdConnect`, whose access tokens
 *   are bearer tokens (RFC 6750);
 * - `basic`: `Authorization: Basic base64(user:password)` (RFC 7617);
 * - `token`: another HTTP scheme whose credentials are one token68 (RFC 9110 §11.4), such as `Token <key>`;
 * - `unenforced`: what a mock cannot check (`mutualTLS`, the TLS layer's; HTTP schemes whose credentials answer a
 *   challenge, such as Digest or Negotiate): served without it, and said so (banner, docs).
 */
export type SecurityScheme = ApiKeyScheme | BearerScheme | BasicScheme | TokenScheme | UnenforcedScheme;

export interface ApiKeyScheme {
  kind: 'apiKey';
  /** The scheme's name under `components.securitySchemes`. */
  name: string;
  in: 'header' | 'query' | 'cookie';
  /** The header, query parameter or cookie name, as written. */
  parameter: string;
}

export interface BearerScheme {
  kind: 'bearer';
  name: string;
  /** Where the document declares it: `http` with `scheme: bearer`, `oauth2` or `openIdConnect`. */
  type: 'http' | 'oauth2' | 'openIdConnect';
}

export interface BasicScheme {
  kind: 'basic';
  name: string;
}

export interface TokenScheme {
  kind: 'token';
  name: string;
  /** The auth-scheme word as the document writes it: `Token`. */
  authScheme: string;
}

export interface UnenforcedScheme {
  kind: 'unenforced';
  name: string;
  /** Why the mock cannot check it, for the banner and the docs page. */
  reason: string;
}

/** One scheme of a Security Requirement Object, with the scopes (oauth2, openIdConnect) or roles it lists. */
export interface RequiredScheme {
  scheme: SecurityScheme;
  /** Shown, not enforced: the mock's keys carry no scopes. */
  scopes: readonly string[];
}

/** A Security Requirement Object (§4.8.30): every scheme of it must be satisfied. Empty: anonymous. */
export type SecurityRequirement = readonly RequiredScheme[];

/** What an operation asks of a request's credentials. */
export interface OperationSecurity {
  /**
   * The alternatives, in the document's order: "only one of the Security Requirement Objects in the list needs to
   * be satisfied" (§4.8.30). Empty when nothing is required (no `security`, or `security: []`).
   */
  alternatives: readonly SecurityRequirement[];
  /**
   * True when a request without any credential is served: no requirement, an empty one (`{}`) among the
   * alternatives, or one whose every scheme is unenforced.
   */
  anonymous: boolean;
  /** v1's requirement: one alternative of one HTTP bearer scheme (checked exactly as v1 always was). */
  bearerOnly: boolean;
}

/** The document's schemes, read once: by name, and the places its apiKey schemes read. */
export interface DocumentSecurity {
  schemes: ReadonlyMap<string, SecurityScheme>;
  places: CredentialPlaces;
}

/**
 * HTTP schemes whose credentials are not one token (RFC 9110 §11.4) but answer a challenge, sign the request, or
 * come from the connection: the IANA HTTP Authentication Scheme Registry's, lower case. A mock holding keys has
 * nothing to check them against.
 */
const CHALLENGE_SCHEMES = new Set([
  'digest',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'scram-sha-1',
  'scram-sha-256',
  'vapid',
  'dpop',
  'gnap',
  'privatetoken',
  'concealed',
  'oauth',
  'aws4-hmac-sha256',
]);

/**
 * The document's security schemes (`components.securitySchemes`), each read as the mock checks it. A scheme the
 * specification does not define (no `type`, an apiKey without `in`) is a DocumentError naming it.
 * @example readDocumentSecurity(doc).schemes.get('petstore_auth') // { kind: 'bearer', type: 'oauth2', … }
 */
export function readDocumentSecurity(document: OpenAPIV3.Document): DocumentSecurity {
  const declared = (document.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const schemes = new Map<string, SecurityScheme>();
  for (const [name, object] of Object.entries(declared)) schemes.set(name, readScheme(name, object));
  const apiKeys = [...schemes.values()].filter((s): s is ApiKeyScheme => s.kind === 'apiKey');
  const namesIn = (where: ApiKeyScheme['in']) => [
    ...new Set(apiKeys.filter((s) => s.in === where).map((s) => s.parameter)),
  ];
  return {
    schemes,
    places: {
      header: namesIn('header').map((n) => n.toLowerCase()),
      query: namesIn('query'),
      cookie: namesIn('cookie'),
    },
  };
}

function readScheme(name: string, value: unknown): SecurityScheme {
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const type = object.type;
  const text = (key: string) => {
    const value = object[key];
    return typeof value === 'string' ? value : undefined;
  };
  switch (type) {
    case 'apiKey': {
      const where = object.in;
      const parameter = text('name');
      if ((where !== 'header' && where !== 'query' && where !== 'cookie') || !parameter)
        throw new DocumentError(
          `security scheme "${name}": an apiKey scheme needs "in" (header, query or cookie) and "name" (OpenAPI §4.8.27)`,
        );
      return { kind: 'apiKey', name, in: where, parameter };
    }
    case 'http':
      return httpScheme(name, text('scheme'));
    case 'oauth2':
    case 'openIdConnect':
      // RFC 6750: an OAuth 2.0 access token (OpenID Connect's included) is sent as a bearer token.
      return { kind: 'bearer', name, type };
    case 'mutualTLS':
      return {
        kind: 'unenforced',
        name,
        reason: 'mutualTLS is a client certificate, checked by TLS, which the mock does not ask for',
      };
    default:
      throw new DocumentError(
        `security scheme "${name}": type ${JSON.stringify(type ?? null)} is none of apiKey, http, oauth2, openIdConnect, mutualTLS (OpenAPI §4.8.27)`,
      );
  }
}

function httpScheme(name: string, scheme: string | undefined): SecurityScheme {
  if (!scheme || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(scheme))
    throw new DocumentError(
      `security scheme "${name}": an http scheme needs "scheme", an auth-scheme token such as bearer or basic (RFC 9110 §11.1)`,
    );
  // RFC 9110 §11.1: the auth-scheme is case-insensitive.
  const lower = scheme.toLowerCase();
  // `bearerFormat` (JWT, …) is a hint for documentation (§4.8.27): a key of any form is compared whole.
  if (lower === 'bearer') return { kind: 'bearer', name, type: 'http' };
  if (lower === 'basic') return { kind: 'basic', name };
  if (CHALLENGE_SCHEMES.has(lower))
    return {
      kind: 'unenforced',
      name,
      reason: `HTTP ${scheme} answers a challenge or signs the request; the mock has only keys to compare`,
    };
  return { kind: 'token', name, authScheme: scheme };
}

/**
 * What an operation requires, from its `security` or, when it has none, the document's (§4.7.10: the operation's
 * "overrides any declared top-level security"). A name no scheme has is a DocumentError naming the operation.
 * @example operationSecurity([{ api_key: [] }, {}], schemes, 'listPets').anonymous // true
 */
export function operationSecurity(
  requirements: readonly OpenAPIV3.SecurityRequirementObject[] | undefined,
  schemes: ReadonlyMap<string, SecurityScheme>,
  id: string,
): OperationSecurity {
  const alternatives = (requirements ?? []).map((requirement) =>
    Object.entries(requirement ?? {}).map(([name, scopes]): RequiredScheme => {
      const scheme = schemes.get(name);
      if (!scheme)
        throw new DocumentError(
          `operation ${id}: security scheme "${name}" is not defined in components.securitySchemes`,
        );
      return { scheme, scopes: Array.isArray(scopes) ? scopes.map(String) : [] };
    }),
  );
  const only = alternatives.length === 1 && alternatives[0]!.length === 1 ? alternatives[0]![0]!.scheme : undefined;
  return {
    alternatives,
    anonymous: alternatives.length === 0 || alternatives.some((a) => a.every((r) => r.scheme.kind === 'unenforced')),
    bearerOnly: only?.kind === 'bearer' && only.type === 'http',
  };
}

/** `X-API-Key (apiKey in header)`, `petstore_auth (oauth2 bearer token; scopes read:pets, write:pets)`: for a reader. */
export function describeScheme({ scheme, scopes }: RequiredScheme): string {
  const said = (() => {
    switch (scheme.kind) {
      case 'apiKey':
        return `apiKey in ${scheme.in} ${scheme.parameter}`;
      case 'bearer':
        return scheme.type === 'http' ? 'HTTP bearer' : `${scheme.type} bearer token`;
      case 'basic':
        return 'HTTP basic';
      case 'token':
        return `HTTP ${scheme.authScheme}`;
      case 'unenforced':
        return `not enforced: ${scheme.reason}`;
    }
  })();
  return `${scheme.name} (${said}${scopes.length > 0 ? `; scopes ${scopes.join(', ')}, shown, not enforced` : ''})`;
}
