import type { Spec } from '../../openapi/load-spec.js';
import type { Violation } from '../../openapi/describe-errors.js';
import type { ServedRequest } from '../front-door/observers.js';
import type { FinishedReply } from '../base/reply.js';
import type { ContractViolation } from '../../openapi/judge-observed.js';
import { checkResponse } from '../../openapi/check-response.js';
import { apiError } from '../../errors.js';
import { redactKeys, redactUrl } from '../../log/redact-url.js';
import { redactHeader } from '../../log/redact-header.js';
import { redactValue, requestSecrets } from '../../redact/request-secrets.js';
import { credentialValues } from '../../redact/credential-places.js';
import { stringifyJson } from '../../json/stringify-json.js';
import { parseJson } from '../../json/parse-json.js';
import { utf8Text } from '../../json/utf8.js';

/** Which entries to read; every field is optional and they combine with AND. */
export interface JournalFilter {
  /** HTTP method, any case. */
  method?: string;
  /** The request path as sent (`/v1/pets`); a trailing `*` matches a prefix (`/v1/pets/*`). */
  path?: string;
  /** A status (`404`) or a class (`4xx`); `0` matches dropped connections. */
  status?: number | string;
  /** The operationId the request matched. */
  operation?: string;
  /** At most this many entries, newest first. */
  limit?: number;
}

/** One request as the journal shows it. */
export interface JournalEntry {
  /** Increasing from 1 over the mock's life; gaps mean older entries were evicted or cleared. */
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** The answer's status; 0 when the connection was dropped by `faultRate`. */
  status: number;
  fault?: 'connection dropped';
  durationMs: number;
  operationId: string | null;
  /** As received, lower-cased, with credentials redacted (see redact-header.ts: `Bearer [redacted]`, `[redacted]`). */
  requestHeaders: Record<string, string | string[]>;
  /** The parsed request body, when the request got as far as reading it. */
  requestBody?: unknown;
  /** The answer judged against the document with `checkResponse`; null for a dropped connection. */
  validation: { valid: boolean; violations: Violation[] } | null;
  /** Behind the proxy: the contract violations found on this exchange, by check id (absent for a plain mock). */
  violations?: ContractViolation[];
  /** Behind the proxy: who answered, `upstream` or the embedded `mock`. */
  source?: 'upstream' | 'mock';
}

type KeptReply = Pick<FinishedReply, 'status' | 'body' | 'drop'> & {
  headers?: FinishedReply['headers'];
  payload?: FinishedReply['payload'];
};

interface Recorded {
  seq: number;
  at: number;
  /**
   * What an entry needs, without the request's stream (keeping Node's request objects would hold their sockets), in
   * this one object: every record outlives a few young-generation collections, so each object kept is copied twice.
   */
  method: string;
  url: string;
  headers: ServedRequest['request']['headers'];
  mountPath: string;
  operation: ServedRequest['operation'];
  /** The reply as sent; for a JSON answer only its status and value (what an entry shows and the judge reads). */
  reply: KeptReply;
  requestBody: unknown;
  durationMs: number;
  violations: ServedRequest['violations'];
  source: ServedRequest['source'];
  /** The document the request was served under: the answer is judged against it, even after a reload. */
  spec: Spec;
  /** The accepted keys, redacted wherever they appear. */
  keys: readonly string[];
  /** Built on first read, then kept: the exchange never changes. */
  entry?: JournalEntry;
  /** Judged when recorded: a large relayed answer, whose bytes are not kept (see MAX_KEPT_REPLY). */
  validation?: JournalEntry['validation'];
}

export const DEFAULT_JOURNAL_SIZE = 1000;

/** Bodies larger than this (in bytes actually read, chunked ones included) are noted by their size, not kept. */
export const MAX_KEPT_BODY = 4096;
/**
 * An answer relayed by the proxy is raw bytes, up to its `--max-response-bytes` (8 MiB): a full ring of those would
 * hold gigabytes. One larger than this is judged as it is recorded, and its bytes are let go.
 */
