import type {} from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import { packageRoot } from '../paths.js';
import { ContractReporter } from './contract-reporter.js';
import { buildReport, type ContractReport } from './build-report.js';
import { formatHeader, formatTextSummary } from './format-text.js';
import { createSession, type ContractConfig } from './session.js';
import { probeTarget } from './probe-target.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's settings, handed to contract-tests/ by `runContractSuite`. */
    petstoreContract: ContractConfig;
  }
}

export interface SuiteOptions {
  /** Where progress and the summary go; default stdout. Everything written is redacted. */
  write?: (text: string) => void;
}

/**
 * Runs the vitest suite in `contract-tests/` against a target, through vitest's own runner (`startVitest`), and
 * returns the report. Throws a `TargetError` before starting vitest when the target cannot be checked at all.
 */
export async function runContractSuite(config: ContractConfig, options: SuiteOptions = {}): Promise<ContractReport> {
  const started = new Date();
  // vitest's workers load the document themselves, so only a file can be handed on to them.
  const specFile = typeof config.spec === 'string' ? config.spec : config.spec?.file;
  if (config.spec !== undefined && specFile === undefined) {
    throw new TypeError('runContractSuite needs the OpenAPI document as a file (spec: a path, or a Spec loaded from one); use runContract for a document object');
  }
  // Settle the defaults (run id included) once, so that vitest's worker and the reports agree.
  const session = await createSession({ ...config, spec: config.spec });
  await probeTarget(session.spec, session.config);
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const out = (text: string) => write(session.redact(text));
  out(formatHeader(session.config));
  const reporter = new ContractReporter(out, session.redact);
  const previousExitCode = process.exitCode;
  const vitest = await startVitest(
    'test',
    [],
    {
      root: packageRoot,
      config: false,
      include: ['contract-tests/**/*.test.ts'],
      reporters: [reporter],
      watch: false,
      // A case sends up to ~25 requests (the default-limit fillers), each bounded by the timeout.
      testTimeout: session.config.timeout * 30,
      hookTimeout: session.config.timeout * 3,
      fileParallelism: false,
      provide: { petstoreContract: { ...session.config, spec: specFile } as ContractConfig },
    },
    // vitest caches results under the root; the package may be installed read-only, so keep it out of there.
    { cacheDir: join(tmpdir(), 'petstore-kit-vitest') },
  );
  await vitest.close();
  // vitest sets the exit code for its own CLI; ours is decided by the caller from the report.
  process.exitCode = previousExitCode;
  const report = buildReport(session.config, reporter.results, { startedAt: started });
  out(formatTextSummary(report));
  return report;
}
