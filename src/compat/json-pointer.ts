/** A value of a bundled document and the JSON pointer (RFC 6901, as a URI fragment: `#/paths/~1pets`) where it is written. */
export interface Located {
  value: unknown;
  pointer: string;
}

/**
 * RFC 6901 §3: `~` and `/` in a key are written `~0` and `~1`; §6: in a URI fragment, characters a fragment cannot
 * hold are percent-encoded (`/pets/{petId}` → `~1pets~1%7BpetId%7D`, as swagger-parser writes a `$ref`).
 */
function escapeKey(key: string): string {
  return key
    .replace(/~/g, '~0')
    .replace(/\//g, '~1')
    .replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/g, (char) => encodeURIComponent(char));
}

/** The member `key` of a located object, or undefined when there is none. */
export function member(node: Located | undefined, key: string | number): Located | undefined {
  if (!node || typeof node.value !== 'object' || node.value === null) return undefined;
  const value = (node.value as Record<string, unknown>)[key];
  if (value === undefined) return undefined;
  return { value, pointer: `${node.pointer}/${escapeKey(String(key))}` };
}

/**
 * Follows `$ref`s inside the document (a bundled document has no others) to what they point to, so that the pointer
 * names where the thing is written: `#/components/schemas/Pet`, not the place that refers to it.
 */
export function follow(document: unknown, node: Located | undefined): Located | undefined {
  let current = node;
  for (let hops = 0; current && hops < 64; hops++) {
    const ref = refOf(current.value);
    if (ref === undefined) return current;
    current = at(document, ref);
  }
  return current;
}

function refOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const ref = (value as { $ref?: unknown }).$ref;
  return typeof ref === 'string' && ref.startsWith('#') ? ref : undefined;
}

/** The value at a `#/…` pointer, or undefined (the loader already refused a document whose references do not resolve). */
function at(document: unknown, pointer: string): Located | undefined {
  let value: unknown = document;
  for (const raw of pointer.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value === undefined ? undefined : { value, pointer };
}
