import { UsageError } from '../../input-errors.js';

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

/** A prefix becomes part of every key: printable, no spaces, short. */
export function checkPrefix(prefix: string): string {
  if (!/^[\x21-\x7e]{1,100}$/.test(prefix)) {
    throw new UsageError(
      `--store-prefix must be 1 to 100 printable characters without spaces (got ${JSON.stringify(prefix.slice(0, 120))})`,
    );
  }
  return prefix;
}

/**
 * Checks a Redis URL before a client sees it, so a mistake is named as a usage error without echoing the URL
 * (which may hold a password): `redis://` or `rediss://`, a host, an optional port and an optional database number.
 */
export function checkRedisUrl(url: string): string {
  const rule = '--store must be redis://[user:pass@]host[:port][/db] (or rediss://…)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${rule}: this one is not a URL`);
  }
  if (!isRedisUrl(url)) throw new UsageError(`${rule}: this one starts with ${JSON.stringify(parsed.protocol)}`);
  if (!parsed.hostname) throw new UsageError(`${rule}: this one names no host`);
  if (!/^(?:\/(?:\d{1,5})?)?$/.test(parsed.pathname))
    throw new UsageError(`${rule}: the database must be a number (${redactRedisUrl(url)})`);
  return url;
}
