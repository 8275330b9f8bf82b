import type { Spec } from './spec.js';

/**
 * A request that shows the API answering, from the document: the list of its first top-level collection (`/pets` in
 * v1), with `limit=size` where the list declares a limit that allows it; else the first GET whose path has no
 * parameter and whose query needs none, a key-secured one first. Undefined when there is none. The runner's probe
 * asks for it (size 1) before a run; the mock's start-up lines offer it as a curl line (size 2).
 */
export function tryPath(spec: Pick<Spec, 'operations' | 'resources'>, size: number): string | undefined {
  const collection = spec.resources.collections.find((c) => c.parent === undefined && c.operations.list);
  if (collection?.operations.list) {
    const limit = collection.limit;
    const fits = limit && (limit.minimum ?? size) <= size && (limit.maximum ?? size) >= size;
    return `${collection.path}${fits ? `?${encodeURIComponent(limit.parameter)}=${size}` : ''}`;
  }
  const plain = spec.operations.filter(
    (o) => o.method === 'get' && !o.path.includes('{') && !o.parameters.some((p) => p.required),
  );
  return (plain.find((o) => !o.security.anonymous) ?? plain[0])?.path;
}
