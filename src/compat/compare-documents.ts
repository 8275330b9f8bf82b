import { compareOperation } from './compare-operation.js';
import type { SchemaWalk } from './compare-schemas.js';
import { finding, type Finding } from './finding.js';
import { compareLifecycle, isUnstable, judgeRemoval, stabilityOf, type LifecycleOptions } from './lifecycle.js';
import { listDocumentOperations, type DocumentOperation } from './list-operations.js';
import type { LoadedDocument } from './load-document.js';
import { basePathOf } from '../openapi/spec.js';

/**
 * Every difference between two documents that a client of the old one can meet, each filed under a check id at
 * its level. Descriptions, summaries and examples are not compared: they change no request and no answer.
 * @example compareDocuments(await loadDocument({ path: 'old.yaml' }), await loadDocument({ path: 'openapi.yaml' }), { date: new Date(), minNoticeDays: 180 })
 */
export function compareDocuments(old: LoadedDocument, current: LoadedDocument, options: LifecycleOptions): Finding[] {
  const findings: Finding[] = [...compareBasePaths(old, current)];
  const before = listDocumentOperations(old.bundled);
  const after = listDocumentOperations(current.bundled);
  const unmatched = new Set(after);
  for (const operation of before) {
    const counterpart = pairOf(operation, after, unmatched);
    if (!counterpart) {
      findings.push(judgeRemoval(operation, options));
      continue;
    }
    unmatched.delete(counterpart);
    findings.push(...compareOne(old, current, operation, counterpart, options));
  }
  for (const operation of unmatched) {
    findings.push(
      finding('operation.added', `${operation.label} is a new operation`, {
        operation: operation.label,
        new: operation.node.pointer,
      }),
    );
  }
  return findings;
}

/**
 * The base path every operation's URL starts with (the first server's, OpenAPI 3.0 §4.7.5): changed, every URL a
 * client of the old document builds is gone.
 */
function compareBasePaths(old: LoadedDocument, current: LoadedDocument): Finding[] {
  const was = basePathOf(old.resolved);
  const is = basePathOf(current.resolved);
  if (was === is) return [];
  const where = (document: LoadedDocument) => (document.bundled.servers?.length ? '#/servers/0/url' : '#');
  return [
    finding(
      'server.base-path-changed',
      `every operation moves from the base path ${was || '/'} to ${is || '/'}: each URL a client of the old document builds is gone`,
      { old: where(old), new: where(current) },
    ),
  ];
}

/** The same method and URL shape, or failing that the same operationId somewhere else (a path renamed). */
function pairOf(
  operation: DocumentOperation,
  after: DocumentOperation[],
  unmatched: Set<DocumentOperation>,
): DocumentOperation | undefined {
  return (
    after.find((candidate) => unmatched.has(candidate) && candidate.key === operation.key) ??
    (operation.operationId === undefined
      ? undefined
      : after.find((candidate) => unmatched.has(candidate) && candidate.operationId === operation.operationId))
  );
}

function compareOne(
  old: LoadedDocument,
  current: LoadedDocument,
  before: DocumentOperation,
  after: DocumentOperation,
  options: LifecycleOptions,
): Finding[] {
  const walk: SchemaWalk = {
    oldDocument: old.bundled,
    newDocument: current.bundled,
    operation: after.label,
    findings: [],
    seen: new Set(),
  };
  if (before.key !== after.key) {
    walk.findings.push(
      finding(
        'operation.path-changed',
        `${before.label} is now ${after.label}: a client of the old document calls a URL that is gone`,
        { operation: after.label, old: before.node.pointer, new: after.node.pointer },
      ),
    );
  }
  compareOperation(walk, before, after);
  const lifecycle = compareLifecycle(before, after, options);
  if (!isUnstable(before)) return [...walk.findings, ...lifecycle];
  // Interface §9: an operation marked experimental or beta may change; its changes are reported, never breaking.
  const unstable = walk.findings.map((found) =>
    found.level === 'info'
      ? found
      : {
          ...found,
          check: 'lifecycle.unstable-changed' as const,
          level: 'info' as const,
          message: `${found.message} (${found.check}; the operation is ${stabilityOf(before)} in the old document, which may change without notice)`,
        },
  );
  return [...unstable, ...lifecycle];
}
