import type { Router } from '../../src/mock/front-door/router.js';
import type { Operation } from '../../src/openapi/operations.js';

/** The document's operation a request reaches, as the mock routes it (HEAD as GET, RFC 9110 §9.3.2); else undefined. */
export function operationAt(router: Router, method: string, path: string): Operation | undefined {
  const entry = router.find(path)?.entry;
  return entry?.byMethod.get(method) ?? (method === 'HEAD' ? entry?.byMethod.get('GET') : undefined);
}
