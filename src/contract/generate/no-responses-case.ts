import type { Operation } from '../../openapi/operations.js';
import { generatedCase, type GeneratedContractCase } from './generated-case.js';

/**
 * Why an operation that declares no responses is not sent. OpenAPI 3.1 §4.8.10 (Operation Object) makes `responses`
 * optional, and then the document says nothing of what the operation answers: no status, no body a check could hold
 * an answer to. The mock answers such a request 501 (RFC 9110 §15.6.2: it does not support what the request needs,
 * and says so in one line); a runner that sent it would judge that honest answer by rules the document never gave.
 * docs/contract.md quotes this reason.
 */
export const NO_RESPONSES_REASON =
  'the document declares no responses for it (OpenAPI 3.1 §4.8.10: responses is optional), so no answer could be judged';

/** Whether the document declares no response at all for `operation` (no code, no range, no `default`). */
export function declaresNoResponses(operation: Operation): boolean {
  return operation.responses.size === 0;
}

/** The case that names such an operation as not sent, with the document's reason, and sends nothing. */
export function noResponsesCase(operation: Operation): GeneratedContractCase {
  return generatedCase(
    {
      id: `generated.valid-accepted/${operation.id}`,
      check: 'generated.valid-accepted',
      operation: operation.id,
      title: `${operation.id}: no request sent (no responses declared)`,
      writes: false,
    },
    (ctx) => ctx.skip(`not sent: no request to ${operation.id} could be built: ${NO_RESPONSES_REASON}`),
  );
}
