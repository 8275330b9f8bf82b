import type { OperationSecurity, RequiredScheme } from '../../openapi/security.js';
import { REALM } from './authenticate.js';

/**
 * A scheme's challenge for `WWW-Authenticate` (RFC 9110 §11.6.1), without an error: `Bearer realm="petstore"` (with
 * RFC 6750 §3's `scope`, space-delimited, when the requirement lists scopes: shown, not enforced), `Basic
 * realm="petstore", charset="UTF-8"` (RFC 7617 §2.1), `Token realm="petstore"`. No auth-scheme is registered for an
 * apiKey, so its challenge is `ApiKey` with where to send it as parameters, a syntax RFC 9110 §11.2 allows for any
 * scheme: `ApiKey realm="petstore", in="header", name="X-API-Key"`.
 */
export function challengeOf({ scheme, scopes }: RequiredScheme): string {
  switch (scheme.kind) {
    case 'bearer':
      return scopes.length > 0 ? `${REALM}, scope=${quoted(scopes.join(' '))}` : REALM;
    case 'token':
      return `${scheme.authScheme} realm="petstore"`;
    case 'basic':
      return 'Basic realm="petstore", charset="UTF-8"';
    case 'apiKey':
      return `ApiKey realm="petstore", in="${scheme.in}", name=${quoted(scheme.parameter)}`;
    case 'unenforced':
      return '';
  }
}

/** Every challenge of an operation's enforced schemes, joined (RFC 9110 §11.6.1), each once; v1's realm for none. */
export function challengesOf(security: OperationSecurity): string {
  const all = security.alternatives.flat().map(challengeOf).filter(Boolean);
  return all.length > 0 ? [...new Set(all)].join(', ') : REALM;
}

/** RFC 9110 §5.6.4 quoted-string: `"` and `\` escaped. */
function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, '\\$&')}"`;
}
