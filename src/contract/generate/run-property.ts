import type { IAsyncPropertyWithHooks, RunDetails } from 'fast-check';
import { fc, type Arbitrary } from './fast-check.js';
import type { Failure } from '../base/case-result.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import type { ProbeRequest } from '../transport/send-request.js';
import { StopRun } from '../base/stop-run.js';
import { RequestCapReached } from '../base/suite-error.js';
import { budgetLeft, minimumExamples, seedFor, shrinkDeadline } from './budget.js';
import { KEY_VARIABLE } from '../transport/shown-credentials.js';
import { inSlot } from './slots.js';

/** What one example of a property sends through: requests in order, their curls kept for the reproduction. */
export class Trial {
  readonly curls: string[] = [];
  readonly failures: Failure[] = [];
  readonly #sent: Sent[] = [];
  /** Requests sent by every trial of the property this one belongs to (properties may run side by side). */
  readonly #count: { requests: number };
  /** What the example was, in words, for the reproduction's header (a stateful sequence's commands). */
  label?: string;
  /**
   * @param property the property's id, and `index` the example's place in it: with them an example names its pets
   *   the same way in every run of a seed, however many examples are in flight (see exampleName).
   */
  constructor(
    private readonly ctx: CaseContext,
    count: { requests: number },
    readonly property: string,
    readonly index: number,
    readonly sideBySide = false,
  ) {
    this.#count = count;
  }

  /**
   * The example's place as its pets' names carry it: `17`, or `~17` when sent side by side. A failure found side by
   * side is confirmed by sending the examples again one at a time; their pets must not meet the first pass's.
   */
  get example(): string {
    return `${this.sideBySide ? '~' : ''}${this.index}`;
  }

  get session(): CaseContext['session'] {
    return this.ctx.session;
  }

  /** Sends and judges; the judgement's failures (5xx, schema, media type…) count against this example. */
  async send(request: ProbeRequest): Promise<Sent> {
    const { sent, judgement } = await this.ctx.probe(request);
    this.#count.requests++;
    this.#sent.push(sent);
    this.curls.push(sent.curl);
    this.failures.push(...judgement.failures);
    return sent;
  }

  /** Sends several requests at once. */
  async sendAll(requests: ProbeRequest[]): Promise<Sent[]> {
    const results = await Promise.all(requests.map((request) => this.ctx.probe(request)));
    this.#count.requests += results.length;
    for (const { sent, judgement } of results) {
      this.#sent.push(sent);
      this.curls.push(sent.curl);
      this.failures.push(...judgement.failures);
    }
    return results.map((r) => r.sent);
  }

  /** A behavioural failure of this example, on `sent`. */
  fail(failure: Failure): void {
    this.failures.push(failure);
  }

  /** Drops the bodies of this example's answers once judged: a long property keeps excerpts only. */
  release(): void {
    for (const sent of this.#sent) {
      sent.body = undefined;
      sent.text = '';
    }
  }
}

/** How many smaller examples shrinking may try after the first failure (each sends requests). */
export const MAX_SHRINK_RUNS = 200;

/** Thrown inside a property to end the example as failed (fast-check then shrinks it). */
class Failed extends Error {}

/**
 * Runs one fast-check property as part of a case: `numRuns` examples from `arbitrary`, each sent by `body` through
 * a Trial; a failing example is shrunk (fast-check replays smaller ones) and only the smallest that still fails is
 * recorded, with its requests as a curl script. Seeded from the run's seed and `id`, so `--seed N` replays it. Tries
 * at least minimumExamples(numRuns) examples whatever the time budget, then more while the case's share of it lasts;
 * a property the request cap or the deadline held below its minimum says so (`belowMinimum`): its case did not run.
 */
