import type { Operation } from '../../openapi/operations.js';
import type { Reply } from '../base/reply.js';
import { findResponse } from '../../openapi/operations.js';
import { ApiError, apiError, isApiError } from '../../errors.js';
import { errorTemplate } from '../base/error-template.js';
import {
  exampleNames,
  findExample,
  forcedError,
  rangeServable,
  type ScenarioTable,
  type Servable,
} from '../base/scenario-tables.js';
import { challengesOf } from './challenges.js';
import { MAX_DELAY_MS } from '../base/faults.js';

/** The preferences of an RFC 7240 `Prefer` header that the mock honours (Prism's convention, plus `delay`). */
export interface Preference {
  code?: number;
  example?: string;
  dynamic?: boolean;
  /** `delay=ms`: milliseconds to wait before answering (a petstore-kit extension of Prism's convention). */
  delay?: number;
  /** The first known preference whose value is malformed (`code=40`, `delay=soon`), as written. */
  invalid?: string;
  /** Set by the live control (`PUT /__admin/control`): its `prefer`, as written, which the client never sent. */
  fromControl?: string;
}

const KNOWN = new Set(['code', 'example', 'dynamic', 'delay']);
const NONE: Preference = Object.freeze({});

/**
 * Parses `Prefer: code=404, example=notFound; x=1, dynamic=true` once per request, by RFC 7240 §2: preferences are
 * comma-separated `token [= word]`, each followed by its own `; parameter`s (which belong to it and are ignored
 * here), values may be quoted strings (in which commas and semicolons are data); names are case-insensitive; when
 * a preference appears more than once only the first is considered; unknown preferences are ignored. Several
 * `Prefer` header lines are one list (RFC 9110 §5.3).
 */
export function parsePrefer(header: string | string[] | undefined): Preference {
  if (header === undefined) return NONE;
  const text = Array.isArray(header) ? header.join(',') : header;
  const preference: Preference = {};
  const seen = new Set<string>();
  for (const [name, value] of preferences(text)) {
    if (seen.has(name) || !KNOWN.has(name)) continue;
    seen.add(name);
    if (name === 'code' && value !== undefined && /^\d{3}$/.test(value)) preference.code = Number(value);
    else if (name === 'delay' && value !== undefined && /^\d{1,9}$/.test(value)) preference.delay = Number(value);
    else if (name === 'example' && value) preference.example = value;
    else if (name === 'dynamic' && (value === undefined || value === 'true' || value === 'false'))
      preference.dynamic = value !== 'false';
    else preference.invalid ??= value === undefined ? name : `${name}=${value}`;
  }
  return preference;
}

/** The `name [= value]` heads of a Prefer list, in order; each preference's `;` parameters are skipped. */
function* preferences(text: string): Generator<[string, string | undefined]> {
  let i = 0;
  while (i < text.length) {
    // One list element: the preference, then its parameters, up to a comma outside quotes.
    let head: [string, string | undefined] | undefined;
    let segment = '';
    let first = true;
    const flush = () => {
      if (first) {
        const equals = segment.indexOf('=');
        const name = (equals === -1 ? segment : segment.slice(0, equals)).trim().toLowerCase();
        const raw = equals === -1 ? undefined : segment.slice(equals + 1).trim();
        if (name) head = [name, raw === undefined ? undefined : unquote(raw)];
      }
      first = false;
      segment = '';
    };
    for (; i < text.length; i++) {
      const char = text[i]!;
      if (char === '"') {
        // A quoted-string: copy up to its closing quote, escapes included (RFC 9110 §5.6.4).
        let j = i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        segment += text.slice(i, j + 1);
        i = j;
      } else if (char === ';') flush();
      else if (char === ',') break;
      else segment += char;
    }
    flush();
    i += 1;
    if (head) yield head;
  }
}

