import type {} from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import { packageRoot } from '../../paths.js';
import { ContractReporter } from '../reports/contract-reporter.js';
import type { CaseResult } from '../base/case-result.js';
import { buildReport, documentLabel, type ContractReport } from '../reports/build-report.js';
import { formatHeader, formatTextSummary } from '../reports/format-text.js';
import { createSession, type ContractConfig } from '../base/session.js';
import { probeTarget } from '../transport/probe-target.js';
import { planOperations } from '../reports/operation-runs.js';
import { reportDocument } from '../reports/report-document.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's settings, handed to contract-tests/ by `runContractSuite`. */
    petstoreContract: ContractConfig;
  }
}

export interface SuiteOptions {
  /** Where progress and the summary go; default stdout. Everything written is redacted. */
  write?: (text: string) => void;
  /** Filled with each case's result as it finishes, for a caller that must report a run cut short (a signal). */
  results?: CaseResult[];
}

/**
 * Runs the vitest suite in `contract-tests/` against a target, through vitest's own runner (`startVitest`), and
 * returns the report. Throws a `TargetError` before starting vitest when the target cannot be checked at all; a run
 * that stopped early (deadline, target gone) returns a report with `stopped` set.
 */
export async function runContractSuite(config: ContractConfig, options: SuiteOptions = {}): Promise<ContractReport> {
  const started = new Date();
  // vitest's workers load the document themselves, so only a file can be handed on to them.
  const specFile = typeof config.spec === 'string' ? config.spec : config.spec?.file;
  if (config.spec !== undefined && specFile === undefined) {
    throw new TypeError(
      'runContractSuite needs the OpenAPI document as a file (spec: a path, or a Spec loaded from one); use runContract for a document object',
    );
  }
  // Settle the defaults (run id included) once, so that vitest's worker and the reports agree.
  const session = await createSession({ ...config, spec: config.spec });
  try {
    await probeTarget(session);
  } finally {
    await session.dispatcher.close();
  }
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const out = (text: string) => write(session.redact(text));
  out(
    formatHeader({
      ...session.config,
      spec: documentLabel(session.spec.file),
      basis: reportDocument(session.spec).basis,
    }),
  );
  const reporter = new ContractReporter(out, session.redact, options.results);
  const previousExitCode = process.exitCode;
  // vitest's cache goes to a directory of this run's own (mode 0700, unpredictable name), removed at the end: never a
  // fixed path under the shared temp dir where another user could plant a symlink.
  const cacheDir = await mkdtemp(join(tmpdir(), 'petstore-kit-vitest-'));
  try {
    const vitest = await startVitest(
      'test',
      [],
      {
        root: packageRoot,
        config: false,
        include: ['contract-tests/**/*.test.ts'],
        reporters: [reporter],
        watch: false,
        // A fixed case sends up to ~25 requests (the default-limit fillers), each bounded by the timeout; a generated
        // one sends its examples, bounded by the run's deadline (which ends it first, as a stopped run).
        testTimeout: Math.max(session.config.timeout * 30, session.config.deadlineAt - Date.now() + 10_000),
        hookTimeout: session.config.timeout * 3,
        fileParallelism: false,
        // The engine (petstore-kit/contract, built JavaScript) is loaded by Node itself, not transformed by vitest:
        // only the thin files in contract-tests/ go through vitest's module runner, which keeps less in memory.
        server: { deps: { external: [/\/dist\//] } },
        // One process: the runner's memory is one number to bound and measure, and nothing outlives it.
        pool: 'threads',
        // No time cap is Infinity, which does not survive every serialisation: the worker's default is the same.
        provide: {
          petstoreContract: {
            ...session.config,
            timeBudget: Number.isFinite(session.config.timeBudget) ? session.config.timeBudget : undefined,
            spec: specFile,
          },
        },
      },
      // vitest caches results under the root; the package may be installed read-only, so keep it out of there.
      { cacheDir },
    );
    await vitest.close();
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
  // vitest sets the exit code for its own CLI; ours is decided by the caller from the report.
  process.exitCode = previousExitCode;
  const document = {
    spec: documentLabel(session.spec.file),
    operations: planOperations(session.spec),
    document: reportDocument(session.spec),
  };
  const report = buildReport({ ...session.config, ...document }, reporter.results, {
    startedAt: started,
    redact: session.redact,
  });
  out(formatTextSummary(report));
  return report;
}
