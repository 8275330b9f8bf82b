import { deref, type Document } from './read-document.js';
import { NotSendable } from './not-sendable.js';

/** What a request carries to satisfy one security requirement. */
export interface Credentials {
  headers: Record<string, string>;
  query: [string, string][];
  cookies: [string, string][];
}

/**
 * The user name sent with HTTP basic, the configured key being the password. Issue 52 item 3 leaves to the mock how
 * a basic `user:password` is configured; this is the harness's guess, in one place, to change when that is decided.
 */
export const BASIC_USER = 'corpus';

/** Why no credentials can be sent; the operation is then not sendable. */
export class NoCredentials extends NotSendable {}

/**
 * Credentials for the first of the operation's security requirements (its own `security`, else the document's)
 * whose every scheme this harness can send with the mock's configured key (OAS 3.0.3 §4.7.30: "only one of the
 * Security Requirement Objects in the list needs to be satisfied", each of its schemes all at once):
 * apiKey in a header, the query or a cookie; HTTP bearer, and OAuth2 and OpenID Connect tokens as bearer tokens
 * (RFC 6750 §2.1); HTTP basic with BASIC_USER (RFC 7617). mutualTLS and other HTTP schemes cannot be sent.
 */
export function credentialsFor(document: Document, operation: Document, key: string): Credentials {
  const requirements = (operation.security ?? document.security ?? []) as Record<string, string[]>[];
  if (requirements.length === 0) return { headers: {}, query: [], cookies: [] };
  const reasons: string[] = [];
  for (const requirement of requirements) {
    try {
      return satisfy(document, requirement, key);
    } catch (error) {
      if (!(error instanceof NoCredentials)) throw error;
      reasons.push(error.message);
    }
  }
  throw new NoCredentials(`no security requirement can be met: ${reasons.join('; ')}`);
}

function satisfy(document: Document, requirement: Record<string, string[]>, key: string): Credentials {
  const credentials: Credentials = { headers: {}, query: [], cookies: [] };
  for (const name of Object.keys(requirement)) {
    const scheme = deref<Document>(document, document.components?.securitySchemes?.[name]);
    if (!scheme) throw new NoCredentials(`security scheme ${name} is not declared`);
    const authorization = authorizationFor(scheme, key);
    if (authorization !== undefined) {
      if (credentials.headers.authorization !== undefined)
        throw new NoCredentials(`${Object.keys(requirement).join(' and ')} both need the Authorization header`);
      credentials.headers.authorization = authorization;
    } else if (scheme.type === 'apiKey' && scheme.in === 'header')
      credentials.headers[String(scheme.name).toLowerCase()] = key;
    else if (scheme.type === 'apiKey' && scheme.in === 'query') credentials.query.push([String(scheme.name), key]);
    else if (scheme.type === 'apiKey' && scheme.in === 'cookie') credentials.cookies.push([String(scheme.name), key]);
    else
      throw new NoCredentials(
        `security scheme ${name} (${String(scheme.type)}${scheme.scheme ? ` ${String(scheme.scheme)}` : ''}) cannot be sent`,
      );
  }
  return credentials;
}

function authorizationFor(scheme: Document, key: string): string | undefined {
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return `Bearer ${key}`;
  if (scheme.type !== 'http') return undefined;
  // RFC 9110 §11.1: the scheme name is case-insensitive.
  const name = String(scheme.scheme).toLowerCase();
  if (name === 'bearer') return `Bearer ${key}`;
  if (name === 'basic') return `Basic ${Buffer.from(`${BASIC_USER}:${key}`).toString('base64')}`;
  return undefined;
}
