/** A request as a copy-pasteable curl command (POSIX shell quoting); the caller passes headers already redacted. */
export function toCurl(method: string, url: string, headers: Record<string, string>, body: string | undefined, options: { compressed?: boolean } = {}): string {
  const parts = ['curl', '-sS', '-i'];
  if (options.compressed) parts.push('--compressed');
  if (method !== 'GET' || body !== undefined) parts.push('-X', method);
  parts.push(quote(url));
  for (const [name, value] of Object.entries(headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}

function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
