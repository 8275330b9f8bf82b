import type { CheckId } from '../base/check-ids.js';
import type { ContractCase, CaseContext } from '../engine/run-case.js';
import { taggedName, type Session } from '../base/session.js';
import { seedFor, startCaseShare } from './budget.js';
import { loadFastCheck } from './fast-check.js';
import { describeUnhonoured, UnhonouredKeyword } from './values/generated.js';

/** What a case of the generated phase reports of its properties, summed. */
export interface PhaseTally {
  runs: number;
  requests: number;
  cutShort?: string;
  path?: string;
  /** The properties that tried fewer than their minimum examples, and why: the case did not run. */
  belowMinimum?: string[];
}

/** A generated case, knowing how many generated cases (itself included) run from it on: its share of the clock. */
export interface GeneratedContractCase extends ContractCase {
  casesLeft: number;
}

/**
 * A case of the generated phase: skipped when the phase is off (--time-budget 0) or, for one that writes, in
 * read-only mode; otherwise its properties run within the phase's budgets and the case reports their seed, examples
 * and requests.
 */
export function generatedCase(
  head: { id: string; check: CheckId; operation: string; title: string; writes: boolean },
  run: (ctx: CaseContext, tally: PhaseTally) => Promise<void>,
): GeneratedContractCase {
  const contractCase: GeneratedContractCase = {
    ...head,
    casesLeft: 1,
    async run(ctx) {
      const { session } = ctx;
      if (session.config.timeBudget <= 0) ctx.skip('the generated phase is off (--time-budget 0)');
      if (head.writes && session.config.readOnly) ctx.skip('read-only: this case sends a POST');
      // Every example would fail the same way, at the cost of reading --max-body bytes each time: already reported.
      if (session.findings.exchanges.some((e) => e.problems.tooLarge || e.problems.tooDeep))
        ctx.skip(
          'the target sent answers too large or too deep to read (response.bounded): generated requests would only repeat that',
        );
      startCaseShare(session, contractCase.casesLeft);
      await loadFastCheck();
      const tally: PhaseTally = { runs: 0, requests: 0 };
      try {
        await run(ctx, tally);
      } catch (error) {
        // Issue 53: a keyword no generated value can be vouched for makes the case "not run" naming it, never a
        // suite error and never a value sent as valid that might not be.
        if (error instanceof UnhonouredKeyword && error.problem.noValue)
          ctx.skip(`not sent: no request to ${head.operation} could be built: ${describeUnhonoured(error.problem)}`);
        if (error instanceof UnhonouredKeyword) ctx.notRun(error.message);
        throw error;
      } finally {
        const { belowMinimum, ...shown } = tally;
        ctx.setGenerated({ seed: session.config.seed, ...shown });
        if (tally.cutShort && !belowMinimum)
          ctx.note(head.check, `${head.id}: tried ${tally.runs} examples; ${tally.cutShort}`);
      }
      // A verdict counts only what ran: a case short of its minimum examples is not passed.
      if (belowMinimum(tally))
        ctx.notRun(
          `${tally.belowMinimum!.length === 1 ? tally.belowMinimum![0] : `${tally.belowMinimum![0]} (and ${tally.belowMinimum!.length - 1} more properties)`}; ${raiseHint(tally.belowMinimum![0]!)}`,
        );
    },
  };
  return contractCase;
}

function belowMinimum(tally: PhaseTally): boolean {
  return (tally.belowMinimum?.length ?? 0) > 0;
}

/** Which option lets the case run next time. */
function raiseHint(reason: string): string {
  if (reason.includes('--max-requests')) return 'raise --max-requests';
  if (reason.includes('--deadline')) return 'raise --deadline';
  return 'raise --deadline or --max-requests';
}

/** Adds one property's outcome to the case's tally. */
export function tallyOf(
  tally: PhaseTally,
  outcome: Omit<PhaseTally, 'belowMinimum'> & { belowMinimum?: string },
): void {
  tally.runs += outcome.runs;
  if (outcome.belowMinimum) (tally.belowMinimum ??= []).push(outcome.belowMinimum);
  tally.requests += outcome.requests;
  if (outcome.cutShort) tally.cutShort ??= outcome.cutShort;
  if (outcome.path) tally.path ??= outcome.path;
}

/** Pets the generated phase created (as createPet answered), for the cases after it (auth on later pets, reads). */
const createdByPhase = new WeakMap<Session, Record<string, unknown>[]>();
export function generatedPets(session: Session): Record<string, unknown>[] {
  let pets = createdByPhase.get(session);
  if (!pets) createdByPhase.set(session, (pets = []));
  return pets;
}

/**
 * A run-tagged name for a generated pet, followed by what was generated: `contract-<runId>-g1k3fz.17-…`, the kind,
 * the property (its id hashed) and the example's place in it. Unique in the run, and the same in every run of a
 * seed whatever `--concurrency` is: it depends on which example this is, never on when it was sent.
 */
export function exampleName(
  session: Session,
  kind: string,
  property: string,
  index: number | string,
  generated: unknown,
): string {
  return `${taggedName(session, `${kind}${(seedFor(0, property) >>> 0).toString(36)}.${index}`)}-${typeof generated === 'string' ? generated : ''}`;
}

/** The valid ways of sending the key: RFC 9110 §11.1 makes the scheme name case-insensitive. */
export const SCHEMES = ['Bearer', 'bearer', 'BEARER'] as const;
/** The valid ways of labelling a JSON body: a charset parameter is allowed (RFC 8259 §11, RFC 9110 §8.3.1). */
export const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
] as const;
