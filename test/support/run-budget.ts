import { DEFAULT_DEADLINE } from '../../src/contract/base/session.js';

/**
 * Time limits for tests that make whole contract runs, derived from a budget the runner enforces itself rather than
 * from a guess at how fast this machine is. Every run stops on its own at its deadline (`--deadline`, default
 * `DEFAULT_DEADLINE`): it exits 2 and says why, so a run that is merely slow fails with the runner's own words. The
 * test's limit is that deadline for every run it makes, plus an allowance for what no deadline covers (starting the
 * CLI process and a target), so vitest's limit only ever catches a hang, never a busy machine.
 */
export const RUN_DEADLINE_MS = DEFAULT_DEADLINE;

/** Starting the CLI process and a target, which the runner's deadline does not cover. */
const START_ALLOWANCE_MS = 60_000;

/** The deadline flags, for a test that states the bound it relies on. */
export const DEADLINE_FLAGS = ['--deadline', String(RUN_DEADLINE_MS / 1000)];

/** The limit for a test that makes `runs` contract runs one after another, each bounded by RUN_DEADLINE_MS. */
export function limitForRuns(runs: number): number {
  return runs * (RUN_DEADLINE_MS + START_ALLOWANCE_MS);
}
