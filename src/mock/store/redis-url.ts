/**
 * A Redis URL for printing: user and password replaced by `***`, so a banner, log line or error never shows them.
 * @example redactRedisUrl('redis://app:s3cret@cache:6379/2') // 'redis://***@cache:6379/2'
 */
export function redactRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an invalid Redis URL)';
  }
  const auth = parsed.username || parsed.password ? '***@' : '';
  return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

/** Whether `value` names a Redis store (`redis://` or `rediss://`) rather than `memory`. */
export function isRedisUrl(value: string): boolean {
  return /^rediss?:\/\//i.test(value);
}
