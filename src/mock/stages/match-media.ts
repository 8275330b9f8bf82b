import { essenceOf, kindOf, type BodyMedia } from '../../openapi/body-media.js';

/**
 * The declared media type a request's `Content-Type` falls under, or undefined when the operation declares none it
 * fits (a 415). Any JSON type is read by the operation's JSON schema, as the mock always has (`application/json`
 * for a declared `application/problem+json`). Otherwise the most specific key applies (OAS 3.0.3 §4.7.13: "For
 * requests that match multiple keys, only the most specific key is applicable. e.g. text/plain overrides text/*"):
 * the exact type, then its range (`image/*`), then `*∕*`. A range is read by the request's own type.
 */
export function matchMedia(media: readonly BodyMedia[], contentType: string): BodyMedia | undefined {
  const essence = essenceOf(contentType);
  const kind = kindOf(essence);
  if (kind === 'json') {
    const json = media.find((m) => m.kind === 'json');
    if (json) return json;
  }
  const exact = media.find((m) => m.essence === essence);
  if (exact) return exact;
  const range = `${essence.split('/')[0]}/*`;
  const wide = media.find((m) => m.essence === range) ?? media.find((m) => m.essence === '*/*');
  // A range's schema describes every type it covers; the body is read as what it says it is, and not held to it.
  return wide && { ...wide, kind, validate: undefined };
}
