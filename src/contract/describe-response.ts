import type { Exchange } from './send-request.js';

/** A response in one short line for "actual: …": `200 application/json, 20 items`, `404 {"code":"not_found",…}`. */
export function describeResponse(exchange: Exchange): string {
  if (exchange.status === undefined) return exchange.error ?? 'no answer';
  const type = exchange.contentType ?? 'no Content-Type';
  if (Array.isArray(exchange.body)) return `${exchange.status} ${type}, ${exchange.body.length} items`;
  const text = exchange.text.length > 160 ? `${exchange.text.slice(0, 160)}…` : exchange.text;
  return `${exchange.status} ${type}${text ? ` ${text.replace(/\s+/g, ' ')}` : ', empty body'}`;
}