function unquote(value: string): string {
  if (value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) return value;
  return value.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** What the negotiator decided for one request. */
export interface Negotiation {
  /** A forced answer from the document (operations with a handler): the handler does not run, the store is untouched. */
  forced?: Reply;
  /** What prism-http is asked for (operations without a handler): it generates the body, never the choice. */
  prism?: {
    code?: number;
    exampleKey?: string;
    dynamic: boolean;
    /** What `Preference-Applied` lists besides `dynamic=true`, which prism-http's caller adds where it applied it. */
    applied?: string;
  };
  /**
   * Added to whatever answers the request: `Preference-Applied` (RFC 7240 §3; for prism-http's operations, written
   * by its caller with `prism.applied`), and a challenge on a forced 401.
   */
  headers?: Record<string, string>;
}

const RULE =
  'code must be a three-digit status the operation documents, delay whole milliseconds from 0 to ' + MAX_DELAY_MS;

/**
 * The one `Prefer` negotiator, for every operation: `code=`, `example=`, `dynamic=` and `delay=` are checked by the
 * same rules against the same scenario table whether the operation has a stateful handler or is served by
 * prism-http. For an operation with a handler a forced status or example is answered from the document instead of
 * the handler; for one without, prism-http is told what to generate. `dynamic` asks for a body generated from the
 * schema, which only prism-http does: it applies to operations without a handler, and (RFC 7240 §2: a preference
 * may be ignored) is not applied, nor listed in Preference-Applied, for the others.
 * Returns undefined when nothing was asked for; throws a 400 `Error` naming the header and the rule.
 */
export function negotiatePrefer(
  operation: Operation,
  table: ScenarioTable,
  preference: Preference,
  hasHandler: boolean,
): Negotiation | undefined {
  if (preference === NONE) return undefined;
  try {
    return negotiate(operation, table, preference, hasHandler);
  } catch (error) {
    // A Prefer the client never sent is not blamed on its header.
    if (preference.fromControl === undefined || !isApiError(error)) throw error;
    throw apiError(
      'invalid_parameter',
      `the live control's prefer (PUT /__admin/control) ${error.message.slice('header.Prefer '.length)}`,
    );
  }
}

/** The header that marks an answer the live control decided (its `prefer` or its `force`). */
export const FORCED_HEADER = 'Petstore-Kit-Forced';

function negotiate(
  operation: Operation,
  table: ScenarioTable,
  preference: Preference,
  hasHandler: boolean,
): Negotiation | undefined {
  if (preference.invalid) throw badPrefer(`${preference.invalid} is malformed`);
  const { code, example, delay } = preference;
  if (delay !== undefined && delay > MAX_DELAY_MS) throw badPrefer(`delay=${delay} is over ${MAX_DELAY_MS}`);
  const dynamic = !hasHandler && preference.dynamic === true;
  const applied: string[] = [];
  let servable: Servable | undefined;
  if (code !== undefined || example !== undefined) {
    servable = choose(operation, table, code, example);
    if (code !== undefined) applied.push(`code=${code}`);
    if (example !== undefined) applied.push(`example=${example}`);
  }
  // `dynamic=true` is not listed here: only the fallback knows whether it generated the body (an operation too large
  // for prism-http is answered from the document, and a generated body its schema refuses is replaced), so it writes
  // Preference-Applied itself for what it serves (RFC 7240 §3: the preferences that were applied).
  if (delay !== undefined) applied.push(`delay=${delay}`);
  if (applied.length === 0 && !dynamic) return undefined;
  const headers: Record<string, string> = {};
  // RFC 9110 §15.5.2: a 401 carries a challenge, forced or not.
  if (servable?.status === 401) headers['WWW-Authenticate'] = challengesOf(operation.security);
  // The client asked for none of it: say where the answer came from.
  if (preference.fromControl !== undefined) headers[FORCED_HEADER] = `live control: prefer ${preference.fromControl}`;
  const list = applied.join(', ');
  if (!hasHandler && (servable !== undefined || dynamic))
    return { headers, prism: { code: servable?.status, exampleKey: example, dynamic, applied: list } };
  if (list) headers['Preference-Applied'] = list;
  if (!hasHandler) return { headers };
  if (!servable) return { headers };
  return { headers, forced: forcedReply(operation, servable, code, example) };
}

/** The documented response a `code=` and/or `example=` asks for; a 400 when the document has none. */
function choose(
  operation: Operation,
  table: ScenarioTable,
  code: number | undefined,
  example: string | undefined,
): Servable {
  if (code !== undefined && !findResponse(operation, code)) {
    throw badPrefer(
      `code=${code}: ${operation.id} documents no ${code} response (documented: ${[...operation.responses.keys()].join(', ')})`,
    );
  }
  const servable =
    code !== undefined ? (table.get(String(code)) ?? rangeServable(table, code)) : findExample(table, example!);
  if (!servable)
    throw badPrefer(
      `example=${example}: ${operation.id} documents no example named "${example}" (documented: ${exampleNames(table)})`,
    );
  if (example !== undefined && !servable.examples.has(example)) {
    throw badPrefer(
      `example=${example}: ${operation.id} documents no example named "${example}" for ${servable.status} (documented: ${[...servable.examples.keys()].join(', ') || 'none'})`,
    );
  }
  return servable;
}

function forcedReply(
  operation: Operation,
  servable: Servable,
  code: number | undefined,
  example: string | undefined,
): Reply {
  const { status } = servable;
  if (example !== undefined) return { status, body: servable.examples.get(example) };
  if (!servable.hasBody) return { status };
  if (servable.fallback !== undefined) return { status, body: servable.fallback };
  // An error status without an example: made up in the document's words (error-template.ts), else our Error shape.
  const template = status >= 400 ? errorTemplate(operation, status) : undefined;
  if (template) {
    const { code: kind, message } = forcedError(status);
    return template.reply(new ApiError(kind, status, message), message);
  }
  if (servable.isError) return { status, body: forcedError(status) };
  throw badPrefer(`code=${code}: ${operation.id} documents no example for ${code}, so the mock has no body to serve`);
}

function badPrefer(problem: string) {
  return apiError('invalid_parameter', `header.Prefer ${problem}; ${RULE}`);
}
