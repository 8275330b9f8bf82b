/**
 * Where a document's `apiKey` schemes (OpenAPI §4.8.27) put a credential: besides `Authorization`, the places whose
 * values are secrets whatever they hold. Read once from the document (openapi/security.ts).
 */
export interface CredentialPlaces {
  /** Header names, lower case (RFC 9110 §5.1: field names are case-insensitive). */
  readonly header: readonly string[];
  readonly query: readonly string[];
  /** Cookie names as written (RFC 6265 §5.3: case-sensitive). */
  readonly cookie: readonly string[];
}

/** The shortest credential searched for in free text: shorter ones are left to structure, as requestSecrets does. */
const MIN_CREDENTIAL_LENGTH = 4;

/**
 * The values a request carries in the document's credential places (its apiKey headers, query parameters and
 * cookies), whether or not they are valid keys: a mistyped key, or an upstream's behind the proxy, must not reach a
 * log, the journal or a recording either. A query value is given both as URLSearchParams decodes it and with `+`
 * kept (the mock reads it so: stages/read-credential.ts). Values under four characters are left to structure.
 * @example credentialValues({ header: [], query: ['appid'], cookie: [] }, '/v1/notes?appid=wr0ng-key', {}) // ['wr0ng-key']
 */
export function credentialValues(
  places: CredentialPlaces | undefined,
  target: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string[] {
  if (!places || places.header.length + places.query.length + places.cookie.length === 0) return [];
  const found = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.trim().length >= MIN_CREDENTIAL_LENGTH) found.add(value.trim());
  };
  for (const name of places.header) [headers[name] ?? []].flat().forEach(add);
  const queryAt = target.indexOf('?');
  if (places.query.length > 0 && queryAt !== -1) {
    for (const pair of target.slice(queryAt + 1).split('&')) {
      const equals = pair.indexOf('=');
      if (equals === -1 || !places.query.includes(decode(pair.slice(0, equals).replace(/\+/g, ' ')))) continue;
      const raw = pair.slice(equals + 1);
      add(decode(raw));
      add(decode(raw.replace(/\+/g, ' ')));
    }
  }
  if (places.cookie.length > 0) {
    for (const pair of [headers.cookie ?? []].flat().join(';').split(';')) {
      const equals = pair.indexOf('=');
      if (equals !== -1 && places.cookie.includes(pair.slice(0, equals).trim()))
        add(
          pair
            .slice(equals + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1'),
        );
    }
  }
  return [...found];
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
