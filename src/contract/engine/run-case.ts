import type { CheckId } from '../base/check-ids.js';
import type { CaseResult, CoverageRow, Failure, GeneratedRun } from '../base/case-result.js';
import type { Session } from '../base/session.js';
import { sendRequest, type Exchange, type ProbeRequest } from '../transport/send-request.js';
import { failure, judgeResponse, type Judgement } from '../judge/judge-response.js';
import { describeResponse } from '../judge/describe-response.js';
import { StopRun } from '../base/stop-run.js';

/** One case of the suite: a vitest test, a JUnit testcase. Cases run in order and share the session. */
export interface ContractCase {
  /** Stable and unique: `auth.required/getPet/no-header`. */
  id: string;
  check: CheckId;
  operation: string;
  title: string;
  /** Sends a POST (or what `writeMethods` names): skipped in read-only mode. */
  writes: boolean;
  /** The methods a writing case sends, for the read-only skip's reason; POST when not given. */
  writeMethods?: string[];
  run(ctx: CaseContext): Promise<void>;
}

/** What a case uses to send requests and judge them. */
export interface CaseContext {
  session: Session;
  /** Sends a request; the response is judged by the checks every response gets (see `judgeResponse`). */
  send(request: ProbeRequest): Promise<Sent>;
  /**
   * Records `check` as passed when `ok`, else as a failure on `sent` with what was expected and what came
   * (`actual` defaults to the response in one line). Not evaluated, and false, when the response already broke the
   * document: that is reported once, under its own id.
   */
  verify(check: CheckId, sent: Sent, ok: boolean, expected: string, actual?: string): boolean;
  /**
   * As `verify`, but judged whenever an HTTP answer came, even one that also broke the document: for checks about
   * the status alone (a missing key answered 400 text/plain is an `auth.required` failure, not only a media type one).
   */
  verifyStatus(check: CheckId, sent: Sent, ok: boolean, expected: string): boolean;
  /** A failure that belongs to no single response (e.g. coverage). */
  fail(check: CheckId, expected: string, actual: string): void;
  note(check: CheckId, message: string): void;
  /** Ends the case as skipped, naming why. */
  skip(reason: string): never;
  /** Ends the case as not run (unless it already failed): it could not try what its verdict needs. */
  notRun(reason: string): never;
  setCoverage(rows: CoverageRow[]): void;
  /**
   * Sends a request and judges it as `send` does, but records only the request: the judgement's failures are
   * returned for the caller to keep or drop (a generated property keeps those of its shrunk example only).
   */
  probe(request: ProbeRequest): Promise<{ sent: Sent; judgement: Judgement }>;
  /** Records a failure as it is (a generated property's, with its reproduction). */
  record(failure: Failure): void;
  setGenerated(run: GeneratedRun): void;
}

/** An exchange together with whether behavioural checks may read it. */
export interface Sent extends Exchange {
  usable: boolean;
}

class Skip extends Error {}
class NotRun extends Error {}

/** Runs one case against the session's target; never throws. */
export async function runCase(session: Session, contractCase: ContractCase): Promise<CaseResult> {
  const started = performance.now();
  const record = new CaseRecord(session, contractCase);
  const { result } = record;
  const ctx = caseContext(record);
  try {
    if (session.pacing.stopped) throw new StopRun(session.pacing.stopped);
    if (contractCase.writes && session.config.readOnly)
      ctx.skip(`read-only: this case sends a ${(contractCase.writeMethods ?? ['POST']).join(', ')}`);
    await contractCase.run(ctx);
    if (session.pacing.stopped) result.stopped = session.pacing.stopped;
  } catch (error) {
    settle(record, error);
  }
  if (result.failures.length > 0) result.status = 'failed';
  // Bodies are dropped once judged: a run keeps excerpts only, however large the target's answers.
  for (const exchange of record.exchanges) {
    exchange.body = undefined;
    exchange.text = '';
  }
  result.durationMs = Math.round(performance.now() - started);
  return result;
}

/** One case's result as it is being made, and the exchanges it sent (their bodies dropped when it ends). */
class CaseRecord {
  readonly result: CaseResult;
  readonly exchanges: Exchange[] = [];

  constructor(
    readonly session: Session,
    readonly contractCase: ContractCase,
  ) {
    this.result = {
      id: contractCase.id,
      check: contractCase.check,
      operation: contractCase.operation,
      title: contractCase.title,
      status: 'passed',
      checks: {},
      failures: [],
      notes: [],
      requests: [],
      durationMs: 0,
    };
  }

