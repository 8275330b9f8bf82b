import { specOf, type Spec } from '../openapi/spec.js';
import { buildResourceModel } from '../openapi/resource-model.js';
import { compilerOf } from '../openapi/load-spec.js';
import { findResponse, type Operation } from '../openapi/operations.js';
import type { RequiredScheme } from '../openapi/security.js';
import { describeErrors, joinMessages } from '../openapi/describe-errors.js';
import { parseParameters } from '../mock/stages/parse-parameters.js';
import { DocumentError } from '../input-errors.js';
import { oneLine } from '../openapi/spec.js';
import { finding, type Finding, type RecordedRequest } from './finding.js';
import { day } from './lifecycle.js';
import type { LoadedDocument } from './load-document.js';
import type { RecordedExchange } from './read-journal.js';

/** What replaying a journal found, and how much of it could be replayed. */
export interface JournalReplay {
  file: string;
  /** Entries in the file. */
  entries: number;
  /** Entries that matched an operation of the old document and were replayed against the new one. */
  replayed: number;
  findings: Finding[];
}

/** How many of a finding's recorded requests it shows, beside the count of all. */
export const MAX_EXAMPLES = 3;
/** Past this many groups, new findings are grouped by check and operation alone: memory stays bounded. */
const MAX_GROUPS = 1000;

/**
 * Replays a client's recorded exchanges against the new document with the mock's own validators: which requests it
 * would refuse that the old one accepted, which recorded answers it no longer promises (the status, or a property
 * whose schema changed in a way that breaks a reader — `differences` are the document comparison's findings), and
 * which operations the client still calls that are deprecated or gone, with their sunset.
 */
export function replayJournal(
  file: string,
  exchanges: Iterable<RecordedExchange>,
  old: LoadedDocument,
  current: LoadedDocument,
  differences: Finding[],
): JournalReplay {
  const replayer = new JournalReplayer(file, old, current, differences);
  for (const exchange of exchanges) replayer.add(exchange);
  return replayer.result();
}

/**
 * The replay one exchange at a time, for a journal read as a stream: what it keeps is one finding per check,
 * operation and change (with a count and a few requests), never one per request.
 * @example const replayer = new JournalReplayer(file, old, current, findings); for await (const e of readJournalFile(file)) replayer.add(e)
 */
export class JournalReplayer {
  private readonly before: Spec;
  private readonly after: Spec;
  private readonly groups = new Map<string, Finding>();
  private entries = 0;
  private replayed = 0;

  constructor(
    private readonly file: string,
    old: LoadedDocument,
    current: LoadedDocument,
    private readonly differences: Finding[],
  ) {
    this.before = modelOf(old);
    this.after = modelOf(current);
  }

  add(exchange: RecordedExchange): void {
    this.entries += 1;
    const found = replayOne(exchange, this.before, this.after, this.differences);
    if (found === undefined) return;
    this.replayed += 1;
    for (const one of found) this.keep(one);
  }

  result(): JournalReplay {
    // In the journal's order (oldest first), as one finding per request was.
    const findings = [...this.groups.values()].sort((a, b) => a.request!.seq - b.request!.seq);
    return { file: this.file, entries: this.entries, replayed: this.replayed, findings };
  }

  /**
   * Grouped by check, operation and what the message says after naming the request (the change, the reason). A
   * journal may be saved newest first (journal()): a group keeps its oldest requests, and is shown by the oldest.
   */
  private keep(one: Finding): void {
    const request = one.request!;
    const change = one.message.slice(describe(request).length);
    const exact = `${one.check}\u0000${one.operation ?? ''}\u0000${change}`;
    const key =
      this.groups.size < MAX_GROUPS || this.groups.has(exact) ? exact : `${one.check}\u0000${one.operation ?? ''}`;
    const group = this.groups.get(key);
    if (!group) {
      this.groups.set(key, { ...one, count: 1, examples: [request] });
      return;
    }
    const examples = [...group.examples!, request].sort((a, b) => a.seq - b.seq).slice(0, MAX_EXAMPLES);
    const count = group.count! + 1;
    Object.assign(group, request.seq < group.request!.seq ? { ...one, count, examples } : { count, examples });
  }
}

