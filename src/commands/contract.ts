import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { appendFile, readFile } from 'node:fs/promises';
import { UsageError, parseInteger, parsePositive } from './usage-error.js';
import { DocumentError } from '../input-errors.js';
import { checkWritable, writeFileAtomic, writeFileAtomicSync } from '../fs/write-file-atomic.js';
import { appendFileSync } from 'node:fs';
import { flagsTaking, loadConfig, type FlagTable } from '../config/load-config.js';
import { TargetError } from '../contract/transport/probe-target.js';
import {
  DEFAULT_DEADLINE,
  DEFAULT_MAX_BODY,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_CONCURRENCY,
  DEFAULT_RUNS,
  MAX_CONCURRENCY,
  MAX_SEED,
  DEFAULT_TIMEOUT,
  newRunId,
  secretsOf,
  type ContractConfig,
} from '../contract/base/session.js';
import { createSecretRedactor, isMaskable, MIN_MASKED_SECRET_LENGTH } from '../redact/redact-secrets.js';
import { buildReport, type ContractReport } from '../contract/reports/build-report.js';
import type { CaseResult } from '../contract/base/case-result.js';
import { formatJunit } from '../contract/reports/format-junit.js';
import { formatMarkdown } from '../contract/reports/format-markdown.js';
import { verdictOf } from '../contract/reports/report-verdict.js';
import { formatHtml, type HtmlRunContext } from '../contract/reports/format-html.js';
import { loadSpec, type Spec } from '../openapi/load-spec.js';
import { defaultSpecFile } from '../paths.js';
import { basename } from 'node:path';
import { packageVersion } from '../package-version.js';
import { parseBaseUrl, parseHeaders, parseSize, checkApiKey } from './contract-options.js';
import { basicKeyMisfit, isBasicKey } from '../contract/transport/credentials.js';

export const contractHelp = `Usage: petstore-kit contract --base-url URL [options]

Checks a running Petstore API against its OpenAPI document (openapi.yaml of v1 unless --spec names another) and exits 0 when the contract holds, 1 when any check
failed, 2 for a usage error or a target that cannot be checked (unreachable, redirected, no API at that URL, key
refused), a run that stopped early (--deadline passed, the target stopped answering, interrupted), a run that
judged nothing (no operation of the document got a request: "nothing judged") or a case that could not try its
minimum examples (--max-requests reached): such a case is "not run", never passed. Every report lists each
operation no request reached, with why.

Options:
  --base-url URL        the API's base URL, version segment included, e.g. https://staging.example.com/v1
                        (default: CONTRACT_BASE_URL); no credentials, query or fragment in it
  --api-key KEY         a key the target accepts (default: PETSTORE_API_KEY); never printed or reported
  --spec FILE|URL       the OpenAPI 3 document to judge the target against (default: CONTRACT_SPEC, else the
                        bundled openapi.yaml); one that does not load is exit 2 with the reason
  -H, --header 'Name: value'
                        an extra header on every request (repeatable), e.g. for a gateway or an access proxy;
                        values are never printed
  --ca FILE             trust the certificate authorities in this PEM file (instead of the bundled roots)
  --insecure            do not check the target's certificate (test deployments only; prints a warning)
  --read-only           send no writes (no POST, PUT, PATCH or DELETE), for production; lists what it skipped
  --timeout MS          per-request timeout in milliseconds (default ${DEFAULT_TIMEOUT})
  --deadline S          stop the whole run after S seconds, exit 2 (default ${DEFAULT_DEADLINE / 1000})
  --max-body SIZE       the largest response body read, after decompression: bytes, or with KiB/MiB
                        (default ${DEFAULT_MAX_BODY / 1024 / 1024}MiB); a longer one fails response.bounded
  --max-requests N      stop sending after N requests (default ${DEFAULT_MAX_REQUESTS}); the generated phase stops
                        early to stay within it (the fixed cases send about 56)
  --seed N              the generated phase's seed (printed at the start); the same seed against the same
                        target sends the same requests, so a failure replays (default: random)
  --runs N              examples each generated property tries (default ${DEFAULT_RUNS}); a slow target gets as many
  --time-budget S       an optional cap on the generated phase, shared fairly between its cases (default: none,
                        the examples decide); 0 turns the phase off
  --concurrency N       generated examples and stateful sequences in flight at once, each one's requests in
                        order; --rate and Retry-After are shared (default ${DEFAULT_CONCURRENCY}; 1 replays a seed in the same order)
  --rate N              at most N requests per second, 0.5 for one every 2 s (default: no limit); a 429, or
                        a 503 with Retry-After, is waited out and the request sent again either way
  --require-coverage    fail when a documented operation × status was not exercised
  --run-id ID           tag for the pets this run creates, contract-<ID>-… (default: made up from the clock)
  --junit FILE          write a JUnit XML report (at the end, whatever the exit code)
  --json FILE           write the full report as JSON (at the end, whatever the exit code)
  --html FILE           write the report as one self-contained HTML page (at the end, whatever the exit code)
  --config FILE         read options from a JSON file of long flag names, e.g. {"header": ["X-Env: staging"]};
                        flags given on the command line override it
  -h, --help            show this help
  -v, --version         print the version

HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured. Redirects are never followed.
A Markdown summary is appended to $GITHUB_STEP_SUMMARY when that variable is set.
`;

