import { parseArgs } from 'node:util';
import { appendFile } from 'node:fs/promises';
import { text as readStream } from 'node:stream/consumers';
import { InputError, UsageError } from '../input-errors.js';
import { packageVersion } from '../package-version.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { loadDocument, type DocumentSource, type LoadedDocument } from '../compat/load-document.js';
import { compareDocuments } from '../compat/compare-documents.js';
import { DEFAULT_MIN_NOTICE_DAYS, day } from '../compat/lifecycle.js';
import { readJournalFile } from '../compat/read-journal.js';
import { JournalReplayer, type JournalReplay } from '../compat/replay-journal.js';
import {
  buildCompatReport,
  notJudgedReport,
  withJournalError,
  type CompatReport,
  type FailOn,
  type ReportRun,
} from '../compat/report/compat-report.js';
import { formatCompatText } from '../compat/report/format-text.js';
import { formatCompatJunit } from '../compat/report/format-junit.js';
import { formatCompatMarkdown } from '../compat/report/format-markdown.js';
import { formatCompatHtml, type CompatSources } from '../compat/report/format-html.js';
import { parseInteger } from './usage-error.js';

export const compatHelp = `Usage: petstore-kit compat OLD NEW [options]

Compares two versions of the OpenAPI document for a client of OLD: every difference is breaking, a warning or
info, under a stable check id, with where it is in both documents (see docs/compat.md). OLD and NEW are files, http(s)
URLs, or - for standard input (one of them). Exit 0: compatible; 1: a breaking change (or, with --fail-on warning,
a warning); 2: could not judge (a document that does not load, a $ref that does not resolve, a journal that cannot
be read, a bad flag).

Options:
  --date YYYY-MM-DD     judge the lifecycle on this day instead of today: removing a deprecated operation is
                        breaking before its x-sunset and allowed on or after it
  --min-notice DAYS     the fewest days a new or moved x-sunset must leave after --date (default ${DEFAULT_MIN_NOTICE_DAYS})
  --fail-on LEVEL       breaking (default) or warning: which findings make the exit code 1
  --journal FILE        the mock's journal saved by a client's tests (GET /__admin/journal, or journal() in a
                        test): each recorded request is replayed against NEW: refused requests, answers NEW no
                        longer promises, deprecated or removed operations still called
  --json FILE           write the report as JSON (whatever the exit code)
  --junit FILE          write a JUnit XML report, one testcase per finding (whatever the exit code)
  --markdown FILE       write a Markdown summary (also appended to $GITHUB_STEP_SUMMARY when that is set)
  --html FILE           write the report as one self-contained HTML page, both documents side by side (whatever
                        the exit code)
  -h, --help            show this help
`;

const flags = {
  date: { type: 'string' },
  'min-notice': { type: 'string' },
  'fail-on': { type: 'string' },
  journal: { type: 'string' },
  json: { type: 'string' },
  junit: { type: 'string' },
  markdown: { type: 'string' },
  html: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Settings {
  old: string;
  new: string;
  date: Date;
  minNoticeDays: number;
  failOn: FailOn;
  journal: string | undefined;
}

/** `petstore-kit compat OLD NEW`: two documents (and a journal) → findings → reports → exit code 0, 1 or 2. */
export async function runCompat(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: flags });
  if (values.help) {
    process.stdout.write(compatHelp);
    return 0;
  }
  const files = { json: values.json, junit: values.junit, markdown: values.markdown, html: values.html };
  let settings: Settings | undefined;
  let report: CompatReport;
  // The documents' texts, for the HTML page's excerpts: kept by judge() once both have loaded.
  const sources: CompatSources = {};
  try {
    settings = settingsFrom(positionals, values);
    report = await judge(settings, sources);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // Could not judge: said on stderr and in every report asked for, never read as compatible.
    process.stderr.write(`petstore-kit: ${error.message}\n`);
    report = notJudgedReport(runOf(settings, positionals), error.message);
  }
  process.stdout.write(formatCompatText(report));
  await writeReports(files, report, sources);
  return report.exitCode;
}

