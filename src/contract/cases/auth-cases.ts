import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { CaseContext, ContractCase, Sent } from '../engine/run-case.js';
import type { Session } from '../base/session.js';
import { validRequest, writes } from '../engine/build-request.js';
import { judgesAuth, refusableRequest, refusedCredentials } from '../engine/auth-variants.js';

/** Ways to send no valid credentials (interface §5, RFC 6750 §3): each must get 401 with an Error body. */
const variants: [string, string, (session: Session) => string | null][] = [
  ['no-header', 'no Authorization header', () => null],
  // The real key under another scheme: a target that only compares the token would let it through.
  ['wrong-scheme', 'the valid key under the scheme "Token"', (session) => `Token ${session.config.apiKey}`],
  ['empty-token', 'an empty bearer token', () => 'Bearer '],
  ['invalid-token', 'an unknown bearer token', (session) => `Bearer contract-invalid-${session.config.runId}`],
];

function authCase(operation: Operation, [label, description, authorization]: (typeof variants)[number]): ContractCase {
  return {
    id: `auth.required/${operation.id}/${label}`,
    check: 'auth.required',
    operation: operation.id,
    title: `${operation.id} with ${description} gets 401`,
    writes: writes(operation),
    async run(ctx) {
      const request = {
        ...validRequest(ctx.session, operation, `auth-${label}`),
        authorization: authorization(ctx.session),
      };
      const sent = await ctx.send(request);
      // Judged on the status even when the answer also broke the document: a 400 text/plain is an auth failure too.
      ctx.verifyStatus('auth.required', sent, sent.status === 401, '401 with an Error');
    },
  };
}

/**
 * Every operation the document says needs credentials, each way of getting them wrong: v1's bearer key as v1's
 * four cases, every other requirement scheme by scheme (engine/auth-variants.ts).
 */
export function authCases(spec: Spec): ContractCase[] {
  return spec.operations.flatMap((operation) => {
    if (operation.security.bearerOnly) return variants.map((variant) => authCase(operation, variant));
    if (!judgesAuth(operation)) return [];
    return schemeCases(operation);
  });
}

/**
 * The cases of an operation with another requirement: one per way of sending no valid credentials. The ways depend
 * on the key and the -H headers, so the case list names them from a key-free reading: the labels are the same for
 * every key (auth-variants.ts builds them from the scheme names only).
 */
function schemeCases(operation: Operation): ContractCase[] {
  const labels = refusedCredentials(operation, { apiKey: 'k', headers: {} }, 'run');
  return labels.map(({ label, description }) => ({
    id: `auth.required/${operation.id}/${label}`,
    check: 'auth.required',
    operation: operation.id,
    title: `${operation.id} with ${description} is refused`,
    writes: writes(operation),
    async run(ctx) {
      const { session } = ctx;
      const variant = refusedCredentials(operation, session.config, session.config.runId).find(
        (v) => v.label === label,
      );
      if (!variant) return ctx.skip(`with this key and these -H headers, ${description} would be a valid credential`);
      const { request, valid } = refusableRequest(session, operation, `auth-${label}`);
      const sent = await ctx.send({ ...request, credentials: variant.credentials });
      judgeRefusal(ctx, operation, sent, valid);
    },
  }));
}

/**
 * RFC 9110 §15.5.2: a request without valid credentials gets 401; 403 too where the operation declares it (the
 * document's choice: §15.5.4 lets a server refuse credentials it finds insufficient so). Any 2xx or 3xx served it.
 * Another 4xx is judged only for a request valid but for its credentials: the order in which a server checks
 * credentials and input is not the document's to fix.
 */
function judgeRefusal(ctx: CaseContext, operation: Operation, sent: Sent, valid: boolean): void {
  const forbidden = operation.responses.has('403');
  const refused = sent.status === 401 || (forbidden && sent.status === 403);
  const expected = forbidden ? '401 (or the 403 the document declares)' : '401 (RFC 9110 §15.5.2)';
  if (!refused && !valid && sent.status !== undefined && sent.status >= 400 && sent.status < 500) {
    ctx.note(
      'auth.required',
      `${operation.id}: ${sent.status} for a request the runner cannot vouch for but its credentials; not judged`,
    );
    return;
  }
  ctx.verifyStatus('auth.required', sent, refused, expected);
}
