import { valueAt } from '../../openapi/resolve-references.js';

/**
 * How many JSON nodes `part` of a bundled document holds once every local `$ref` in it is replaced by a copy of what
 * it names — what a full dereferencer such as prism-http's builds and walks — counting up to `limit` and stopping
 * there. Each reference is counted once and its size reused (so the count costs what the document weighs, not what
 * it expands to); a reference met again inside itself is a recursion, counted as one node, as a dereferencer that
 * detects cycles leaves it. An estimate, sharp enough to tell Box's largest operation (about 10,000 nodes) from
 * each of Stripe's (billions).
 */
export function expandedSize(document: unknown, part: unknown, limit: number): number {
  const sizes = new Map<string, number>();
  const open = new Set<string>();
  const sizeOf = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 1;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) {
      const known = sizes.get(ref);
      if (known !== undefined) return known;
      if (open.has(ref)) return 1;
      open.add(ref);
      const size = sizeOf(valueAt(document, ref));
      open.delete(ref);
      sizes.set(ref, size);
      return size;
    }
    let size = 1;
    for (const value of Object.values(node)) {
      size += sizeOf(value);
      if (size > limit) return size;
    }
    return size;
  };
  return Math.min(sizeOf(part), limit + 1);
}
