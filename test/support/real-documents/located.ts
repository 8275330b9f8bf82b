import { resolvePointer, type Document } from './read-document.js';

/** A node of the document and the JSON pointer (`#/…`) it is at, after following its `$ref`s. */
export interface Located<T = Document> {
  node: T;
  pointer: string;
}

/**
 * One segment of a JSON pointer in a URI fragment: `~` and `/` escaped (RFC 6901 §3), then percent-encoded (RFC 6901
 * §6), as AJV and resolvePointer decode it.
 */
export const escapeSegment = (segment: string): string =>
  encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

export function child(parent: Located, key: string | number): Located<unknown> {
  return {
    node: (parent.node as Record<string, unknown>)[key],
    pointer: `${parent.pointer}/${escapeSegment(String(key))}`,
  };
}

/** Follows Reference Objects from `start` to the object they name, its pointer the last `$ref`'s (at most 20 steps). */
export function follow(document: Document, start: Located<unknown>): Located | undefined {
  let current = start;
  for (let step = 0; step < 20; step++) {
    const node = current.node;
    if (node === null || typeof node !== 'object') return undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string') return current as Located;
    if (!ref.startsWith('#')) return undefined;
    current = { node: resolvePointer(document, ref), pointer: ref };
  }
  return undefined;
}
