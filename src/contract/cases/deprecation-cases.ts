import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { ContractCase } from '../engine/run-case.js';
import { validRequest, writes } from '../engine/build-request.js';

/**
 * A deprecated operation must still keep its contract (the generic checks judge its response); the headers that
 * announce the deprecation are reported as a note, never a failure, since the interface does not require them:
 * RFC 9745 `Deprecation`, RFC 8594 `Sunset` (compared with the document's `x-sunset`) and RFC 8288 `Link`.
 */
function deprecationCase(operation: Operation): ContractCase {
  return {
    id: `deprecation.headers/${operation.id}`,
    check: 'deprecation.headers',
    operation: operation.id,
    title: `the deprecated ${operation.id} still keeps the contract; its deprecation headers are reported`,
    writes: writes(operation),
    async run(ctx) {
      const sent = await ctx.send(validRequest(ctx.session, operation, 'deprecated'));
      if (sent.status === undefined) return;
      const { deprecation, sunset, link } = sent.headers;
      const parts = [
        deprecation ? `Deprecation: ${deprecation}` : 'no Deprecation header (RFC 9745)',
        sunset ? `Sunset: ${sunset}` : 'no Sunset header (RFC 8594)',
        link ? `Link: ${link}` : 'no Link header',
      ];
      if (sunset && operation.sunset && new Date(sunset).getTime() !== operation.sunset.getTime()) {
        parts.push(`the Sunset date differs from the document's ${operation.sunset.toUTCString()}`);
      }
      ctx.note(
        'deprecation.headers',
        `${operation.id} (deprecated${operation.sunset ? `, removal ${operation.sunset.toISOString().slice(0, 10)}` : ''}) answered ${sent.status}; ${parts.join('; ')}`,
      );
    },
  };
}

export function deprecationCases(spec: Spec): ContractCase[] {
  return spec.operations.filter((o) => o.deprecated).map(deprecationCase);
}
