export interface CorsOptions {
  /** `*` for any origin, or the exact origins allowed (`http://localhost:5173`). */
  origins: '*' | string[];
}

// Headers a browser app must be able to read from responses: where a pet was created, the deprecation notice,
// the auth challenge, and what the proxy says about an answer (its violations, who answered).
const EXPOSED =
  'Location, Deprecation, Sunset, Link, WWW-Authenticate, Allow, Preference-Applied, Petstore-Kit-Violations, Petstore-Kit-Source';
const DEFAULT_ALLOWED_HEADERS = 'Authorization, Content-Type, Prefer';

/**
 * CORS (Fetch standard §3.2) for a browser app on another origin. Preflights are answered before authentication,
 * since browsers never send credentials on them.
 */
export function createCors(options: CorsOptions | false) {
  const allowAll = options !== false && options.origins === '*';
  const allowed = new Set(options === false || options.origins === '*' ? [] : options.origins);

  function allowOrigin(origin: string | undefined): string | undefined {
    if (options === false || origin === undefined) return undefined;
    if (allowAll) return '*';
    return allowed.has(origin) ? origin : undefined;
  }

  return {
    /** Headers for an ordinary response to a request from `origin`. */
    responseHeaders(origin: string | undefined): Record<string, string> | undefined {
      const allow = allowOrigin(origin);
      if (!allow) return undefined;
      const headers: Record<string, string> = {
        'Access-Control-Allow-Origin': allow,
        'Access-Control-Expose-Headers': EXPOSED,
      };
      if (!allowAll) headers['Vary'] = 'Origin';
      return headers;
    },

    /** Headers answering a preflight for a path whose methods are `methods`. */
    preflightHeaders(
      origin: string | undefined,
      methods: string,
      requestHeaders: string | undefined,
    ): Record<string, string> {
      const allow = allowOrigin(origin);
      if (!allow) return allowAll ? {} : { Vary: 'Origin' };
      const headers: Record<string, string> = {
        'Access-Control-Allow-Origin': allow,
        'Access-Control-Allow-Methods': methods,
        // Echo what the browser asks for: an app's own tracing headers should not break the mock.
        'Access-Control-Allow-Headers': requestHeaders?.trim() ? requestHeaders : DEFAULT_ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
      };
      if (!allowAll) headers['Vary'] = 'Origin';
      return headers;
    },
  };
}

export type Cors = ReturnType<typeof createCors>;
