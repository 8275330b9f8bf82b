import type { ShellValue } from './to-curl.js';

/** The environment variable a reproduction reads the key from (the one `petstore-kit contract` reads too). */
export const KEY_VARIABLE = 'PETSTORE_API_KEY';

/**
 * The variable a reproduction reads an extra header's value (`-H`) from: `X-Gateway-Token` → `PETSTORE_HEADER_X_GATEWAY_TOKEN`.
 * Such values may be a gateway's credentials, so they are never written out.
 */
export function headerVariable(name: string): string {
  return `PETSTORE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/** A form of the key the runner sends (the key, or a near-copy of it as a wrong credential) and its shell expression. */
interface KeyForm {
  text: string;
  shell: string;
}

/**
 * The forms of the key the runner itself puts in the headers it sends, with the POSIX shell expression that makes
 * each from `$PETSTORE_API_KEY`: the key, the key in the other letter case, the key less its last character, and
 * the Basic credential `key:` in base64 (see generate/auth-case.ts). Longest first, so a longer form wins.
 */
export function keyForms(key: string): KeyForm[] {
  const forms: KeyForm[] = [
    { text: key, shell: `\${${KEY_VARIABLE}}` },
    { text: swapCase(key), shell: `$(printf %s "$${KEY_VARIABLE}" | tr a-zA-Z A-Za-z)` },
    { text: key.slice(0, -1), shell: `\${${KEY_VARIABLE}%?}` },
    {
      text: btoa(String.fromCharCode(...new TextEncoder().encode(`${key}:`))),
      shell: `$(printf %s: "$${KEY_VARIABLE}" | base64 | tr -d '\\n')`,
    },
  ];
  const seen = new Set<string>();
  return forms
    .filter((form) => form.text.length > 0 && !seen.has(form.text) && seen.add(form.text))
    .sort((a, b) => b.text.length - a.text.length);
}

/**
 * keyForms, and the forms the runner sends a key in for a scheme other than v1's bearer (credentials.ts): the Basic
 * credential `:key` (an empty user id, the key as the password) and a `user:password` key, in base64; the key with
 * its "+" as %2B, as an apiKey goes out in a query. Longest first.
 */
export function sentKeyForms(key: string): KeyForm[] {
  const forms = keyForms(key);
  const more: KeyForm[] = [
    {
      text: btoa(String.fromCharCode(...new TextEncoder().encode(`:${key}`))),
      shell: `$(printf :%s "$${KEY_VARIABLE}" | base64 | tr -d '\\n')`,
    },
  ];
  if (/^[^:]+:./.test(key))
    more.push({
      text: btoa(String.fromCharCode(...new TextEncoder().encode(key))),
      shell: `$(printf %s "$${KEY_VARIABLE}" | base64 | tr -d '\\n')`,
    });
  if (key.includes('+'))
    more.push({ text: key.replace(/\+/g, '%2B'), shell: `$(printf %s "$${KEY_VARIABLE}" | sed 's/+/%2B/g')` });
  const fresh = more.filter((form) => !forms.some((known) => known.text === form.text));
  return [...forms, ...fresh].sort((a, b) => b.text.length - a.text.length);
}

/**
 * A header value the runner sent, as reports and reproductions show it: masked by structure, not by search. Every
 * occurrence of the key (or a form of it the runner made) becomes the shell expression that rebuilds it from the
 * environment, so the curl runs as written with `PETSTORE_API_KEY` set and sends the same bytes; an extra header's
 * value (`-H`) becomes its own variable. The scheme word of an Authorization value stays as written. Nothing else
 * is rewritten, however short the key: the text around it is the runner's own.
 * @example showHeaderValue('authorization', 'Bearer k', 'k', false) // { parts: ['Bearer ', { shell: '${PETSTORE_API_KEY}' }] }
 */
export function showHeaderValue(name: string, value: string, key: string, extra: boolean): string | ShellValue {
  if (extra) return { parts: [{ shell: `\${${headerVariable(name)}}` }] };
  const forms = key.length > 0 ? sentKeyForms(key) : [];
  const scheme = name.toLowerCase() === 'authorization' ? (/^\S+\s+/.exec(value)?.[0] ?? '') : '';
  const parts: (string | { shell: string })[] = scheme ? [scheme] : [];
  let literal = '';
  for (let at = scheme.length; at < value.length;) {
    const form = forms.find((candidate) => value.startsWith(candidate.text, at));
    if (!form) {
      literal += value[at];
      at += 1;
      continue;
    }
    if (literal) parts.push(literal);
    literal = '';
    parts.push({ shell: form.shell });
    at += form.text.length;
  }
  if (literal) parts.push(literal);
  return parts.some((part) => typeof part !== 'string') ? { parts } : value;
}

/** Swaps the letter case of every letter: a different token (RFC 6750 tokens are case-sensitive). */
export function swapCase(key: string): string {
  return [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