export async function runProperty<T>(
  ctx: CaseContext,
  id: string,
  arbitrary: Arbitrary<T>,
  numRuns: number,
  body: (trial: Trial, value: T) => Promise<void>,
): Promise<PropertyOutcome> {
  const { session } = ctx;
  const seed = seedFor(session.config.seed, id);
  let last: Trial | undefined;
  let runs = 0;
  let cutShort: string | undefined;
  // Counted by this property's trials: other properties may be sending at the same time.
  const count = { requests: 0 };
  let shrinkRuns = 0;
  let shrinkUntil = Infinity;
  const minimum = minimumExamples(numRuns);
  const property = fc.asyncProperty(arbitrary, async (value) => {
    const trial = await inSlot(session, async () => {
      // Judged once the slot is ours, counting what the examples in flight may still send. Shrinking has its own
      // bounded share (shrinkDeadline from the first failure, MAX_SHRINK_RUNS tries), so a failure found late in a
      // case's share is still shown small.
      const left = last ? budgetLeft(session, Date.now() >= shrinkUntil) : budgetLeft(session, runs >= minimum);
      if (left) {
        cutShort ??= left;
        return undefined;
      }
      if (last && ++shrinkRuns > MAX_SHRINK_RUNS) return undefined;
      const trial = new Trial(ctx, count, id, runs++);
      const capped = await tryExample(trial, value, body);
      if (capped && trial.failures.length === 0) {
        // Cut off by the request cap before it could be judged whole: not tried.
        runs--;
        cutShort ??= capped;
        return undefined;
      }
      return trial;
    });
    if (!trial) return;
    if (trial.failures.length > 0) {
      if (!last) shrinkUntil = shrinkDeadline(session);
      last = trial;
      throw new Failed(trial.failures[0]!.check);
    }
  });
  // --concurrency N: the examples are drawn as fast-check would draw them (same seed, same order) and sent N at a
  // time. A failure found so is confirmed the way --concurrency 1 finds it: the property is run again one example
  // at a time from its first, and that run's smallest failure is the one recorded. Examples side by side share the
  // target (a name another example created, a list another one grew), so the example that failed first side by
  // side need not be the one that fails alone, nor under the same check: the verdict must not depend on it.
  // The examples counted are those the verdict rests on: the one-at-a-time pass's when it confirms the failure.
  let foundSideBySide: Trial | undefined;
  let sideBySideRuns = 0;
  if (session.config.concurrency > 1 && numRuns > 1) {
    const values = fc.sample(arbitrary, { seed, numRuns });
    const search = await searchConcurrently(ctx, values, body, minimum, session.config.concurrency, count, id);
    cutShort ??= search.cutShort;
    if (search.failedAt === undefined)
      return passed(search.runs, count.requests, cutShort, belowMinimumNote(id, search.runs, minimum, cutShort));
    foundSideBySide = search.failure;
    sideBySideRuns = search.runs;
  }
  const details = await checkUntilDeadline(property, seed, numRuns, session.config.deadlineAt);
  if (details.interrupted) cutShort ??= `the run's deadline (--deadline) came`;
  const requests = count.requests;
  const belowMinimum = details.failed ? undefined : belowMinimumNote(id, runs, minimum, cutShort);
  if (!details.failed && foundSideBySide) {
    // Found side by side but not again alone (a target that fails under load only): shown as found, unshrunk.
    recordSmallest(ctx, id, foundSideBySide);
    return { runs: sideBySideRuns + runs, requests, failed: true, ...(cutShort ? { cutShort } : {}) };
  }
  if (details.failed && last) {
    const path = details.counterexamplePath ?? undefined;
    recordSmallest(ctx, id, last);
    return { runs, requests, failed: true, ...(cutShort ? { cutShort } : {}), ...(path ? { path } : {}) };
  }
  return passed(runs, requests, cutShort, belowMinimum);
}

/** What runProperty tells its case: examples tried, requests sent, and whether (and why) it failed or fell short. */
export interface PropertyOutcome {
  runs: number;
  requests: number;
  cutShort?: string;
  path?: string;
  failed: boolean;
  belowMinimum?: string;
}

/** The outcome of a property that did not fail. */
function passed(runs: number, requests: number, cutShort?: string, belowMinimum?: string): PropertyOutcome {
  return {
    runs,
    requests,
    failed: false,
    ...(cutShort ? { cutShort } : {}),
    ...(belowMinimum ? { belowMinimum } : {}),
  };
}

/** Runs the property with fast-check; a StopRun, or any error but Failed, is thrown on. */
async function checkUntilDeadline<T>(
  property: IAsyncPropertyWithHooks<[T]>,
  seed: number,
  numRuns: number,
  deadlineAt: number,
): Promise<RunDetails<[T]>> {
  // Only the run's deadline interrupts fast-check: the time budget is judged per example (budgetLeft), so that it
  // can never cut a property below its minimum.
  const details = await fc.check(property, {
    seed,
    numRuns,
    endOnFailure: false,
    interruptAfterTimeLimit: Math.max(1, deadlineAt - Date.now()),
    markInterruptAsFailure: false,
  });
  const stop = details.errorInstance;
  if (stop instanceof StopRun) throw stop;
  if (details.failed && stop && !(stop instanceof Failed)) throw details.errorInstance;
  return details;
}

