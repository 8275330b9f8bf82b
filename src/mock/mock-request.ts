import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** A request as the front door sees it: no Express, just what HTTP carries. */
export interface MockRequest {
  method: string;
  /** The request target relative to where the mock is mounted, query included: `/v1/pets?limit=5`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Readable;
  /** Where a host app mounted the mock (`/api`), or ''. */
  mountPath: string;
  /** `http` or `https` as the adapter saw it (the docs page builds its server URL from it); default `http`. */
  protocol?: string;
  /** The client's address as the socket saw it (the proxy's `Forwarded`/`X-Forwarded-For`), when known. */
  remoteAddress?: string | undefined;
  /** Aborted when the client goes away before its answer is sent (the proxy then cancels the upstream request). */
  signal?: AbortSignal | undefined;
  /** For `Expect: 100-continue`: asks the client for the body, called once the key and the headers passed. */
  sendContinue?: (() => void) | undefined;
}
