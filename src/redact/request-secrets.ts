/**
 * The secrets to mask in whatever is printed or kept about one request: the accepted keys and the request's own
 * credential, the token of its `Authorization` header. Behind the proxy that token is a key of the upstream; in
 * front of the mock it may be a mistyped key; either way a client that also puts it in the query or the body must
 * not find it in the log, the journal or the recording. A token shorter than four characters is left to structure
 * (the header itself is always redacted): masking `abc` wherever it is written would rewrite ordinary text.
 * `credentials`: what the request carries in the document's apiKey places (credential-places.ts), masked alike.
 * @example requestSecrets(['mock-key'], 'Bearer upstream-key-7f3a') // ['mock-key', 'upstream-key-7f3a']
 */
export function requestSecrets(
  keys: readonly string[],
  authorization: string | string[] | undefined,
  credentials: readonly string[] = [],
): readonly string[] {
  const token = bearerToken(Array.isArray(authorization) ? authorization[0] : authorization);
  // The same array when nothing is added, so that the redactor cache (redact-secrets.ts) finds the keys' one.
  if (credentials.length === 0) return token === undefined || keys.includes(token) ? keys : [...keys, token];
  const added = [token, ...credentials].filter(
    (secret, index, all): secret is string =>
      secret !== undefined && !keys.includes(secret) && all.indexOf(secret) === index,
  );
  return added.length === 0 ? keys : [...keys, ...added];
}

/** The credential after an `Authorization` scheme word, when it is at least four characters long. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^\s*\S+\s+(\S+)/.exec(header);
  return match?.[1] && match[1].length >= 4 ? match[1] : undefined;
}

/**
 * A parsed JSON value (a request body the journal keeps) with `redact` applied to every string in it, property
 * names included; numbers, booleans and null are left as they are. A new value: the one given is not changed.
 */
export function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    // defineProperty: a `__proto__` key stays an ordinary own key, as parse-json.ts gives it.
    Object.defineProperty(out, redact(name), {
      value: redactValue(item, redact),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
