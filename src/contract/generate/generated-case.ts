import type { CheckId } from '../check-ids.js';
import type { ContractCase, CaseContext } from '../run-case.js';
import { taggedName, type Session } from '../session.js';
import { startGeneratedPhase } from './budget.js';
import { loadFastCheck } from './fast-check.js';

/** What a case of the generated phase reports of its properties, summed. */
export interface PhaseTally {
  runs: number;
  requests: number;
  cutShort?: string;
  path?: string;
}

/**
 * A case of the generated phase: skipped when the phase is off (--time-budget 0) or, for one that writes, in
 * read-only mode; otherwise its properties run within the phase's budgets and the case reports their seed, examples
 * and requests.
 */
export function generatedCase(head: { id: string; check: CheckId; operation: string; title: string; writes: boolean }, run: (ctx: CaseContext, tally: PhaseTally) => Promise<void>): ContractCase {
  return {
    ...head,
    async run(ctx) {
      const { session } = ctx;
      if (session.config.timeBudget <= 0) ctx.skip('the generated phase is off (--time-budget 0)');
      if (head.writes && session.config.readOnly) ctx.skip('read-only: this case sends a POST');
      // Every example would fail the same way, at the cost of reading --max-body bytes each time: already reported.
      if (session.exchanges.some((e) => e.problems.tooLarge || e.problems.tooDeep)) ctx.skip('the target sent answers too large or too deep to read (response.bounded): generated requests would only repeat that');
      startGeneratedPhase(session);
      await loadFastCheck();
      const tally: PhaseTally = { runs: 0, requests: 0 };
      try {
        await run(ctx, tally);
      } finally {
        ctx.setGenerated({ seed: session.config.seed, ...tally });
        if (tally.cutShort) ctx.note(head.check, `${head.id}: tried ${tally.runs} examples; ${tally.cutShort}`);
      }
    },
  };
}

/** Adds one property's outcome to the case's tally. */
export function tallyOf(tally: PhaseTally, outcome: PhaseTally): void {
  tally.runs += outcome.runs;
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

const counters = new WeakMap<Session, number>();
/** A run-tagged name for a generated pet (`contract-<runId>-g17-`), followed by what was generated. */
export function generatedName(session: Session, kind: string, generated: unknown): string {
  const n = (counters.get(session) ?? 0) + 1;
  counters.set(session, n);
  return `${taggedName(session, `${kind}${n}`)}-${typeof generated === 'string' ? generated : ''}`;
}

/** The valid ways of sending the key: RFC 9110 §11.1 makes the scheme name case-insensitive. */
export const SCHEMES = ['Bearer', 'bearer', 'BEARER'] as const;
/** The valid ways of labelling a JSON body: a charset parameter is allowed (RFC 8259 §11, RFC 9110 §8.3.1). */
export const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8'] as const;