/** One recorded exchange replayed: its findings; undefined when it reached no operation of the old document. */
function replayOne(
  exchange: RecordedExchange,
  before: Spec,
  after: Spec,
  differences: Finding[],
): Finding[] | undefined {
  const path = relativePath(exchange.path, before.basePath);
  const was =
    (exchange.operationId === null ? undefined : before.operationById.get(exchange.operationId)) ??
    route(before, exchange.method, path)?.operation;
  if (!was || path === undefined) return undefined;
  const request = recorded(exchange);
  // The URL the client sent, under the new document's base path: a base path changed moves every operation.
  const routed = route(after, exchange.method, relativePath(exchange.path, after.basePath));
  if (!routed) {
    const movedTo = before.basePath === after.basePath ? undefined : after.basePath;
    return [removedCall(was, request, movedTo)];
  }
  const { operation: is, parameters } = routed;
  const label = labelOf(is);
  const found: Finding[] = [];
  const refusal = refusalOf(is, exchange, parameters);
  if (
    refusal !== undefined &&
    refusalOf(was, exchange, route(before, exchange.method, path)?.parameters ?? {}) === undefined
  ) {
    found.push(
      finding('journal.request-refused', `${describe(request)} would be refused by ${label}: ${refusal}`, {
        operation: label,
        request,
      }),
    );
  }
  if (exchange.status > 0) found.push(...answerFindings(was, is, label, exchange.status, request, differences));
  if (is.deprecated) found.push(deprecatedCall(is, label, request));
  return found;
}

function deprecatedCall(is: Operation, label: string, request: RecordedRequest): Finding {
  const until = is.sunset ? `until ${day(is.sunset)} (x-sunset), then it is removed` : 'with no x-sunset date stated';
  return finding(
    'journal.deprecated-call',
    `${describe(request)} calls ${label}, deprecated ${until}${is.replacedBy ? `; its replacement is ${is.replacedBy}` : ''}`,
    { operation: label, request },
  );
}

/** The project's document model of one side, its validators compiled with the one AJV setup the mock uses. */
function modelOf(document: LoadedDocument): Spec {
  try {
    return specOf(document, document.label, compilerOf(document).compile, buildResourceModel);
  } catch (error) {
    throw new DocumentError(`cannot replay the journal against ${document.label}: ${oneLine(error)}`);
  }
}

/** The recorded path under the document's base path (`/v1/pets/1` → `/pets/1`); undefined when it is not under it. */
function relativePath(path: string, basePath: string): string | undefined {
  if (basePath === '') return path;
  const at = path.indexOf(basePath);
  if (at === -1) return undefined;
  const rest = path.slice(at + basePath.length);
  return rest === '' || rest.startsWith('/') ? rest || '/' : undefined;
}

/** The operation a method and path reach in a document, and the path parameters' raw values. */
function route(
  spec: Spec,
  method: string,
  path: string | undefined,
): { operation: Operation; parameters: Record<string, string> } | undefined {
  if (path === undefined) return undefined;
  const segments = path.split('/');
  for (const operation of spec.operations) {
    if (operation.method.toUpperCase() !== method) continue;
    const template = operation.path.split('/');
    if (template.length !== segments.length) continue;
    const parameters: Record<string, string> = {};
    const matches = template.every((part, index) => {
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name === undefined) return part === segments[index];
      if (segments[index] === '') return false;
      parameters[name] = decodeURIComponent(segments[index]!);
      return true;
    });
    if (matches) return { operation, parameters };
  }
  return undefined;
}

/** Why `operation` refuses the recorded request (credentials, parameters, body), or undefined when it accepts it. */
function refusalOf(operation: Operation, exchange: RecordedExchange, path: Record<string, string>): string | undefined {
  const missing = missingCredentials(operation, exchange);
  if (missing) return missing;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(exchange.query))
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, one);
  try {
    parseParameters(operation, { query, path, headers: exchange.requestHeaders });
  } catch (error) {
    return (error as Error).message;
  }
  const body = operation.body;
  if (!body) return undefined;
  // A body the journal noted by its size only (over 4 KiB) cannot be judged here.
  if (typeof exchange.body === 'string' && /^\[a body of \d+ bytes, not kept\]$/.test(exchange.body)) return undefined;
  if (exchange.body === undefined) return body.required ? 'it sends no body, and the body is required' : undefined;
  if (body.validate && !body.validate(exchange.body)) return joinMessages(describeErrors(body.validate.errors, 'body'));
  return undefined;
}

