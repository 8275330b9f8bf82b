import type { OpenAPIV3 } from 'openapi-types';
import type { Spec } from '../../openapi/load-spec.js';

// RFC 3986 §3.2.2 host (reg-name or IP literal) with an optional port: anything else in a Host header is not put
// into the document, and the server URL falls back to a relative one.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
// Hosts remembered per document; a client inventing Host headers cannot grow the cache past this.
export const MAX_HOSTS = 32;

/**
 * The mock's document as Swagger UI should see it: `servers` replaced by the mock's own base URL, so "try it"
 * talks to this mock and not to production. Rendered once per document and per Host, since the URL depends on
 * the name the browser used (localhost, 127.0.0.1, a LAN address). Keyed by the Spec object, so a reloaded
 * document is rendered afresh.
 */
export function createDocsDocument() {
  const rendered = new WeakMap<Spec, Map<string, string>>();

  return function docsDocument(spec: Spec, protocol: string, host: string | undefined, mountPath: string): string {
    const origin = host && HOST.test(host) ? `${protocol}://${host}` : '';
    const cacheKey = `${origin} ${mountPath}`;
    let byHost = rendered.get(spec);
    if (!byHost) rendered.set(spec, (byHost = new Map<string, string>()));
    const cached = byHost.get(cacheKey);
    if (cached) return cached;
    const document: OpenAPIV3.Document = {
      ...withSecurityNoted(withStatelessNoted(displayedDocument(spec), spec), spec),
      // OpenAPI 3.0 §4.7.5: a relative server URL is resolved against the document's own location.
      servers: [{ url: origin + mountPath + spec.basePath, description: 'this petstore-kit mock' }],
    };
    const json = JSON.stringify(document);
    if (byHost.size >= MAX_HOSTS) byHost.clear();
    byHost.set(cacheKey, json);
    return json;
  };
}

/** The document as written keeps `$ref`s, so Swagger UI shows schema names; one with refs to other files cannot. */
function displayedDocument(spec: Spec): OpenAPIV3.Document {
  return /"\$ref":"(?!#)/.test(JSON.stringify(spec.source)) ? spec.document : spec.source;
}

/** The page's heading for the operations the mock answers without state (the start-up banner lists the same). */
export const STATELESS_HEADING = "Answered from the document's examples, without state (they fit no resource role)";

/**
 * The document with the operations that fit no resource role named, as the start-up banner names them: a list under
 * `info.description` (operation, id and the reason), and a note at the head of each one's description, so nobody
 * takes an answer from examples for a stored one. A document whose every operation has a role is shown as written.
 */
function withStatelessNoted(document: OpenAPIV3.Document, spec: Spec): OpenAPIV3.Document {
  const none = spec.resources.operations.filter((operation) => operation.role === 'none');
  if (none.length === 0) return document;
  const lines = none.map((o) => `- \`${o.method.toUpperCase()} ${o.path}\` (\`${o.operationId}\`): ${o.reason}`);
  const section = `**petstore-kit mock.** ${STATELESS_HEADING}:\n\n${lines.join('\n')}`;
  const paths: OpenAPIV3.PathsObject = { ...document.paths };
  for (const o of none) {
    const item = paths[o.path];
    const operation = item?.[o.method as OpenAPIV3.HttpMethods];
    if (!item || !operation) continue;
    const note = `**petstore-kit mock:** answered from the document's examples, without state: ${o.reason}.`;
    const description = operation.description ? `${note}\n\n${operation.description}` : note;
    paths[o.path] = { ...item, [o.method]: { ...operation, description } };
  }
  const intro = document.info.description;
  return {
    ...document,
    info: { ...document.info, description: intro ? `${intro}\n\n${section}` : section },
    paths,
  };
}

/**
 * The document with what the mock makes of its security schemes said under `info.description`, as the banner says
 * it: the keys are every scheme's credentials, scopes are shown and not enforced, and which schemes are served
 * without a check. A document whose schemes are HTTP bearer only (v1's) is shown as written.
 */
function withSecurityNoted(document: OpenAPIV3.Document, spec: Spec): OpenAPIV3.Document {
  const lines = securityNotes(spec);
  if (lines.length === 0) return document;
  const section = `**petstore-kit mock.** ${lines.join(' ')}`;
  const intro = document.info.description;
  return { ...document, info: { ...document.info, description: intro ? `${intro}\n\n${section}` : section } };
}

/**
 * What the mock makes of the document's schemes, in sentences (the banner and the docs page): none for a document
 * whose schemes are all HTTP bearer, v1's.
 */
export function securityNotes(spec: Pick<Spec, 'security'>): string[] {
  const schemes = [...spec.security.schemes.values()];
  if (schemes.every((s) => s.kind === 'bearer' && s.type === 'http')) return [];
  const notes = [
    "Every security scheme takes the mock's API keys as its credential: a bearer or other token, an apiKey's value, a Basic password with any user name (a key written user:password: that user only).",
  ];
  if (schemes.some((s) => s.kind === 'bearer' && s.type !== 'http'))
    notes.push('OAuth2 and OpenID Connect tokens are bearer tokens; scopes are shown, not enforced.');
  for (const s of schemes)
    if (s.kind === 'unenforced') notes.push(`Not enforced: ${s.name} (${s.reason}); served without it.`);
  return notes;
}

/**
 * The bearer scheme "try it" should fill with the development key, if the document has one.
 * OpenAPI 3.0 §4.8.27: `type: http, scheme: bearer` (the scheme name is case-insensitive, RFC 9110 §11.1).
 */
export function bearerSchemeName(spec: Spec): string | undefined {
  return [...spec.security.schemes.values()].find((s) => s.kind === 'bearer' && s.type === 'http')?.name;
}

/**
 * The schemes "try it" fills with the development key, each space-separated list empty or not: `scheme`, v1's
 * bearer and every apiKey (Swagger UI's preauthorizeApiKey takes both); `basic`, the Basic ones. OAuth2 and
 * OpenID Connect tokens come from their flows in Swagger UI, so they are not filled.
 */
export function devKeySchemes(spec: Spec): { scheme: string; basic: string } {
  const schemes = [...spec.security.schemes.values()];
  return {
    scheme: schemes
      .filter((s) => (s.kind === 'bearer' && s.type === 'http') || s.kind === 'apiKey')
      .map((s) => s.name)
      .join(' '),
    basic: schemes
      .filter((s) => s.kind === 'basic')
      .map((s) => s.name)
      .join(' '),
  };
}

