import type { Spec } from '../openapi/spec.js';
import type { Operation } from '../openapi/operations.js';
import { describeScheme, type RequiredScheme } from '../openapi/security.js';
import { securityNotes } from '../mock/docs/docs-document.js';

/**
 * What the banner says of the document's security beyond v1's HTTP bearer scheme: each scheme the operations
 * require, with every scope listed for it (shown, not enforced), then what the mock makes of them. Nothing for v1.
 * @example securityLines(spec) // ['security: key (apiKey in header X-API-Key)', 'Every security scheme takes …']
 */
export function securityLines(spec: Pick<Spec, 'security' | 'operations'>): string[] {
  const notes = securityNotes(spec);
  if (notes.length === 0) return [];
  const scopes = new Map<string, Set<string>>();
  for (const operation of spec.operations)
    for (const { scheme, scopes: listed } of operation.security.alternatives.flat()) {
      const seen = scopes.get(scheme.name) ?? new Set<string>();
      for (const scope of listed) seen.add(scope);
      scopes.set(scheme.name, seen);
    }
  const described = [...spec.security.schemes.values()]
    .filter((scheme) => scopes.has(scheme.name))
    .map((scheme) => describeScheme({ scheme, scopes: [...scopes.get(scheme.name)!] }));
  return [...(described.length > 0 ? [`security: ${described.join('; ')}`] : []), ...notes];
}

/**
 * The banner's `try:` line for a GET of `url`: curl sending the credentials of the operation's first requirement
 * the mock checks, as each scheme says (v1: `curl -H 'Authorization: Bearer KEY' 'URL'`). `key` is the development
 * key, or a placeholder for configured keys, which are never printed.
 */
export function tryLine(url: string, operation: Operation | undefined, key: string): string {
  const security = operation?.security;
  const requirement = security?.anonymous
    ? []
    : (security?.alternatives.find((a) => a.every((r) => r.scheme.kind !== 'unenforced')) ?? []);
  const options: string[] = [];
  const query: string[] = [];
  for (const required of requirement) sendOption(required, key, options, query);
  const target = query.length === 0 ? url : `${url}${url.includes('?') ? '&' : '?'}${query.join('&')}`;
  // Quoted: an unquoted `?` is a glob to zsh ("no matches found").
  return ['curl', ...options, `'${target}'`].join(' ');
}

function sendOption({ scheme }: RequiredScheme, key: string, options: string[], query: string[]): void {
  switch (scheme.kind) {
    case 'bearer':
      return void options.push(`-H 'Authorization: Bearer ${key}'`);
    case 'token':
      return void options.push(`-H 'Authorization: ${scheme.authScheme} ${key}'`);
    case 'basic':
      // RFC 7617: any user name, the key as the password (curl builds the header).
      return void options.push(`-u 'me:${key}'`);
    case 'apiKey':
      if (scheme.in === 'header') return void options.push(`-H '${scheme.parameter}: ${key}'`);
      if (scheme.in === 'cookie') return void options.push(`-b '${scheme.parameter}=${key}'`);
      return void query.push(`${encodeURIComponent(scheme.parameter)}=${key}`);
    case 'unenforced':
      return;
  }
}