function settingsFrom(
  positionals: string[],
  values: { date?: string; 'min-notice'?: string; 'fail-on'?: string; journal?: string },
): Settings {
  if (positionals.length !== 2)
    throw new UsageError(
      `compat needs two documents, OLD and NEW (got ${positionals.length}); see "petstore-kit compat --help"`,
    );
  const [old, current] = positionals as [string, string];
  if (old === '-' && current === '-')
    throw new UsageError('compat: only one of OLD and NEW can be read from standard input (-)');
  const failOn = values['fail-on'] ?? 'breaking';
  if (failOn !== 'breaking' && failOn !== 'warning')
    throw new UsageError(`--fail-on must be breaking or warning (got "${failOn.slice(0, 40)}")`);
  return {
    old,
    new: current,
    date: parseDate(values.date),
    minNoticeDays: parseInteger('min-notice', values['min-notice'], 0, 36_500) ?? DEFAULT_MIN_NOTICE_DAYS,
    failOn,
    journal: values.journal,
  };
}

/** `--date 2030-12-05` (a day, UTC) or a full ISO 8601 timestamp; today without it. */
function parseDate(value: string | undefined): Date {
  if (value === undefined) return new Date();
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime()))
    throw new UsageError(`--date must be a day as YYYY-MM-DD, e.g. 2030-12-05 (got "${value.slice(0, 40)}")`);
  return date;
}

async function judge(settings: Settings, sources: CompatSources): Promise<CompatReport> {
  const [old, current] = await Promise.all([
    loadDocument(await sourceOf(settings.old)),
    loadDocument(await sourceOf(settings.new)),
  ]);
  sources.old = old.text;
  sources.new = current.text;
  const findings = compareDocuments(old, current, { date: settings.date, minNoticeDays: settings.minNoticeDays });
  if (settings.journal === undefined) return buildCompatReport(runOf(settings, []), findings);
  try {
    return buildCompatReport(runOf(settings, []), findings, await replay(settings.journal, old, current, findings));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // The documents were compared: their findings stand in the report beside why the journal was not replayed.
    process.stderr.write(`petstore-kit: ${error.message}\n`);
    return withJournalError(buildCompatReport(runOf(settings, []), findings), error.message);
  }
}

/** The journal read as a stream and replayed entry by entry: memory bounded by one entry and the findings' groups. */
async function replay(
  file: string,
  old: LoadedDocument,
  current: LoadedDocument,
  findings: ReturnType<typeof compareDocuments>,
): Promise<JournalReplay> {
  const replayer = new JournalReplayer(file, old, current, findings);
  for await (const exchange of readJournalFile(file)) replayer.add(exchange);
  return replayer.result();
}

async function sourceOf(argument: string): Promise<DocumentSource> {
  if (/^https?:\/\//i.test(argument)) return { url: argument };
  if (argument !== '-') return { path: argument };
  return { label: '-', text: await readStream(process.stdin) };
}

function runOf(settings: Settings | undefined, positionals: string[]): ReportRun {
  return {
    version: packageVersion(),
    old: settings?.old ?? positionals[0] ?? '(not given)',
    new: settings?.new ?? positionals[1] ?? '(not given)',
    date: day(settings?.date ?? new Date()),
    minNoticeDays: settings?.minNoticeDays ?? DEFAULT_MIN_NOTICE_DAYS,
    failOn: settings?.failOn ?? 'breaking',
  };
}

async function writeReports(
  files: { json?: string; junit?: string; markdown?: string; html?: string },
  report: CompatReport,
  sources: CompatSources,
): Promise<void> {
  const markdown = formatCompatMarkdown(report);
  if (files.json) await writeFileAtomic(files.json, `${JSON.stringify(report, null, 2)}\n`);
  if (files.junit) await writeFileAtomic(files.junit, formatCompatJunit(report));
  if (files.markdown) await writeFileAtomic(files.markdown, markdown);
  if (files.html) await writeFileAtomic(files.html, formatCompatHtml(report, sources));
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, markdown);
}
