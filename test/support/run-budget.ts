/**
 * Time limits for tests that make whole contract runs, derived from a budget the runner enforces itself rather than
 * from a guess at how fast this machine is. Each run is given `--deadline RUN_DEADLINE_S`: past it the runner stops on
 * its own, exits 2 and says why, so a run that is merely slow fails with the runner's own words, never with vitest's
 * "timed out". The test's limit is that deadline for every run it makes, plus an allowance for what no deadline
 * covers (starting the CLI and the target), so vitest's limit only ever catches a hang.
 */
export const RUN_DEADLINE_S = 600;

/** Starting the CLI process and a target, which the runner's deadline does not cover. */
const START_ALLOWANCE_MS = 60_000;

/** The flags that put a run under the budget. */
export const DEADLINE_FLAGS = ['--deadline', String(RUN_DEADLINE_S)];

/** The limit for a test that makes `runs` contract runs one after another. */
export function limitForRuns(runs: number): number {
  return runs * (RUN_DEADLINE_S * 1000 + START_ALLOWANCE_MS);
}
