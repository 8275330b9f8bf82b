import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Request headers as Node gives them: lower-case names, a repeated header's values joined (set-cookie an array).
 * Node's type only (erased at build): the Web platform's adapter fills the same shape.
 */
export type RequestHeaders = IncomingHttpHeaders;

/**
 * A request body: the server's stream (Node's Readable), or the bytes of a Web `Request` as an async iterable (the
 * in-process adapter, in Node or a browser). The pipeline reads both (read-body.ts); only the type comes from Node.
 */
export type RequestBodySource = Readable | AsyncIterable<Uint8Array>;

/** A request as the front door sees it: no Express, just what HTTP carries. */
export interface MockRequest {
  method: string;
  /** The request target relative to where the mock is mounted, query included: `/v1/pets?limit=5`. */
  url: string;
  headers: RequestHeaders;
  body: RequestBodySource;
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
  /**
   * Calls `done` once the answer has been written to the client's connection (handed to the operating system), or
   * the connection closed before it was (a client cut off, or gone): what the proxy holds for an answer is held
   * until then. Absent where there is no connection (the in-process adapter): the answer is handed over at once.
   */
  whenSent?: ((done: () => void) => void) | undefined;
}
