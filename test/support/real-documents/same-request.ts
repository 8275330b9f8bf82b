/** An operation of the document: its method in lower case and its path as the document writes it. */
export interface OperationKey {
  method: string;
  path: string;
}

/**
 * The operations whose requests are the very request `operation`'s is, `operation` first: Box writes several
 * operations on one path apart by a fragment (`/shared_items`, `/shared_items#folders`, `/shared_items#web_links`),
 * and RFC 3986 §3.5 says a fragment is never sent to the server, so no request asks for one of them rather than
 * another. An answer valid for any of them answers that request as the document describes it.
 * @example sameRequest(all, { method: 'get', path: '/shared_items#folders' }) // #folders, then /shared_items, …
 */
export function sameRequest(operations: readonly OperationKey[], operation: OperationKey): OperationKey[] {
  const bare = (path: string) => path.split('#')[0]!;
  const others = operations.filter(
    (other) =>
      other.method === operation.method && other.path !== operation.path && bare(other.path) === bare(operation.path),
  );
  return [operation, ...others];
}
