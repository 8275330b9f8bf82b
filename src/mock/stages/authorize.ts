import type { OperationSecurity } from '../../openapi/security.js';
import { apiError } from '../../errors.js';
import type { AuthFailure } from './authenticate.js';
import type { CredentialSource } from './read-credential.js';
import { createKeyMatchers, schemeCheck, type KeyMatchers, type SchemeCheck } from './scheme-checks.js';

/** The check of one operation's credentials: passes, or throws the 401. */
export type Authorizer = (source: CredentialSource) => void;

/**
 * The builder of every operation's credential check for a mock's keys, their matchers made once. Loaded by the
 * document model only for a document with a requirement other than v1's bearer key (document-model.ts), so that a
 * page serving v1 does not carry it.
 * @example authorizers(runtime.apiKeys)(operation.security)?.({ headers, search })
 */
export function authorizers(keys: readonly string[]): (security: OperationSecurity) => Authorizer | undefined {
  const matchers = createKeyMatchers(keys);
  return (security) => createAuthorizer(security, matchers);
}

/**
 * Builds the credential check of one operation, once per document: undefined when the operation is served without
 * credentials. OpenAPI 3.0.3 §4.8.30: "only one of the Security Requirement Objects in the list needs to be
 * satisfied", and every scheme of that one must be; an unenforced scheme (mutualTLS, Digest) is taken as satisfied.
 * A request that satisfies none gets 401 (RFC 9110 §15.5.2) with a `WWW-Authenticate` challenge for every scheme
 * the operation accepts (§11.6.1), the one the client got wrong carrying the error. No message repeats what was sent.
 * @example createAuthorizer(operation.security, keys)?.({ headers, search: 'api_key=k3y' })
 */
export function createAuthorizer(security: OperationSecurity, keys: KeyMatchers): Authorizer | undefined {
  if (security.anonymous) return undefined;
  const checks = new Map<string, SchemeCheck>();
  const alternatives = security.alternatives.map((alternative) =>
    alternative
      .filter((required) => required.scheme.kind !== 'unenforced')
      .map((required) => {
        let check = checks.get(required.scheme.name);
        if (!check) checks.set(required.scheme.name, (check = schemeCheck(required, keys)));
        return check;
      }),
  );

  return function authorize(source: CredentialSource): void {
    // The alternative the client came closest to: the most credentials it sent; its first refusal is told.
    let closest: { sent: number; failures: [SchemeCheck, AuthFailure][] } | undefined;
    for (const alternative of alternatives) {
      const failures: [SchemeCheck, AuthFailure][] = [];
      let sent = 0;
      for (const check of alternative) {
        const failure = check.check(source);
        if (!failure?.missing) sent += 1;
        if (failure) failures.push([check, failure]);
      }
      if (failures.length === 0) return;
      if (!closest || sent > closest.sent) closest = { sent, failures };
    }
    throw refusal(closest!, alternatives, [...checks.values()]);
  };
}

function refusal(
  closest: { sent: number; failures: [SchemeCheck, AuthFailure][] },
  alternatives: SchemeCheck[][],
  checks: SchemeCheck[],
) {
  const [told, failure] = closest.failures.find(([, f]) => !f.missing) ?? closest.failures[0]!;
  const single = alternatives.length === 1 && alternatives[0]!.length === 1;
  const message =
    closest.sent > 0 || single
      ? failure.message
      : `no credentials were sent; send ${alternatives.map((a) => a.map((c) => c.how).join(' and ')).join(', or ')}`;
  // One header, challenges separated by commas (RFC 9110 §11.6.1); the same challenge of two schemes once.
  const shown = checks.filter((check) => check === told || check.challenge !== told.challenge);
  const challenges = [...new Set(shown.map((check) => (check === told ? failure.challenge : check.challenge)))];
  return apiError('unauthorized', message, { 'WWW-Authenticate': challenges.join(', ') });
}
