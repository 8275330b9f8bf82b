import type { ContractConfig } from '../base/session.js';

/**
 * The run's settings from the environment, for running `contract-tests/` with vitest directly:
 * `CONTRACT_BASE_URL`, `PETSTORE_API_KEY`, `CONTRACT_READ_ONLY=1`, `CONTRACT_TIMEOUT` (ms),
 * `CONTRACT_REQUIRE_COVERAGE=1`, `CONTRACT_RUN_ID`, `CONTRACT_SPEC` (the document: a file or a URL), and for the generated phase `CONTRACT_SEED`,
 * `CONTRACT_RUNS`, `CONTRACT_TIME_BUDGET` (s; 0 turns it off), `CONTRACT_RATE` (requests per second) and
 * `CONTRACT_CONCURRENCY`.
 */
export function configFromEnv(env: NodeJS.ProcessEnv): ContractConfig {
  const baseUrl = env.CONTRACT_BASE_URL;
  const apiKey = env.PETSTORE_API_KEY;
  if (!baseUrl)
    throw new Error(
      'set CONTRACT_BASE_URL to the API base URL (e.g. http://127.0.0.1:4010/v1), or run "petstore-kit contract --base-url URL"',
    );
  if (!apiKey) throw new Error('set PETSTORE_API_KEY to a key the target accepts');
  const flag = (value: string | undefined) => value === '1' || value === 'true';
  return {
    baseUrl,
    apiKey,
    readOnly: flag(env.CONTRACT_READ_ONLY),
    requireCoverage: flag(env.CONTRACT_REQUIRE_COVERAGE),
    ...(env.CONTRACT_TIMEOUT ? { timeout: Number(env.CONTRACT_TIMEOUT) } : {}),
    ...(env.CONTRACT_RUN_ID ? { runId: env.CONTRACT_RUN_ID } : {}),
    ...(env.CONTRACT_SPEC ? { spec: env.CONTRACT_SPEC } : {}),
    ...(env.CONTRACT_SEED ? { seed: Number(env.CONTRACT_SEED) } : {}),
    ...(env.CONTRACT_TIME_BUDGET ? { timeBudget: Number(env.CONTRACT_TIME_BUDGET) * 1000 } : {}),
    ...(env.CONTRACT_RUNS ? { runs: Number(env.CONTRACT_RUNS) } : {}),
    ...(env.CONTRACT_RATE ? { rate: Number(env.CONTRACT_RATE) } : {}),
    ...(env.CONTRACT_CONCURRENCY ? { concurrency: Number(env.CONTRACT_CONCURRENCY) } : {}),
  };
}
