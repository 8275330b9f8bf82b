/**
 * petstore-kit's contract suite: the engine (`runContract`, or `createSession` + `contractCases` + `runCase`
 * as `contract-tests/` drives it under vitest), the check ids and the report formats.
 * @example
 * import { runContract } from 'petstore-kit/contract';
 * const report = await runContract({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 * if (report.summary.failed > 0) console.log(report.failedChecks);
 */
export { checks, checkIds, type CheckId } from './base/check-ids.js';
export {
  createSession,
  taggedName,
  DEFAULT_TIMEOUT,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_BODY,
  DEFAULT_DEADLINE,
  DEFAULT_TIME_BUDGET,
  DEFAULT_CONCURRENCY,
  DEFAULT_RUNS,
  type ContractConfig,
  type Session,
} from './base/session.js';
export { contractCases } from './run/contract-cases.js';
export { runCase, type ContractCase, type CaseContext } from './engine/run-case.js';
export { StopRun } from './base/stop-run.js';
export { createSecretRedactor, MIN_MASKED_SECRET_LENGTH } from '../redact/redact-secrets.js';
export { runContract } from './run/run-contract.js';
export { runContractSuite, type SuiteOptions } from './run/run-contract-suite.js';
export { probeTarget, TargetError } from './transport/probe-target.js';
export { configFromEnv } from './run/config-from-env.js';
export {
  buildReport,
  groupFailures,
  type ContractReport,
  type FailureGroup,
  type GeneratedSummary,
} from './reports/build-report.js';
export { generatedCases } from './run/generated-cases.js';
export { formatJunit } from './reports/format-junit.js';
export { formatMarkdown } from './reports/format-markdown.js';
export { formatHtml, replayCommand, type HtmlRunContext } from './reports/format-html.js';
export { verdictOf, type Verdict } from './reports/report-verdict.js';
export { formatTextSummary, summaryLine } from './reports/format-text.js';
export { ContractReporter } from './reports/contract-reporter.js';
export type { CaseResult, Failure, Note, CoverageRow, GeneratedRun } from './base/case-result.js';
