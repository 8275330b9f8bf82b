import type { Exchange } from '../base/exchange.js';

/** A response in one short line for "actual: …": `200 application/json, 20 items`, `404 {"code":"not_found",…}`. */
export function describeResponse(exchange: Exchange): string {
  if (exchange.status === undefined) return exchange.error ?? 'no answer';
  const type = exchange.contentType ?? 'no Content-Type';
  if (Array.isArray(exchange.body)) return `${exchange.status} ${type}, ${exchange.body.length} items`;
  // The excerpt is already bounded, escaped and redacted; a shorter cut keeps the line short.
  const text =
    exchange.excerpt.length > 160
      ? `${exchange.excerpt.slice(0, 160).replace(/\\[^\\]{0,5}$/, '')}…`
      : exchange.excerpt;
  return `${exchange.status} ${type}${text ? ` ${text}` : ', empty body'}`;
}