/** Why a property that passed does not count as run: the cap or the deadline held it below its minimum. */
function belowMinimumNote(id: string, runs: number, minimum: number, cutShort: string | undefined): string | undefined {
  return runs < minimum
    ? `${id} tried ${runs} of at least ${minimum} examples: ${cutShort ?? 'it was stopped'}`
    : undefined;
}

/** Records a failing example's failures, once each, with its requests as a curl script that replays it. */
function recordSmallest(ctx: CaseContext, id: string, trial: Trial): void {
  const script = reproduction(ctx.session.config.seed, id, trial.curls, trial.label);
  for (const failure of dedupe(trial.failures)) ctx.record({ ...failure, reproduction: script });
}

/**
 * Sends `values` through `body`, `concurrency` examples in flight at once (each example's own requests in order),
 * within the budgets as the sequential run; stops starting new ones at the first failure. Returns the smallest
 * index that failed (fast-check's path to it) and that example's trial.
 */
async function searchConcurrently<T>(
  ctx: CaseContext,
  values: T[],
  body: (trial: Trial, value: T) => Promise<void>,
  minimum: number,
  concurrency: number,
  count: { requests: number },
  id: string,
): Promise<{ runs: number; cutShort?: string; failedAt?: number; failure?: Trial }> {
  let next = 0;
  let runs = 0;
  let cutShort: string | undefined;
  let failedAt: number | undefined;
  let failure: Trial | undefined;
  const worker = async () => {
    let more = true;
    while (more && failedAt === undefined && next < values.length) {
      more = await inSlot(ctx.session, async () => {
        if (failedAt !== undefined || next >= values.length) return false;
        const left = budgetLeft(ctx.session, runs >= minimum);
        if (left) {
          cutShort ??= left;
          return false;
        }
        const index = next++;
        runs++;
        const trial = new Trial(ctx, count, id, index, true);
        const capped = await tryExample(trial, values[index]!, body);
        if (capped && trial.failures.length === 0) {
          runs--;
          cutShort ??= capped;
          return false;
        }
        if (trial.failures.length > 0 && (failedAt === undefined || index < failedAt))
          [failedAt, failure] = [index, trial];
        return true;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
  return {
    runs,
    ...(cutShort ? { cutShort } : {}),
    ...(failedAt !== undefined ? { failedAt, failure: failure! } : {}),
  };
}

/**
 * Sends one example through `body`; a `Failed` ends it (its failures are on the trial). Returns why it was cut off
 * when the run's request cap stopped it midway, else undefined.
 */
async function tryExample<T>(
  trial: Trial,
  value: T,
  body: (trial: Trial, value: T) => Promise<void>,
): Promise<string | undefined> {
  try {
    await body(trial, value);
    return undefined;
  } catch (error) {
    if (error instanceof RequestCapReached) return error.message;
    if (!(error instanceof Failed)) throw error;
    return undefined;
  } finally {
    trial.release();
  }
}

/** The shrunk example as a shell script: each request as curl, in order, the key read from the environment. */
export function reproduction(seed: number, id: string, curls: string[], label?: string): string[] {
  const variables = [
    ...new Set(curls.flatMap((curl) => [...curl.matchAll(/\$\{(PETSTORE_HEADER_\w+)\}/g)].map((m) => m[1]!))),
  ];
  return [
    '#!/bin/sh',
    `# ${id}: the smallest failing example (petstore-kit contract --seed ${seed} replays the run).`,
    ...(label ? [`# ${label.replace(/[\r\n]+/g, ' ')}`] : []),
    `# Set ${KEY_VARIABLE} to the key first (export ${KEY_VARIABLE}=...)${variables.length ? `, and ${variables.join(', ')} to the value of that -H header` : ''}.`,
    ...curls,
  ];
}

/** One failure per check and request: a response broken two ways in one example is shown once for each. */
function dedupe(failures: Failure[]): Failure[] {
  const seen = new Set<string>();
  return failures.filter((f) => {
    const key = `${f.check}\u0000${f.request ?? ''}\u0000${f.actual}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export { Failed };
