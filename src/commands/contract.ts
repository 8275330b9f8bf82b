import { parseArgs } from 'node:util';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, parseInteger } from './usage-error.js';
import { TargetError } from '../contract/probe-target.js';
import { DEFAULT_MAX_REQUESTS, DEFAULT_TIMEOUT } from '../contract/session.js';
import { createRedactor } from '../contract/redact.js';
import { formatJunit } from '../contract/format-junit.js';
import { formatMarkdown } from '../contract/format-markdown.js';

export const contractHelp = `Usage: petstore-kit contract --base-url URL [options]

Checks a running Petstore API v1 against openapi.yaml and exits 0 when the contract holds, 1 when any check
failed, 2 for a usage error or a target that cannot be checked (unreachable, no API at that URL, key refused).

Options:
  --base-url URL        the API's base URL, version segment included, e.g. https://staging.example.com/v1
                        (default: CONTRACT_BASE_URL)
  --api-key KEY         a key the target accepts (default: PETSTORE_API_KEY); never printed or reported
  --read-only           send no writes (no POST), for production; lists the checks it skipped
  --timeout MS          per-request timeout in milliseconds (default ${DEFAULT_TIMEOUT})
  --max-requests N      stop sending after N requests (default ${DEFAULT_MAX_REQUESTS}; a full run sends about 56)
  --require-coverage    fail when a documented operation × status was not exercised
  --run-id ID           tag for the pets this run creates, contract-<ID>-… (default: made up from the clock)
  --junit FILE          write a JUnit XML report
  --json FILE           write the full report as JSON
  -h, --help            show this help

A Markdown summary is appended to $GITHUB_STEP_SUMMARY when that variable is set.
`;

/** `petstore-kit contract`: flags → the vitest contract suite against a target → reports → exit code. */
export async function runContractCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'read-only': { type: 'boolean' },
      timeout: { type: 'string' },
      'max-requests': { type: 'string' },
      'require-coverage': { type: 'boolean' },
      'run-id': { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(contractHelp);
    return 0;
  }
  const baseUrl = values['base-url'] ?? process.env.CONTRACT_BASE_URL;
  if (!baseUrl) throw new UsageError('--base-url is required (the API base URL, e.g. http://127.0.0.1:4010/v1)');
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL (got "${baseUrl}")`);
  const apiKey = values['api-key'] ?? process.env.PETSTORE_API_KEY;
  if (!apiKey?.trim()) throw new UsageError(`an API key is required: --api-key KEY or PETSTORE_API_KEY${pluralKeyHint()}`);
  const runId = values['run-id'];
  if (runId !== undefined && !/^[\w.-]{1,40}$/.test(runId)) throw new UsageError(`--run-id must be 1 to 40 letters, digits, "_", "." or "-" (got "${runId}")`);
  const files = { junit: values.junit, json: values.json };
  for (const [flag, file] of Object.entries(files)) if (file !== undefined) await prepareFile(flag, file);

  // vitest is loaded only when a run starts, so that `petstore-kit mock` and usage errors stay quick.
  const { runContractSuite } = await import('../contract/run-contract-suite.js');
  let report;
  try {
    report = await runContractSuite({
      baseUrl,
      apiKey,
      readOnly: values['read-only'] ?? false,
      requireCoverage: values['require-coverage'] ?? false,
      timeout: parseInteger('timeout', values.timeout, 1, 600_000) ?? DEFAULT_TIMEOUT,
      maxRequests: parseInteger('max-requests', values['max-requests'], 1) ?? DEFAULT_MAX_REQUESTS,
      ...(runId ? { runId } : {}),
    });
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
  // The reports are built from redacted records; redacting the finished text again costs nothing and makes sure.
  const redact = createRedactor(apiKey);
  if (files.junit) await writeFile(files.junit, redact(formatJunit(report)));
  if (files.json) await writeFile(files.json, redact(`${JSON.stringify(report, null, 2)}\n`));
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) await appendFile(summaryFile, redact(formatMarkdown(report)));
  return report.summary.failed > 0 ? 1 : 0;
}

/** PETSTORE_API_KEYS (the mock's list of accepted keys) set where PETSTORE_API_KEY was meant is a common slip. */
function pluralKeyHint(): string {
  const keys = process.env.PETSTORE_API_KEYS;
  if (!keys?.trim()) return '';
  return ` (PETSTORE_API_KEYS is set, but that is the mock's list of accepted keys; this command reads PETSTORE_API_KEY, one key: PETSTORE_API_KEY=${keys.includes(',') ? '<one of them>' : '"$PETSTORE_API_KEYS"'})`;
}

/** A report file must be writable before the run starts, not discovered unwritable after it. */
async function prepareFile(flag: string, file: string): Promise<void> {
  try {
    await mkdir(dirname(resolve(file)), { recursive: true });
    await writeFile(file, '', { flag: 'a' });
  } catch (error) {
    throw new UsageError(`--${flag} ${file}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
