import { deref, HTTP_METHODS, operationsOf, type Document } from './read-document.js';

/**
 * What a corpus document exercises, found in the document itself (corpus.json lists them, and
 * real-documents-manifest.test.ts checks the list against the file):
 * - each kind of security scheme it declares (OAS 3.1.0 §4.8.27 Security Scheme Object: `type`, `in`, `scheme`);
 * - `recursion`: a schema that refers back to itself through `$ref`s;
 * - `discriminator` / `discriminator-mapping`: a Discriminator Object without, or with, `mapping`;
 * - `problem+json`: a response content of `application/problem+json` (RFC 9457);
 * - `callbacks`, `links`, `webhooks`: non-empty maps of them;
 * - `no-paths`: no `paths` field (allowed from 3.1: OAS 3.1.0 §4.8.1);
 * - `no-responses`: an operation without `responses` (allowed from 3.1: §4.8.10).
 */
export type Feature =
  | 'apiKey-header'
  | 'apiKey-query'
  | 'apiKey-cookie'
  | 'http-bearer'
  | 'http-basic'
  | 'oauth2'
  | 'openIdConnect'
  | 'mutualTLS'
  | 'recursion'
  | 'discriminator'
  | 'discriminator-mapping'
  | 'problem+json'
  | 'callbacks'
  | 'links'
  | 'webhooks'
  | 'no-paths'
  | 'no-responses';

export const REQUIRED_FEATURES: readonly Feature[] = [
  'apiKey-header',
  'apiKey-query',
  'apiKey-cookie',
  'http-bearer',
  'http-basic',
  'oauth2',
  'openIdConnect',
  'recursion',
  'discriminator',
  'discriminator-mapping',
  'problem+json',
  'callbacks',
  'links',
  'webhooks',
  'no-paths',
];

/** The features of `document`, sorted. */
export function documentFeatures(document: Document): Feature[] {
  const found = new Set<Feature>(securityFeatures(document));
  walk(document, [], (node, path) => {
    const key = path[path.length - 1];
    if (key === 'discriminator' && typeof node.propertyName === 'string')
      found.add(node.mapping && typeof node.mapping === 'object' ? 'discriminator-mapping' : 'discriminator');
    if (key === 'content' && 'application/problem+json' in node) found.add('problem+json');
    if (Object.keys(node).length === 0) return;
    // By position, not by name: a schema property called `links` is neither (OAS 3.1.0 §4.8.10, §4.8.17).
    if (key === 'links' && (path[path.length - 3] === 'responses' || path[path.length - 2] === 'components'))
      found.add('links');
    if (key === 'callbacks' && (isMethod(path[path.length - 2]) || path[path.length - 2] === 'components'))
      found.add('callbacks');
  });
  if (Object.keys(document.webhooks ?? {}).length > 0) found.add('webhooks');
  if (document.paths === undefined) found.add('no-paths');
  if (operationsOf(document).some(({ operation }) => operation.responses === undefined)) found.add('no-responses');
  if (hasRecursion(document)) found.add('recursion');
  return [...found].sort();
}

const isMethod = (key: string | undefined) => (HTTP_METHODS as readonly (string | undefined)[]).includes(key);

function securityFeatures(document: Document): Feature[] {
  const schemes = Object.values((document.components?.securitySchemes ?? {}) as Record<string, unknown>);
  return schemes.flatMap((raw): Feature[] => {
    const scheme = deref<Document>(document, raw);
    switch (scheme?.type) {
      case 'apiKey':
        return [`apiKey-${String(scheme.in)}` as Feature];
      case 'http':
        // RFC 9110 §11.1: the scheme name is case-insensitive ("Bearer" is as good as "bearer").
        return [`http-${String(scheme.scheme).toLowerCase()}` as Feature];
      case 'oauth2':
      case 'openIdConnect':
      case 'mutualTLS':
        return [scheme.type];
      default:
        return [];
    }
  });
}

/**
 * Whether a `$ref` target reaches itself again through the `$ref`s inside it: a depth-first search over the graph
 * of local references, each target's own references collected once.
 */
function hasRecursion(document: Document): boolean {
  const refsOf = new Map<string, string[]>();
  const targetRefs = (ref: string): string[] => {
    let refs = refsOf.get(ref);
    if (!refs) {
      refs = [];
      const target = deref(document, { $ref: ref });
      const collected = refs;
      if (target && typeof target === 'object')
        walk(target, [], (node) => {
          if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) collected.push(node.$ref);
        });
      refsOf.set(ref, refs);
    }
    return refs;
  };
  const state = new Map<string, 'open' | 'done'>();
  const cycleFrom = (ref: string): boolean => {
    if (state.get(ref) === 'open') return true;
    if (state.get(ref) === 'done') return false;
    state.set(ref, 'open');
    const found = targetRefs(ref).some(cycleFrom);
    state.set(ref, 'done');
    return found;
  };
  const all: string[] = [];
  walk(document, [], (node) => {
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) all.push(node.$ref);
  });
  return all.some(cycleFrom);
}

/** Calls `visit` on every object of `node`'s tree (arrays walked through), with its key path; each object once. */
export function walk(
  node: unknown,
  path: string[],
  visit: (node: Record<string, any>, path: string[]) => void,
  seen = new Set<object>(),
): void {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  // YAML aliases can make one object appear twice: walk it once.
  seen.add(node);
  if (Array.isArray(node)) {
    node.forEach((item, index) => walk(item, [...path, String(index)], visit, seen));
    return;
  }
  visit(node as Record<string, any>, path);
  for (const [key, value] of Object.entries(node)) walk(value, [...path, key], visit, seen);
}
