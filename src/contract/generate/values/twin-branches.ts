import type { SchemaNode } from '../../../openapi/schema-keywords.js';
import { gather } from './conjunction.js';

/**
 * Keywords that assert nothing of an instance (JSON Schema 2020-12 Validation §9: meta-data annotations; OAS 3.0.3
 * §4.7.24: `example`, `externalDocs`, `xml`, `discriminator` annotate), and `allOf`, whose parts gather() reads.
 */
const SAYS_NOTHING = new Set([
  'title',
  'description',
  'default',
  'examples',
  'example',
  'deprecated',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
  'allOf',
]);

/**
 * Why a `oneOf` admits no value, when it is so for a reason the document alone gives: each branch asserts exactly
 * what another does (the same schema objects under different names: `ApplicationApprovedEvent` and
 * `ApplicationDeniedEvent`, both `allOf: [BasePurchaseWebhookEvent]` with only a title and description of their
 * own), so a value valid against one is valid against its twin, and JSON Schema 2020-12 Core §10.2.1.3 makes oneOf
 * valid only "if it validates successfully against exactly one schema". A discriminator does not change that: it is
 * an annotation (issue 52 validates a discriminated oneOf as the oneOf it annotates), and the mock reads it so.
 * Undefined when some branch has no twin: whether that branch has a value is for the generators to find.
 * @example twinBranchesReason([approved, denied], names) // 'its branches ApplicationApprovedEvent and … accept …'
 */
export function twinBranchesReason(branches: unknown[], names: Map<unknown, string>): string | undefined {
  if (branches.length < 2) return undefined;
  const asserted = branches.map(assertingParts);
  const twins: [number, number][] = [];
  for (let i = 0; i < branches.length; i++) {
    const twin = asserted.findIndex((other, j) => j !== i && sameParts(asserted[i], other));
    if (twin < 0) return undefined;
    if (twin > i) twins.push([i, twin]);
  }
  const name = (i: number) => names.get(branches[i]) ?? `#${i}`;
  const pairs = twins.map(([i, j]) => `${name(i)} and ${name(j)}`).join('; ');
  return `no value is valid: its branches ${pairs} assert the same schemas, so a value valid against one is valid against the other, and oneOf takes a value valid against exactly one (JSON Schema 2020-12 Core §10.2.1.3)`;
}

/** The parts of a branch (its allOf gathered) that assert something of an instance. */
function assertingParts(branch: unknown): Set<SchemaNode> | undefined {
  const { nodes, never } = gather(branch);
  if (never) return undefined;
  return new Set(
    nodes.filter((node) => Object.keys(node).some((key) => !SAYS_NOTHING.has(key) && !key.startsWith('x-'))),
  );
}

function sameParts(a: Set<SchemaNode> | undefined, b: Set<SchemaNode> | undefined): boolean {
  if (!a || !b || a.size !== b.size) return false;
  for (const node of a) if (!b.has(node)) return false;
  return true;
}
