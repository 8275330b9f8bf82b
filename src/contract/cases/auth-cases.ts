import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { ContractCase } from '../engine/run-case.js';
import type { Session } from '../base/session.js';
import { validRequest, writes } from '../engine/build-request.js';

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

/** Every operation the document says needs a bearer key, each way of getting it wrong. */
export function authCases(spec: Spec): ContractCase[] {
  return spec.operations
    .filter((o) => o.security.bearerOnly)
    .flatMap((operation) => variants.map((variant) => authCase(operation, variant)));
}
