import type { SchemaWalk } from './compare-schemas.js';
import { finding } from './finding.js';
import { follow, member, type Located } from './json-pointer.js';
import type { DocumentOperation } from './list-operations.js';

/**
 * The security an operation requires, as a client must satisfy it (OpenAPI 3.0 §4.8.30): alternatives, each the
 * schemes (by what they are, not their names: a scheme renamed is the same credential) and scopes it needs. An
 * empty alternative, or none at all, lets a client call without credentials.
 */
function requirementsOf(
  document: unknown,
  operation: DocumentOperation,
): { alternatives: string[]; anonymous: boolean; node: Located | undefined } {
  const root = { value: document, pointer: '#' };
  const node = member(operation.node, 'security') ?? member(root, 'security');
  const list = Array.isArray(node?.value) ? (node.value as Record<string, string[]>[]) : [];
  const schemes = member(member(root, 'components'), 'securitySchemes');
  const describe = (name: string, scopes: string[]) => {
    const scheme = follow(document, member(schemes, name))?.value as Record<string, unknown> | undefined;
    const what = scheme
      ? [scheme.type, scheme.scheme, scheme.in, scheme.name]
          .filter((part) => part !== undefined)
          .map(String)
          .join(' ')
          .toLowerCase()
      : `undefined scheme ${name}`;
    return scopes.length ? `${what} [${[...scopes].sort().join(', ')}]` : what;
  };
  const alternatives = list.map((requirement) =>
    Object.entries(requirement)
      .map(([name, scopes]) => describe(name, scopes ?? []))
      .sort()
      .join(' + '),
  );
  return { alternatives, anonymous: alternatives.length === 0 || alternatives.includes(''), node };
}

export function compareSecurity(walk: SchemaWalk, before: DocumentOperation, after: DocumentOperation): void {
  const was = requirementsOf(walk.oldDocument, before);
  const is = requirementsOf(walk.newDocument, after);
  const where = {
    operation: walk.operation,
    old: was.node?.pointer ?? before.node.pointer,
    new: is.node?.pointer ?? after.node.pointer,
  };
  const named = (alternatives: string[]) => alternatives.filter(Boolean).join(' or ');
  if (was.anonymous && !is.anonymous) {
    walk.findings.push(
      finding(
        'security.requirement-added',
        `${walk.operation}: requires ${named(is.alternatives)}; a client of the old document calls it without credentials and is refused`,
        where,
      ),
    );
    return;
  }
  if (is.anonymous) {
    if (!was.anonymous)
      walk.findings.push(
        finding('security.requirement-relaxed', `${walk.operation}: may be called without credentials`, where),
      );
    return;
  }
  const lost = was.alternatives.filter((alternative) => !is.alternatives.includes(alternative));
  if (lost.length) {
    walk.findings.push(
      finding(
        'security.requirement-changed',
        `${walk.operation}: requires ${named(is.alternatives)}, no longer ${named(lost)}: a client's credentials of the old document are refused`,
        where,
      ),
    );
    return;
  }
  if (is.alternatives.some((alternative) => !was.alternatives.includes(alternative))) {
    walk.findings.push(
      finding(
        'security.requirement-relaxed',
        `${walk.operation}: also accepts ${named(is.alternatives.filter((a) => !was.alternatives.includes(a)))}`,
        where,
      ),
    );
  }
}
