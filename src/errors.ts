/**
 * Every failure the mock can answer with, in one table. The interface (section 7) fixes the Error shape
 * `{ code, message, status }` with `status` equal to the HTTP status, but not the set of codes: this table is
 * that set, and docs/errors.md lists it.
 */
export const errorKinds = {
  invalid_parameter: 400,
  invalid_body: 400,
  invalid_json: 400,
  bad_request: 400,
  unauthorized: 401,
  cors_refused: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  store_full: 409,
  id_taken: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  headers_too_large: 431,
  internal_error: 500,
  not_implemented: 501,
  upstream_unavailable: 502,
  upstream_violation: 502,
  upstream_outcome_unknown: 502,
  upstream_timeout: 504,
  store_unavailable: 503,
  too_many_connections: 503,
  proxy_overloaded: 503,
} as const;

export type ErrorKind = keyof typeof errorKinds;

/** The interface's Error shape (section 2). */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/** A failure as a value: thrown by any stage, rendered once into the Error shape by the mock's `errorReply`. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: string, status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/**
 * The one factory for errors of a known kind.
 * @example throw apiError('invalid_parameter', 'query.limit must be <= 100')
 */
export function apiError(kind: ErrorKind, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(kind, errorKinds[kind], message, headers);
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Any thrown value as an ApiError; what is not one becomes a 500 that reveals nothing internal. */
export function toApiError(value: unknown): ApiError {
  if (isApiError(value)) return value;
  return apiError('internal_error', 'the mock failed to answer this request');
}