export const MAX_KEPT_REPLY = 64 * 1024;
const FILTER_KEYS = ['method', 'path', 'status', 'operation', 'limit'];

/**
 * The request journal (WireMock's idea): a ring buffer of the last `capacity` exchanges. Recording is O(1) and
 * keeps references only; turning an exchange into an entry, including judging the answer against the document,
 * happens when the journal is read, once per entry.
 */
export class Journal {
  readonly capacity: number;
  #ring: (Recorded | undefined)[];
  #seq = 0;
  #size = 0;
  #keys: readonly string[];

  /** `keys`: the accepted keys, redacted wherever they appear in an entry. */
  constructor(capacity = DEFAULT_JOURNAL_SIZE, keys: readonly string[] = []) {
    if (!Number.isSafeInteger(capacity) || capacity < 0)
      throw new RangeError(`journalSize must be a whole number >= 0 (got ${capacity})`);
    this.capacity = capacity;
    this.#ring = new Array<Recorded | undefined>(capacity);
    this.#keys = keys;
  }

  get size(): number {
    return this.#size;
  }

  record(exchange: ServedRequest): void {
    if (this.capacity === 0) return;
    this.#seq += 1;
    const { request, operation, reply, durationMs } = exchange;
    // A full journal of 1 MiB bodies would hold a gigabyte: keep small bodies (a NewPet is tens of bytes), note large
    // ones. The size is what was read, not what Content-Length claimed: a chunked body has none.
    const bytes = exchange.requestBytes ?? 0;
    const requestBody = bytes > MAX_KEPT_BODY ? `[a body of ${bytes} bytes, not kept]` : exchange.requestBody;
    const recorded: Recorded = {
      seq: this.#seq,
      at: Date.now(),
      method: request.method,
      url: request.url,
      headers: request.headers,
      mountPath: request.mountPath,
      operation,
      // A JSON answer is kept as its status and value: its headers and text are not read again, and every object
      // kept here is copied by the collector while the record lives.
      reply: reply.body !== undefined ? { status: reply.status, body: reply.body } : reply,
      requestBody,
      durationMs,
      violations: exchange.violations,
      source: exchange.source,
      spec: exchange.spec,
      keys: this.#keys,
    };
    if (reply.body === undefined && reply.payload !== undefined && reply.payload.length > MAX_KEPT_REPLY) {
      recorded.validation = validationOf(recorded);
      recorded.reply = { status: reply.status, body: reply.body, headers: reply.headers };
    }
    this.#ring[this.#seq % this.capacity] = recorded;
    if (this.#size < this.capacity) this.#size += 1;
  }

  /** Matching entries, newest first. Throws a 400 `invalid_parameter` ApiError for a malformed filter. */
  entries(filter: JournalFilter = {}, where = 'filter'): JournalEntry[] {
    const matches = toMatcher(filter, where);
    const limit = filter.limit ?? this.capacity;
    const found: JournalEntry[] = [];
    for (let i = 0; i < this.#size && found.length < limit; i++) {
      const recorded = this.#ring[(this.#seq - i) % this.capacity]!;
      const entry = (recorded.entry ??= toEntry(recorded));
      if (matches(entry)) found.push(entry);
    }
    return found;
  }

