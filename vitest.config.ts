import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/long-first-sequencer.js';

/**
 * `npm test` is what a newcomer runs: a few minutes, nothing large downloaded. The long suites — the runner against
 * targets 40 ms away, the package under every other Node major (three Node runtimes from the npm registry) — run when
 * PETSTORE_LONG_TESTS=1, as `.ci/run` sets it.
 */
export const LONG = process.env.PETSTORE_LONG_TESTS === '1';
// What CI alone needs (issue 53: a newcomer's npm test within 8 minutes on a busy 2-core machine; measured in
// docs/install.md). A newcomer's npm test runs every unit test and each part of the kit once, end to end: the mock's
// CLI, fixtures, persistence, proxy, Redis team mode, MSW and fetch in Chromium, the docs' commands, and the runner
// against our mock and against targets with planted faults (contract-teeth, contract-cli). CI adds the batteries: the
// runner's whole runs over every fault, framing, stack, key, bound and document (the differential, the hostile
// targets, the independent targets, the corpus from node_modules), the mock under hostile input and fuzzing, the
// packed package, the report pages' screenshots, Redis restarted, and the CLIs' option matrices.
const LONG_FILES = [
  'test/contract-slow-target.test.ts',
  'test/contract-fastify-v11.test.ts',
  'test/contract-wire-battery.test.ts',
  'test/contract-v11-operation-faults.test.ts',
  'test/contract-bounds.test.ts',
  'test/contract-stacks.test.ts',
  'test/contract-keys.test.ts',
  'test/contract-differential.test.ts',
  'test/contract-hostile.test.ts',
  'test/contract-generated.test.ts',
  'test/contract-independent-31.test.ts',
  'test/contract-item-actions.test.ts',
  'test/contract-mock-train-travel.test.ts',
  'test/contract-spec.test.ts',
  'test/contract-clean-up.test.ts',
  'test/contract-every-operation.test.ts',
  'test/contract-html.test.ts',
  'test/contract-judged-nothing.test.ts',
  'test/contract-security.test.ts',
  'test/contract-readme-shapes.test.ts',
  'test/contract-operation-cases.test.ts',
  'test/contract-oracle-requests.test.ts',
  'test/contract-repro-replay.test.ts',
  'test/contract-answers-as-declared.test.ts',
  'test/real-documents.test.ts',
  'test/compile-web.test.ts',
  'test/int64-ids.test.ts',
  'test/bounds.test.ts',
  'test/hostile-documents.test.ts',
  'test/fuzz.test.ts',
  'test/state-safety.test.ts',
  'test/compat-journal-large.test.ts',
  'test/cli-log-config.test.ts',
  'test/cli-proxy.test.ts',
  'test/contract-honest-report.test.ts',
  'test/contract-collection-oracles.test.ts',
  'test/contract-oracle-listing.test.ts',
  'test/resources-named-ids.test.ts',
  'test/resources-persist.test.ts',
  'test/prepare.test.ts',
  'test/package.test.ts',
  'test/browser-reports.test.ts',
  'test/redis-resources.test.ts',
];

export default defineConfig({
  test: {
    // A hang detector for a test of a few requests, never a measure of speed. A test that makes whole contract runs
    // takes its limit from the runner's own deadline instead (test/support/run-budget.ts).
    testTimeout: 20_000,
    // Two test files at a time at least, else one per core. vitest's default (cores − 1) runs one file at a time on a
    // 2-core machine, which leaves a core idle whenever that file waits on what it started (a CLI process, an npm
    // install, Chromium, a target's sockets).
    maxWorkers: Math.max(2, availableParallelism()),
    hookTimeout: 30_000,
    sequence: { sequencer: LongFirstSequencer },
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          // The unit tests beside the code start no server and change no process-wide state they do not restore: one
          // module graph per worker serves them all. Imported afresh for each file, their dependencies (undici, AJV,
          // the OpenAPI parser) were most of their time: 30 CPU-seconds for 63 files, 12 shared.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(LONG ? [] : LONG_FILES)],
        },
      },
    ],
  },
});
