import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** An OpenAPI document as parsed, read apart from the kit's own loader. */
export type Document = Record<string, any>;

/**
 * Parses a corpus document by itself (the `yaml` package, or JSON.parse for `.json`), never through the kit's
 * loader: what the tests judge the mock with must not share the mock's reading of the document.
 */
export function readDocument(path: string): Document {
  const text = readFileSync(path, 'utf8');
  // YAML 1.2 is a superset of JSON, but JSON.parse reads a 4 MB description in a fraction of the time.
  const parsed: unknown = path.endsWith('.json') ? JSON.parse(text) : parse(text, { maxAliasCount: -1 });
  return parsed !== null && typeof parsed === 'object' ? parsed : { value: parsed };
}

/** The value a local `$ref` (`#/a/b~1c`) names in `document`, or undefined (RFC 6901 unescaping). */
export function resolvePointer(document: Document, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows `$ref` (OpenAPI Reference Objects) until an object that is not one, at most 20 steps. */
export function deref<T = any>(document: Document, value: unknown): T | undefined {
  let node = value;
  for (let step = 0; step < 20; step++) {
    if (node === null || typeof node !== 'object') return node as T | undefined;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== 'string') return node as T;
    node = resolvePointer(document, ref);
  }
  return undefined;
}

/** Every operation of `paths`, in document order: the method in lower case and the path item's template. */
export function operationsOf(
  document: Document,
): { method: string; path: string; operation: Document; item: Document }[] {
  const found = [];
  const paths = (document.paths ?? {}) as Record<string, unknown>;
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref<Document>(document, rawItem) ?? {};
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Document | undefined;
      if (operation && typeof operation === 'object') found.push({ method, path, operation, item });
    }
  }
  return found;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
