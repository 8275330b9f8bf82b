/**
 * RFC 7396 §2, the MergePatch function: a patch that is an object changes its target member by member (null removes
 * the member, an object is merged into the member recursively, any other value replaces it); any other patch
 * replaces the target whole. Used to know what item a merge patch would leave, never to judge the patch itself.
 * @example applyMergePatch({ name: 'Rex', tag: 'a' }, { tag: null }) // { name: 'Rex' }
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = applyMergePatch(result[name], value);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
