import type { Operation } from '../../openapi/operations.js';

/**
 * The headers a deprecated operation's responses carry, derived from the document once:
 * `Deprecation` (RFC 9745: a structured-field date, `@` and Unix seconds), `Sunset` (RFC 8594: an HTTP-date) and a
 * `Link` to the replacing operation (RFC 8288, relation `successor-version` from RFC 5829).
 * Returns undefined for an operation that is not deprecated.
 */
export function deprecationHeaders(operation: Operation, operations: Map<string, Operation>, basePath: string) {
  if (!operation.deprecated) return undefined;
  const fixed: Record<string, string> = {};
  // RFC 9745 needs a date; with none recorded, the Unix epoch says "deprecated since before any client".
  fixed['Deprecation'] = `@${Math.floor((operation.deprecatedSince?.getTime() ?? 0) / 1000)}`;
  if (operation.sunset) fixed['Sunset'] = operation.sunset.toUTCString();
  const successor = operation.replacedBy ? operations.get(operation.replacedBy) : undefined;
  const successorPath = successor ? basePath + successor.path : undefined;
  // A mock has one mount path (or a few): build each one's headers once, not on every request.
  const byMount = new Map<string, Record<string, string>>();
  /** `mountPath` is where the mock is mounted in a host app ('' when it is the whole app). */
  return function headersFor(mountPath: string): Record<string, string> {
    if (!successorPath) return fixed;
    let headers = byMount.get(mountPath);
    if (!headers) {
      headers = Object.freeze({ ...fixed, Link: `<${mountPath}${successorPath}>; rel="successor-version"` });
      if (byMount.size < 16) byMount.set(mountPath, headers);
    }
    return headers;
  };
}
