import { redactUrl } from './redact-url.js';
import { requestSecrets } from '../redact/request-secrets.js';
import { credentialValues, type CredentialPlaces } from '../redact/credential-places.js';

/**
 * What the log reads of a served request: declared here, so that logging depends on nothing of the mock (the
 * mock's `ServedRequest` has this shape, and more).
 */
export interface LoggedRequest {
  request: {
    method: string;
    url: string;
    mountPath: string;
    headers?: Readonly<Record<string, string | string[] | undefined>>;
  };
  /** The document the request was served under: where its apiKeys go (openapi/security.ts). */
  spec?: { security: { places: CredentialPlaces } };
  reply: { status: number; body?: unknown; drop?: true };
  operation?: { id: string } | undefined;
  durationMs: number;
}

/** One request as a log records it: what was asked, what was answered, how long it took. Never a credential. */
export interface LogEntry {
  /** ISO 8601 time the reply was ready. */
  time: string;
  method: string;
  /** The request target as the client sent it, mount path included, credential-like values redacted. */
  url: string;
  status: number;
  /** Milliseconds from the pipeline's start to the reply, to 0.01 ms. */
  durationMs: number;
  /** The operation the request matched, if any. */
  operationId?: string;
  /** The Error body's `code` when the reply is an Error; `dropped` for a connection dropped by `--fault-rate`. */
  code?: string;
}

export function toLogEntry(exchange: LoggedRequest, keys: readonly string[], now = new Date()): LogEntry {
  const { request, reply, operation } = exchange;
  const places = exchange.spec?.security.places;
  const entry: LogEntry = {
    time: now.toISOString(),
    method: request.method,
    // The request's own credential too: a client may put it in the query as well as in its Authorization header.
    url: redactUrl(request.mountPath + request.url, secretsOf(exchange, keys), places?.query),
    status: reply.status,
    durationMs: Math.round(exchange.durationMs * 100) / 100,
  };
  if (operation) entry.operationId = operation.id;
  const code = errorCode(reply.body);
  if (reply.status >= 400 && code) entry.code = code;
  // A simulated network fault has no status; say what happened instead of printing a bare 0.
  if (reply.drop) entry.code = 'dropped';
  return entry;
}

/** The keys, and the request's own credentials: its Authorization token, its values in the document's apiKey places. */
function secretsOf({ request, spec }: LoggedRequest, keys: readonly string[]): readonly string[] {
  const headers = request.headers ?? {};
  return requestSecrets(keys, headers.authorization, credentialValues(spec?.security.places, request.url, headers));
}

function errorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

// ANSI SGR colours (ECMA-48 §8.3.117): status classes a reader can tell apart at a glance.
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
function statusColour(status: number): string {
  if (status >= 500) return '\x1b[31m';
  if (status >= 400) return '\x1b[33m';
  if (status >= 300) return '\x1b[36m';
  return '\x1b[32m';
}

/**
 * One concise line: `12:03:04.567 GET /v1/pets?limit=2 200 1.23ms`, with the Error code after a failure
 * (`… 400 0.41ms invalid_parameter`).
 */
export function formatText(entry: LogEntry, colour: boolean): string {
  const clock = entry.time.slice(11, 23);
  const ms = `${entry.durationMs.toFixed(2)}ms`;
  const code = entry.code ? ` ${entry.code}` : '';
  if (!colour) return `${clock} ${entry.method} ${entry.url} ${entry.status} ${ms}${code}\n`;
  const paint = statusColour(entry.status);
  return `${DIM}${clock}${RESET} ${BOLD}${entry.method}${RESET} ${entry.url} ${paint}${entry.status}${RESET} ${DIM}${ms}${RESET}${code && `${paint}${code}${RESET}`}\n`;
}

/** One JSON object a line (JSON Lines), for machines. */
export function formatJson(entry: LogEntry): string {
  return `${JSON.stringify(entry)}\n`;
}