  /** A check failed stays failed; one passed counts only if nothing failed it. */
  mark(check: CheckId, ok: boolean): void {
    if (!ok) this.result.checks[check] = 'failed';
    else this.result.checks[check] ??= 'passed';
  }

  addFailure(f: Failure): void {
    this.mark(f.check, false);
    this.result.failures.push(f);
  }

  note(check: CheckId, message: string): void {
    this.result.notes.push({ check, operation: this.contractCase.operation, message: this.session.redact(message) });
  }

  /** Sends a request, records it (and the rate-limit waits before it), and judges the answer. */
  async sendAndJudge(request: ProbeRequest): Promise<{ exchange: Exchange; judgement: Judgement }> {
    const { session } = this;
    const exchange = await sendRequest(session, request);
    this.exchanges.push(exchange);
    this.result.requests.push({
      request: exchange.curl,
      operation: exchange.operation,
      ...(exchange.status === undefined ? {} : { status: exchange.status }),
      durationMs: exchange.durationMs,
    });
    for (const retry of exchange.retried ?? []) {
      // A URL with the key in its query (a wrong credential the runner sends) is named by its path alone.
      const url =
        session.config.apiKey && exchange.url.includes(session.config.apiKey)
          ? `${exchange.url.split('?')[0]}?…`
          : exchange.url;
      this.note(
        'rate-limit.retry',
        `${exchange.method} ${url}: ${retry.status} with Retry-After; waited ${retry.waitedMs} ms and sent it again`,
      );
    }
    return { exchange, judgement: judgeResponse(session.spec, exchange, session.config.maxBody) };
  }
}

/** The context a case runs with: each method records into `record`. */
function caseContext(record: CaseRecord): CaseContext {
  const { result, contractCase } = record;
  const ctx: CaseContext = {
    session: record.session,
    async send(request) {
      const { exchange, judgement } = await record.sendAndJudge(request);
      for (const check of judgement.evaluated) record.mark(check, true);
      judgement.failures.forEach((f) => record.addFailure(f));
      return Object.assign(exchange, { usable: judgement.usable });
    },
    verify(check, sent, ok, expected, actual) {
      if (!sent.usable) return false;
      if (ok) record.mark(check, true);
      else record.addFailure(failure(check, sent, expected, actual ?? describeResponse(sent)));
      return ok;
    },
    verifyStatus(check, sent, ok, expected) {
      if (sent.usable) return ctx.verify(check, sent, ok, expected);
      if (sent.status === undefined) return false;
      if (ok) record.mark(check, true);
      else record.addFailure(failure(check, sent, expected, describeResponse(sent)));
      return ok;
    },
    fail(check, expected, actual) {
      record.addFailure({ check, operation: contractCase.operation, expected, actual });
    },
    note: (check, message) => record.note(check, message),
    skip(reason) {
      throw new Skip(reason);
    },
    notRun(reason) {
      throw new NotRun(reason);
    },
    setCoverage(rows) {
      result.coverage = rows;
    },
    async probe(request) {
      const { exchange, judgement } = await record.sendAndJudge(request);
      for (const check of judgement.evaluated)
        if (!judgement.failures.some((f) => f.check === check)) record.mark(check, true);
      return { sent: Object.assign(exchange, { usable: judgement.usable }), judgement };
    },
    record: (f) => record.addFailure(f),
    setGenerated(run) {
      result.generated = run;
    },
  };
  return ctx;
}

/** How a case that threw ends: stopped, skipped, not run, or failed under `suite.error` (never blamed on the target). */
function settle(record: CaseRecord, error: unknown): void {
  const { result, session, contractCase } = record;
  if (error instanceof StopRun) {
    // What was found before the stop stands; the case is not passed on evidence it never got.
    result.stopped = error.message;
    if (result.failures.length === 0) {
      result.status = 'notRun';
      result.reason = `the run stopped: ${error.message}`;
    }
  } else if (error instanceof Skip) {
    result.status = 'skipped';
    result.reason = error.message;
  } else if (error instanceof NotRun) {
    result.status = 'notRun';
    result.reason = session.redact(error.message);
  } else {
    record.addFailure({
      check: 'suite.error',
      operation: contractCase.operation,
      expected: 'the case to run',
      actual: session.redact(error instanceof Error ? error.message : String(error)),
    });
  }
}