/**
 * Why the recorded request satisfies none of the operation's security requirements (OpenAPI §4.8.30), or undefined.
 * The journal redacts credentials but keeps whether they were sent: a header, a query parameter, a `Cookie` header
 * (whose names are redacted with it). An unenforced scheme (mutualTLS) is not asked for.
 */
function missingCredentials(operation: Operation, exchange: RecordedExchange): string | undefined {
  const { security } = operation;
  if (security.anonymous) return undefined;
  const headers = exchange.requestHeaders;
  const sent = ({ scheme }: RequiredScheme): boolean => {
    if (scheme.kind === 'unenforced') return true;
    if (scheme.kind !== 'apiKey') return headers.authorization !== undefined;
    if (scheme.in === 'query') return exchange.query[scheme.parameter] !== undefined;
    return headers[scheme.in === 'cookie' ? 'cookie' : scheme.parameter.toLowerCase()] !== undefined;
  };
  if (security.alternatives.some((alternative) => alternative.every(sent))) return undefined;
  if (security.bearerOnly) return 'it sends no credentials, and the operation requires a bearer key';
  const required = security.alternatives.map((a) => a.map((r) => r.scheme.name).join(' and ')).join(', or ');
  return `it sends no credentials for the operation's security (${required})`;
}

/** A recorded answer the new document no longer promises: its status, or what changed in its schema for a reader. */
function answerFindings(
  was: Operation,
  is: Operation,
  label: string,
  status: number,
  request: RecordedRequest,
  differences: Finding[],
): Finding[] {
  if (!findResponse(was, status)) return [];
  if (!findResponse(is, status)) {
    return [
      finding(
        'journal.answer-not-promised',
        `${describe(request)} got status ${status}, which ${label} no longer documents`,
        { operation: label, request },
      ),
    ];
  }
  const documented = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => is.responses.has(key));
  const broken = differences.filter(
    (d) =>
      d.level === 'breaking' && d.check.startsWith('response.') && d.status === documented && d.operation === label,
  );
  if (broken.length === 0) return [];
  const what = broken.map((d) => d.message.slice(d.message.indexOf(': ') + 2)).join('; ');
  return [
    finding(
      'journal.answer-not-promised',
      `${describe(request)} got a ${status} answer that ${label} no longer promises: ${what}`,
      { operation: label, status: documented, request },
    ),
  ];
}

function removedCall(was: Operation, request: RecordedRequest, movedTo: string | undefined): Finding {
  const label = labelOf(was);
  if (movedTo !== undefined) {
    return finding(
      'journal.operation-removed',
      `${describe(request)} used ${label}, which the new document serves under the base path ${movedTo || '/'} instead: the URL the client sends is gone`,
      { operation: label, request },
    );
  }
  const removal = was.sunset
    ? `; its removal date is ${day(was.sunset)} (x-sunset)`
    : was.deprecated
      ? '; it was deprecated without a removal date'
      : '; it was not deprecated';
  const replacement = was.replacedBy ? `, and its replacement is ${was.replacedBy}` : '';
  return finding(
    'journal.operation-removed',
    `${describe(request)} used ${label}, which the new document no longer has${removal}${replacement}`,
    { operation: label, request },
  );
}

/** As the document comparison names an operation (list-operations.ts), so that its findings can be looked up. */
function labelOf(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}${operation.object.operationId ? ` (${operation.object.operationId})` : ''}`;
}

function recorded(exchange: RecordedExchange): RecordedRequest {
  const { seq, method, path, query, status, body } = exchange;
  return body === undefined ? { seq, method, path, query, status } : { seq, method, path, query, status, body };
}

/** `request #3 GET /v1/pets/1`: how a message names a recorded request. */
export function describe(request: RecordedRequest): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query))
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, one);
  const search = query.toString();
  return `request #${request.seq} ${request.method} ${request.path}${search ? `?${search}` : ''}`;
}