  /** Forgets every entry; returns how many there were. */
  clear(): number {
    const cleared = this.#size;
    this.#ring = new Array<Recorded | undefined>(this.capacity);
    this.#size = 0;
    return cleared;
  }
}

function toEntry(recorded: Recorded): JournalEntry {
  const { seq, at, operation, reply } = recorded;
  // The accepted keys and the request's own credential, wherever they appear: target, headers (names too), body.
  const places = recorded.spec.security.places;
  const credentials = credentialValues(places, recorded.url, recorded.headers);
  const keys = requestSecrets(recorded.keys, recorded.headers.authorization, credentials);
  // The same redaction as the request log: keys anywhere in the target, credential-like query values.
  const url = redactUrl(recorded.url, keys, places.query);
  const queryAt = url.indexOf('?');
  const path = recorded.mountPath + (queryAt === -1 ? url : url.slice(0, queryAt));
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1))) {
    const earlier = query[name];
    query[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  const requestHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (value === undefined) continue;
    requestHeaders[redactKeys(name, keys)] = redactHeader(name, value, keys, places.header);
  }
  const validation = recorded.validation !== undefined ? recorded.validation : validationOf(recorded);
  const entry: JournalEntry = {
    seq,
    time: new Date(at).toISOString(),
    method: recorded.method,
    path,
    query,
    status: reply.status,
    durationMs: Math.round(recorded.durationMs * 100) / 100,
    operationId: operation?.id ?? null,
    requestHeaders,
    validation,
  };
  if (reply.drop) entry.fault = 'connection dropped';
  if (recorded.source) entry.source = recorded.source;
  if (recorded.violations)
    entry.violations = recorded.violations.map(({ check, message }) => ({ check, message: redactKeys(message, keys) }));
  if (recorded.requestBody !== undefined)
    entry.requestBody = redactValue(recorded.requestBody, (text) => redactKeys(text, keys));
  return entry;
}

/** The answer judged against the document it was served under; null for a dropped connection or a relayed HEAD. */
function validationOf({ method, operation, reply, spec }: Recorded): JournalEntry['validation'] {
  // A HEAD answer relayed from another server carries no content to judge (the mock's own keep their body value).
  if (reply.drop || (reply.body === undefined && reply.headers?.['Content-Type'] !== undefined && method === 'HEAD'))
    return null;
  const violations = checkResponse(spec, operation, observedReply(reply));
  return { valid: violations.length === 0, violations };
}

/** What a reply looks like to the judge: a JSON value, or the raw content another server sent (behind the proxy). */
function observedReply(reply: Recorded['reply']) {
  if (reply.body !== undefined || reply.payload === undefined) {
    return {
      status: reply.status,
      contentType: reply.body === undefined ? null : 'application/json',
      body: reply.body,
      text: reply.body === undefined ? '' : stringifyJson(reply.body),
    };
  }
  const text = utf8Text(reply.payload);
  let body: unknown;
  try {
    body = text === '' ? undefined : parseJson(text);
  } catch {
    body = undefined;
  }
  return { status: reply.status, contentType: reply.headers?.['Content-Type'] ?? null, body, text };
}

function toMatcher(filter: JournalFilter, where: string): (entry: JournalEntry) => boolean {
  for (const key of Object.keys(filter)) {
    if (!FILTER_KEYS.includes(key)) throw bad(`${where}.${key} is not a filter; use ${FILTER_KEYS.join(', ')}`);
  }
  const { method, path, status, operation, limit } = filter;
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1))
    throw bad(`${where}.limit must be a whole number >= 1`);
  const upper = method?.toUpperCase();
  const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
  const statusMatch = status === undefined ? undefined : toStatusMatcher(status, where);
  return (entry) =>
    (upper === undefined || entry.method === upper) &&
    (path === undefined || (prefix !== undefined ? entry.path.startsWith(prefix) : entry.path === path)) &&
    (statusMatch === undefined || statusMatch(entry.status)) &&
    (operation === undefined || entry.operationId === operation);
}

function toStatusMatcher(status: number | string, where: string): (status: number) => boolean {
  const text = String(status).toLowerCase();
  if (/^(0|\d{3})$/.test(text)) return (actual) => actual === Number(text);
  if (/^[1-5]xx$/.test(text)) return (actual) => Math.floor(actual / 100) === Number(text[0]);
  throw bad(`${where}.status must be a status like 404, a class like 4xx, or 0 for dropped connections`);
}

function bad(message: string) {
  return apiError('invalid_parameter', message);
}