const flags = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  spec: { type: 'string' },
  header: { type: 'string', short: 'H', multiple: true },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  'read-only': { type: 'boolean' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'max-body': { type: 'string' },
  'max-requests': { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'time-budget': { type: 'string' },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  'require-coverage': { type: 'boolean' },
  'run-id': { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'string' },
  html: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} satisfies FlagTable;

type Values = {
  [K in keyof typeof flags]?: (typeof flags)[K] extends { multiple: true }
    ? string[]
    : (typeof flags)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

/** `petstore-kit contract`: flags → the vitest contract suite against a target → reports → exit code. */
export async function runContractCommand(args: string[]): Promise<number> {
  const read = await readFlags(args);
  if (typeof read === 'number') return read;
  const values = { ...(read.config?.values as Values | undefined), ...read.given };
  const files: ReportFiles = { junit: values.junit, json: values.json, html: values.html };
  const runId = values['run-id'] ?? newRunId();
  const apiKey = values['api-key'] ?? process.env.PETSTORE_API_KEY ?? '';
  const headers = headersToRedact(values.header ?? []);
  // Whatever happens from here on, the report files say it: an earlier run's file is never left in place.
  const redact = createSecretRedactor(secretsOf({ apiKey, headers }));
  const results: CaseResult[] = [];
  const started = new Date();
  let baseUrl = '(not set)';
  let readOnly = values['read-only'] ?? false;
  const spec = values.spec ?? process.env.CONTRACT_SPEC;
  // The page can be written synchronously (on a signal) from the start: until the document is read, it names it.
  let page = files.html === undefined ? undefined : unreadPage(spec ?? defaultSpecFile, 'not read yet');
  const finish = async (report: ContractReport) => writeReports(files, report, redact, page);
  const stoppedReport = (reason: string) =>
    buildReport({ baseUrl, spec, runId, readOnly, requireCoverage: values['require-coverage'] ?? false }, results, {
      startedAt: started,
      stopped: reason,
      redact,
    });

  // Synchronous to the end: vitest has its own handler that exits a moment later, and ours runs first.
  const onSignal = (signal: NodeJS.Signals) => {
    const reason = `interrupted by ${signal}`;
    let written = 'reports written';
    try {
      writeReportsSync(files, stoppedReport(reason), redact, page);
    } catch (error) {
      written = `reports not written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
    process.stderr.write(`petstore-kit: ${reason}; ${written}\n`);
    process.exit(2);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for (const [flag, file] of Object.entries(files) as [string, string | undefined][])
      if (file !== undefined) await ensureWritable(flag, file);
    let report: ContractReport;
    try {
      const settings = await settingsFrom(values, apiKey, runId).catch((error: unknown) => {
        if (page && error instanceof DocumentError) page = unreadPage(spec!, error.message);
        throw error;
      });
      baseUrl = settings.baseUrl;
      if (page) page = await pageContext(typeof settings.spec === 'object' ? settings.spec : undefined);
      if (!isMaskable(apiKey)) process.stderr.write(`${shortKeyNotice}\n`);
      readOnly = settings.readOnly ?? false;
      // vitest's worker is a second V8 heap in this process; smaller young generations (V8 reads the flag when a
      // heap is made) keep the runner's peak well under its 300 MB bound at the cost of a few more minor GCs.
      setFlagsFromString('--max-semi-space-size=4');
      // vitest is loaded only when a run starts, so that `petstore-kit mock` and usage errors stay quick.
      const { runContractSuite } = await import('../contract/run/run-contract-suite.js');
      report = await runContractSuite(settings, { results });
    } catch (error) {
      const message =
        error instanceof TargetError || error instanceof UsageError || error instanceof DocumentError
          ? error.message
          : undefined;
      if (message !== undefined) {
        await finish(stoppedReport(message));
        throw new UsageError(redact(message));
      }
      await finish(stoppedReport(`petstore-kit failed: ${error instanceof Error ? error.message : String(error)}`));
      throw error;
    }
    await finish(report);
    return exitCodeOf(report);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The -H values to keep out of the reports: none when they do not parse (settingsFrom then says why, by flag). */
function headersToRedact(given: string[]): Record<string, string> {
  try {
    return parseHeaders(given);
  } catch {
    return {};
  }
}

/**
 * The flags given and the config file they name (its values under the flags'), or the exit code when only the help
 * or the version was asked for. A usage error here is written to the report files named before it is thrown.
 */
async function readFlags(
  args: string[],
): Promise<{ given: Values; config: Awaited<ReturnType<typeof loadConfig>> | undefined } | number> {
  try {
    const given: Values = parseArgs({ args, strict: true, allowPositionals: false, options: flags }).values;
    if (given.help) {
      process.stdout.write(contractHelp);
      return 0;
    }
    if (given.version) {
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    const config =
      given.config === undefined
        ? undefined
        : await loadConfig(given.config, {
            flags,
            exclude: ['help', 'version', 'config', 'api-key'],
            fileFlags: flagsTaking('FILE', contractHelp),
          });
    return { given, config };
  } catch (error) {
    await reportEarlyError(args, error);
    throw error;
  }
}

/**
 * 1 when a check failed, 0 when none did; a run stopped, one that judged nothing, or one with a case not run, is
 * inconclusive (a usage error, 2), its line the verdict's why (`nothing judged: …`).
 */
function exitCodeOf(report: ContractReport): number {
  // A verdict counts only what ran (report-verdict.ts): the reports list each case not run with why and the option to raise.
  const verdict = verdictOf(report);
  if (verdict.exitCode === 2) throw new UsageError(report.stopped ? `stopped: ${report.stopped}` : verdict.why);
  return verdict.exitCode;
}

/** Said once, on stderr, when the key is too short to search for (src/redact/redact-secrets.ts says why). */
const shortKeyNotice = `petstore-kit: the key is shorter than ${MIN_MASKED_SECRET_LENGTH} characters, too short to tell apart from ordinary text: reports show it as $PETSTORE_API_KEY where the runner sent it, and do not search what the target sends back for it`;

/**
 * A flag or config file the command cannot read still leaves no earlier run's report in place: the report files
 * named in the arguments (read leniently) are written with the error as the reason the run stopped.
 */
async function reportEarlyError(args: string[], error: unknown): Promise<void> {
  let values: Values;
  try {
    values = parseArgs({ args, strict: false, allowPositionals: true, options: flags }).values as Values;
  } catch {
    return;
  }
  const files = {
    junit: typeof values.junit === 'string' ? values.junit : undefined,
    json: typeof values.json === 'string' ? values.json : undefined,
    html: typeof values.html === 'string' ? values.html : undefined,
  };
  if (!files.junit && !files.json && !files.html) return;
  const apiKey = typeof values['api-key'] === 'string' ? values['api-key'] : (process.env.PETSTORE_API_KEY ?? '');
  const redact = createSecretRedactor(secretsOf({ apiKey }));
  const report = buildReport({ baseUrl: '(not set)', runId: newRunId(), readOnly: false, requireCoverage: false }, [], {
    startedAt: new Date(),
    durationMs: 0,
    stopped: `usage error: ${(error as Error).message}`,
    redact,
  });
  const spec = typeof values.spec === 'string' ? values.spec : process.env.CONTRACT_SPEC;
  const page = files.html
    ? spec === undefined
      ? await pageContext(undefined)
      : unreadPage(spec, 'not read')
    : undefined;
  await writeReports(files, report, redact, page).catch(() => {});
}

/** Flag values → the run's settings, each checked; a UsageError names the flag and never echoes a secret. */
async function settingsFrom(values: Values, apiKey: string, runId: string): Promise<ContractConfig> {
  const baseUrl = parseBaseUrl(values['base-url'] ?? process.env.CONTRACT_BASE_URL);
  checkApiKey(apiKey);
  if (!/^[\w.-]{1,40}$/.test(runId))
    throw new UsageError(
      `--run-id must be 1 to 40 letters, digits, "_", "." or "-" (got "${runId.slice(0, 60).replace(/[^\x20-\x7e]/g, '?')}")`,
    );
  const headers = parseHeaders(values.header ?? []);
  if (values.ca !== undefined) await readCa(values.ca);
  // Read once here, so that a document that does not load stops the run before the target is asked anything.
  const spec = values.spec ?? process.env.CONTRACT_SPEC;
  const document = spec === undefined ? undefined : await loadSpec(spec);
  const misfit = isBasicKey(apiKey) ? basicKeyMisfit((document ?? (await loadSpec())).operations, apiKey) : undefined;
  if (misfit) throw new UsageError(misfit);
  if (values.insecure)
    process.stderr.write(
      "petstore-kit: warning: --insecure: the target's certificate is not checked; anyone on the path could read the API key\n",
    );
  return {
    baseUrl,
    apiKey,
    ...(document ? { spec: document } : {}),
    headers,
    ...(values.ca !== undefined ? { ca: values.ca } : {}),
    insecure: values.insecure ?? false,
    readOnly: values['read-only'] ?? false,
    requireCoverage: values['require-coverage'] ?? false,
    timeout: parseInteger('timeout', values.timeout, 1, 600_000) ?? DEFAULT_TIMEOUT,
    deadline: (parseInteger('deadline', values.deadline, 1, 86_400) ?? DEFAULT_DEADLINE / 1000) * 1000,
    maxBody: parseSize('max-body', values['max-body']) ?? DEFAULT_MAX_BODY,
    maxRequests: parseInteger('max-requests', values['max-requests'], 1) ?? DEFAULT_MAX_REQUESTS,
    ...(values.seed !== undefined ? { seed: parseInteger('seed', values.seed, 0, MAX_SEED)! } : {}),
    ...(values.runs !== undefined ? { runs: parseInteger('runs', values.runs, 1, 100_000)! } : {}),
    ...(values['time-budget'] !== undefined
      ? { timeBudget: parseInteger('time-budget', values['time-budget'], 0, 86_400)! * 1000 }
      : {}),
    rate: parsePositive('rate', values.rate, 100_000) ?? 0,
    concurrency: parseInteger('concurrency', values.concurrency, 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY,
    runId,
  };
}

async function readCa(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--ca ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--ca ${file}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
}

/** A report file's directory must take a new file before the run starts; the file itself is not touched yet. */
async function ensureWritable(flag: string, file: string): Promise<void> {
  try {
    await checkWritable(file);
  } catch (error) {
    throw new UsageError(
      `--${flag} ${file}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

interface ReportFiles {
  junit?: string | undefined;
  json?: string | undefined;
  html?: string | undefined;
}

/**
 * What the HTML page says beyond the report: the document the run judged (--spec, else the package's openapi.yaml)
 * and its operations. The bundled document that cannot be read (a broken install) still leaves a page, without them.
 */
async function pageContext(judged: Spec | undefined): Promise<HtmlRunContext> {
  try {
    const spec = judged ?? (await loadSpec(defaultSpecFile));
    return {
      document: {
        file: basename(spec.file ?? defaultSpecFile),
        title: spec.document.info.title,
        version: spec.document.info.version,
      },
      operations: spec.operations.map((o) => ({ id: o.id, method: o.method, path: o.path })),
    };
  } catch (error) {
    return unreadPage(defaultSpecFile, `not read: ${(error as Error).message}`);
  }
}

/** The page's header for a document not read (yet, or at all): its file or URL's last segment, and why. */
function unreadPage(source: string, why: string): HtmlRunContext {
  return { document: { file: basename(source), title: `(${why})`, version: '' }, operations: [] };
}

/** The report files, each written once and atomically, and the step summary appended (GitHub's protocol). */
async function writeReports(
  files: ReportFiles,
  report: ContractReport,
  redact: (text: string) => string,
  page: HtmlRunContext | undefined,
): Promise<void> {
  // The reports are built from redacted records; redacting the finished text again costs little and makes sure.
  if (files.junit) await writeFileAtomic(files.junit, redact(formatJunit(report)));
  if (files.json) await writeFileAtomic(files.json, redact(`${JSON.stringify(report, null, 2)}\n`));
  if (files.html && page) await writeFileAtomic(files.html, redact(formatHtml(report, page)));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) await appendFile(summaryFile, redact(formatMarkdown(report)));
}

function writeReportsSync(
  files: ReportFiles,
  report: ContractReport,
  redact: (text: string) => string,
  page: HtmlRunContext | undefined,
): void {
  if (files.junit) writeFileAtomicSync(files.junit, redact(formatJunit(report)));
  if (files.json) writeFileAtomicSync(files.json, redact(`${JSON.stringify(report, null, 2)}\n`));
  if (files.html && page) writeFileAtomicSync(files.html, redact(formatHtml(report, page)));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) appendFileSync(summaryFile, redact(formatMarkdown(report)));
}
