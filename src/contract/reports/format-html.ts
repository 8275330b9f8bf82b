import { basisOf, describeCheck } from '../base/check-basis.js';
import { checkIds, type CheckId } from '../base/check-ids.js';
import type { CaseResult, Failure } from '../base/case-result.js';
import { copyButton, filterBar, html, htmlLines, htmlPage } from '../../text/html-page.js';
import { BUNDLED_DOCUMENT, DOCUMENT_VALUE, type ContractReport, type FailureGroup } from './build-report.js';
import { coverageState, summaryLine } from './format-text.js';
import { latencyByOperation, type OperationLatency, type OperationPath } from './latency.js';
import { readCurl } from './read-curl.js';
import { verdictOf } from './report-verdict.js';

/** What the page says beyond the report: the document the run judged against, and its operations. */
export interface HtmlRunContext {
  document: { file: string; title: string; version: string };
  /** To file each request under its operation for the latency chart. */
  operations: OperationPath[];
}

/**
 * The size rule (docs/contract.md): every case, check and group is listed; the first `MAX_DETAILED_GROUPS` groups of
 * failures are shown in full (requests, answers, reproduction), the rest by their first line; a body or a curl
 * line is cut at `MAX_SHOWN_TEXT` characters (the JSON report keeps each string up to 4000). A default run's page
 * stays far below 300 KB, and the largest page is bounded by the number of cases, not of requests.
 */
export const MAX_DETAILED_GROUPS = 50;
export const MAX_SHOWN_TEXT = 2000;

type Outcome = 'passed' | 'failed' | 'notRun' | 'skipped';
const OUTCOME_LABEL: Record<Outcome | 'note', string> = {
  passed: '✓ passed',
  failed: '✗ failed',
  notRun: '○ not run',
  skipped: '– skipped',
  note: 'ℹ note',
};

/**
 * The contract run as one self-contained HTML page, rendered from the same report the other forms are (its strings
 * already redacted and bounded by buildReport; every one is HTML-escaped here): the verdict as the exit code says
 * it, the coverage matrix of operations × checks, the failures by check id with what was sent and what came back,
 * the latency of each operation, and every case. Filters by operation, check and outcome are plain `<select>`s.
 * @example
 * const spec = await loadSpec();
 * const context = { document: { file: 'openapi.yaml', title: spec.document.info.title, version: spec.document.info.version },
 *   operations: spec.operations.map(({ id, method, path }) => ({ id, method, path })) };
 * writeFileSync('report.html', formatHtml(await runContract(config), context));
 */
export function formatHtml(report: ContractReport, context: HtmlRunContext): string {
  const verdict = verdictOf(report);
  const tone = verdict.exitCode === 0 ? 'pass' : verdict.exitCode === 1 ? 'fail' : 'warn';
  const title =
    verdict.label === 'holds'
      ? 'the contract holds'
      : verdict.label === 'failed'
        ? 'the contract failed'
        : 'could not judge the contract';
  const operations = [...new Set([...context.operations.map((o) => o.id), ...report.cases.map((c) => c.operation)])];
  const usedChecks = checkIds.filter(
    (id) =>
      report.notes.some((n) => n.check === id) ||
      report.cases.some((c) => c.check === id || id in c.checks || c.failures.some((f) => f.check === id)),
  );
  const body = [
    `<header><h1>${html(contractName(report, context))}: ${html(title)}</h1>`,
    `<p class="verdict ${tone}" role="status">Exit ${verdict.exitCode}: ${html(verdict.label)} — ${html(verdict.why)}</p>`,
    facts(report, context),
    '</header>',
    '<main>',
    filterBar([
      { name: 'operation', label: 'Operation', choices: operations },
      { name: 'check', label: 'Check', choices: usedChecks },
      { name: 'outcome', label: 'Outcome', choices: [['passed', 'passed'], ['failed', 'failed'], ['notRun', 'not run'], ['skipped', 'skipped'], ['note', 'note']] },
    ]),
    matrix(report, operations, usedChecks, chooser(report)),
    operationsNotRun(report),
    failures(report),
    latency(latencyByOperation(report, context.operations)),
    coverage(report),
    checkCoverageTable(report),
    notes(report),
    caseTable(report.cases),
    '</main>',
  ].join('\n');
  return htmlPage({ title: `${contractName(report, context)}: ${title} (${report.baseUrl})`, style: STYLE, body });
}

/**
 * The page's name for the contract: "Petstore contract" on the interface's own document, as it always was; on any
 * other, the document's title (`Museum API contract`), so a page never speaks of a Petstore it did not judge.
 */
function contractName(report: ContractReport, context: HtmlRunContext): string {
  if (report.document?.basis !== 'document') return 'Petstore contract';
  return `${report.document.title || context.document.title} contract`;
}

function facts(report: ContractReport, context: HtmlRunContext): string {
  const rows: [string, string][] = [
    ['Target', `<code>${html(report.baseUrl)}</code>${report.readOnly ? ' (read-only: no writes)' : ''}`],
    [
      'Document',
      `${html(context.document.title)} ${html(context.document.version)} <span class="muted">(${html(context.document.file)})</span>`,
    ],
    ['Cases', html(summaryLine(report))],
    [
      'Run',
      `${html(report.runId)}, started ${html(report.startedAt)}, ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s; petstore-kit ${html(report.version)}`,
    ],
  ];
  if (report.generated) {
    const g = report.generated;
    rows.push([
      'Generated phase',
      `seed <code>${g.seed}</code>: ${g.runs} examples in ${g.cases} cases, ${g.requests} requests, ${g.failures} failure${g.failures === 1 ? '' : 's'}${g.cutShort ? ` (cut short: ${html(g.cutShort)})` : ''}`,
    ]);
  } else rows.push(['Generated phase', 'did not run (no seed to replay)']);
  if (report.stopped) rows.push(['Stopped early', html(report.stopped)]);
  rows.push(['Replay', `${copyButton('replay-command')}<pre id="replay-command">${html(replayCommand(report))}</pre>`]);
  return `<dl class="facts">${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

/**
 * The command that sends the same requests again: the same target, document, seed and mode; the key from the
 * environment. A document other than the bundled one is named with `--spec` (replayed without it, the run would
 * judge the bundled openapi.yaml instead).
 */
export function replayCommand(report: ContractReport): string {
  const parts = ['npx petstore-kit contract', '--base-url', shellQuote(report.baseUrl)];
  if (report.spec !== BUNDLED_DOCUMENT && report.spec !== DOCUMENT_VALUE) parts.push('--spec', shellQuote(report.spec));
  if (report.generated) parts.push('--seed', String(report.generated.seed), '--concurrency', '1');
  if (report.readOnly) parts.push('--read-only');
  if (report.requireCoverage) parts.push('--require-coverage');
  return `PETSTORE_API_KEY=… ${parts.join(' ')}`;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Cell states of one operation × check: how many cases passed, failed, were not run or skipped it; notes. */
type Cell = Record<Outcome | 'note', number>;

/** Who lets a target choose: the interface on its own document, the document on any other. */
function chooser(report: ContractReport): string {
  return report.document?.basis === 'document' ? 'the document' : 'the interface';
}

function matrix(report: ContractReport, operations: string[], usedChecks: CheckId[], lets: string): string {
  const cells = new Map<string, Cell>();
  const cell = (operation: string, check: string) => {
    const key = `${operation}\u0000${check}`;
    const found = cells.get(key) ?? { passed: 0, failed: 0, notRun: 0, skipped: 0, note: 0 };
    cells.set(key, found);
    return found;
  };
  for (const result of report.cases) {
    for (const [check, outcome] of Object.entries(result.checks)) if (outcome !== 'failed') cell(result.operation, check)[outcome]++;
    for (const failure of result.failures) cell(failure.operation, failure.check).failed++;
    // A case not run or skipped leaves its own check unjudged on its operation, whatever else it evaluated.
    if (result.status === 'notRun' || result.status === 'skipped') cell(result.operation, result.check)[result.status]++;
  }
  for (const note of report.notes) cell(note.operation, note.check).note++;
  const rows = operations.flatMap((operation) => {
    const present = new Set<string>();
    const outcomes = new Set<string>();
    const tds = usedChecks.map((check) => {
      const found = cells.get(`${operation}\u0000${check}`);
      if (!found) return '<td class="empty"><span class="sr-only">no case</span></td>';
      present.add(check);
      const marks = (['failed', 'notRun', 'passed', 'skipped', 'note'] as const)
        .filter((outcome) => found[outcome] > 0)
        .map((outcome) => {
          outcomes.add(outcome);
          return `<span class="badge ${outcome}" title="${OUTCOME_LABEL[outcome].slice(2)}: ${found[outcome]}">${OUTCOME_LABEL[outcome].slice(0, 1)}${found[outcome] > 1 ? ` ${found[outcome]}` : ''}</span>`;
        });
      return `<td>${marks.join(' ')}</td>`;
    });
    // An operation no case judged anything on (a suite error's `*`) has no row.
    if (present.size === 0) return [];
    return `<tr data-filterable data-operation="${html(operation)}" data-check="${[...present].join(' ')}" data-outcome="${[...outcomes].join(' ')}"><th scope="row">${html(operation)}</th>${tds.join('')}</tr>`;
  });
  const head = usedChecks.map((check) => `<th scope="col"><span class="vertical">${html(check)}</span></th>`).join('');
  return `<section aria-labelledby="matrix-title"><h2 id="matrix-title">Coverage: operations × checks</h2>
<p class="muted">Each cell counts the cases that judged that check on that operation: ✗ failed, ○ not run (never counted as passed), ✓ passed, – skipped, ℹ a note (what the target chose where ${lets} lets it).</p>
<div class="scroll" tabindex="0" role="region" aria-label="Coverage matrix"><table class="matrix"><thead><tr><th scope="col">operation</th>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div></section>`;
}

function failures(report: ContractReport): string {
  if (report.groups.length === 0)
    return '<section aria-labelledby="failures-title"><h2 id="failures-title">Failures</h2><p>None.</p></section>';
  const byCheck = new Map<CheckId, { group: FailureGroup; index: number }[]>();
  report.groups.forEach((group, index) => {
    const list = byCheck.get(group.check) ?? [];
    list.push({ group, index });
    byCheck.set(group.check, list);
  });
  const sections = [...byCheck].map(([check, groups]) => {
    const operations = [...new Set(groups.map(({ group }) => group.operation))];
    return `<section class="check" data-filterable data-check="${html(check)}" data-operation="${operations.map(html).join(' ')}" data-outcome="failed">
<h3><code>${html(check)}</code> <span class="muted">— ${html(describeCheck(check, report.document?.basis))}</span></h3>
<p class="basis"><strong>Rests on</strong>: ${html(basisOf(check, report.document?.basis))}</p>
${groups.map(({ group, index }) => failureGroup(group, index)).join('\n')}
</section>`;
  });
  return `<section aria-labelledby="failures-title"><h2 id="failures-title">Failures: ${report.failures.total} in ${report.groups.length} group${report.groups.length === 1 ? '' : 's'}, by check</h2>
${sections.join('\n')}</section>`;
}

function failureGroup(group: FailureGroup, index: number): string {
  const failure = group.example;
  const head = `<h4>${html(failure.operation)}: ${html(failure.title)}${group.count > 1 ? ` <span class="badge failed">×${group.count}</span>` : ''}</h4>`;
  const others = group.cases.filter((id) => id !== failure.case);
  const also = others.length ? `<p class="muted">Also in: ${others.map((id) => `<code>${html(id)}</code>`).join(', ')}</p>` : '';
  if (index >= MAX_DETAILED_GROUPS)
    return `<section class="group">${head}<p>expected ${html(cut(failure.expected))}; actual ${html(cut(failure.actual))}</p><p class="muted">Shown in full in the JSON report (the page shows the first ${MAX_DETAILED_GROUPS} groups in full).</p>${also}</section>`;
  const parts = [
    head,
    `<dl class="facts"><dt>case</dt><dd><code>${html(failure.case)}</code></dd><dt>expected</dt><dd>${html(failure.expected)}</dd><dt>actual</dt><dd>${html(failure.actual)}</dd></dl>`,
    schemaErrors(failure),
    exchange(failure, `failure-${index}`),
    reproduction(failure, `failure-${index}`),
    also,
  ];
  return `<section class="group">${parts.join('\n')}</section>`;
}

function schemaErrors(failure: Failure): string {
  if (!failure.schemaErrors?.length) return '';
  const rows = failure.schemaErrors.map(
    (e) => `<tr><td><code>${html(e.path)}</code></td><td>${html(e.rule)}</td><td>${html(e.message)}</td><td><code>${html(e.schemaPath ?? '')}</code></td></tr>`,
  );
  return `<table><caption>Schema errors</caption><thead><tr><th scope="col">where</th><th scope="col">rule</th><th scope="col">message</th><th scope="col">schema path</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The request (method, URL, headers, body) and the answer (status, Content-Type, body) of one failure. */
function exchange(failure: Failure, id: string): string {
  const out: string[] = [];
  const request = failure.request ? readCurl(failure.request) : undefined;
  if (request) {
    const lines = [`${request.method} ${request.url}`, ...request.headers];
    if (request.body !== undefined) lines.push('', cut(request.body));
    out.push(`<div class="pane"><h5>Request</h5><pre>${htmlLines(lines.join('\n'))}</pre></div>`);
  }
  const response = failure.response;
  if (response) {
    const lines =
      response.status === undefined
        ? [response.error ?? 'no answer']
        : [`${response.status} ${response.contentType ?? '(no Content-Type)'}`, '', response.body ? cut(response.body) : '(empty body)'];
    out.push(`<div class="pane"><h5>Answer</h5><pre>${htmlLines(lines.join('\n'))}</pre></div>`);
  }
  const panes = out.length ? `<div class="exchange">${out.join('')}</div>` : '';
  const curl = failure.request
    ? `<div class="curl"><h5>curl</h5>${copyButton(`${id}-curl`)}<pre id="${id}-curl">${html(cut(failure.request))}</pre></div>`
    : '';
  return panes + curl;
}

/** A generated or stateful failure's shrunk example, one step per request, and the whole script to copy. */
function reproduction(failure: Failure, id: string): string {
  if (!failure.reproduction?.length) return '';
  const comments = failure.reproduction.filter((line) => line.startsWith('#') && !line.startsWith('#!'));
  const steps = failure.reproduction
    .map((line) => readCurl(line))
    .filter((request) => request !== undefined)
    .map((request) => `<li><code>${html(request.method)} ${html(cut(request.url))}</code>${request.body !== undefined ? `<pre>${html(cut(request.body))}</pre>` : ''}</li>`);
  return `<div class="repro"><h5>The shrunk example, step by step</h5>
${comments.map((line) => `<p class="muted">${html(line.replace(/^#\s?/, ''))}</p>`).join('')}
<ol>${steps.join('')}</ol>
<details><summary>The reproduction as a shell script</summary>${copyButton(`${id}-script`)}<pre id="${id}-script">${htmlLines(failure.reproduction.map(cut).join('\n'))}</pre></details></div>`;
}

function latency(rows: OperationLatency[]): string {
  if (rows.length === 0) return '';
  const width = 640;
  const label = 120;
  const row = 34;
  const scale = Math.max(1, ...rows.map((r) => r.p95Ms));
  const x = (ms: number) => Math.max(1, Math.round(((width - label - 90) * ms) / scale));
  const bars = rows.map((r, i) => {
    const y = i * row + 4;
    return `<text x="0" y="${y + 17}" class="axis">${html(r.operation)}</text><rect x="${label}" y="${y}" width="${x(r.p95Ms)}" height="24" class="p95"/><rect x="${label}" y="${y + 6}" width="${x(r.medianMs)}" height="12" class="median"/><text x="${label + x(r.p95Ms) + 6}" y="${y + 17}" class="axis">${r.medianMs} / ${r.p95Ms} ms</text>`;
  });
  const height = rows.length * row + 8;
  const table = rows
    .map((r) => `<tr data-filterable data-operation="${html(r.operation)}"><th scope="row">${html(r.operation)}</th><td>${r.requests}</td><td>${r.medianMs}</td><td>${r.p95Ms}</td><td>${r.maxMs}</td></tr>`)
    .join('');
  return `<section aria-labelledby="latency-title"><h2 id="latency-title">Latency per operation</h2>
<svg role="img" aria-labelledby="latency-svg-title" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title id="latency-svg-title">Median (dark) and 95th percentile (light) answer time per operation, in milliseconds</title>${bars.join('')}</svg>
<table><thead><tr><th scope="col">operation</th><th scope="col">requests</th><th scope="col">median ms</th><th scope="col">p95 ms</th><th scope="col">max ms</th></tr></thead><tbody>${table}</tbody></table></section>`;
}

/** The operations of the document no request with valid credentials reached, each with why: shown only when there are some. */
function operationsNotRun(report: ContractReport): string {
  const unsent = (report.operations ?? []).filter((o) => o.notRun !== undefined);
  if (unsent.length === 0) return '';
  const rows = unsent.map(
    (run) => `<tr data-filterable data-operation="${html(run.operation)}" data-outcome="notRun"><th scope="row">${html(run.operation)}</th><td><code>${html(`${run.method} ${run.path}`)}</code></td><td>${run.requests}</td><td>${html(run.notRun ?? '')}</td></tr>`,
  );
  return `<section aria-labelledby="unsent-title"><h2 id="unsent-title">Operations not run: ${unsent.length} of ${report.operations!.length}</h2><p class="muted">No request with valid credentials reached these operations of the document, so nothing of them was judged beyond their authentication.</p><table><thead><tr><th scope="col">operation</th><th scope="col">method and path</th><th scope="col">requests</th><th scope="col">why not run</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function coverage(report: ContractReport): string {
  if (report.coverage.length === 0) return '';
  const rows = report.coverage.map(
    (row) => `<tr data-filterable data-operation="${html(row.operation)}"><td>${html(row.operation)}</td><td>${html(row.status)}</td><td>${row.count}</td><td>${html(coverageState(row))}</td></tr>`,
  );
  return `<section aria-labelledby="statuses-title"><h2 id="statuses-title">Operations × documented statuses</h2><table><thead><tr><th scope="col">operation</th><th scope="col">status</th><th scope="col">responses</th><th scope="col">state</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function checkCoverageTable(report: ContractReport): string {
  if (report.checkCoverage.length === 0) return '';
  const rows = report.checkCoverage.map(
    (row) => `<tr data-filterable data-operation="${html(row.operation)}" data-check="${html(row.check)}"><td>${html(row.operation)}</td><td>${html(row.role ?? '')}</td><td><code>${html(row.check)}</code></td><td>${row.passed}</td><td>${row.failed}</td><td>${row.notRun}</td><td>${row.skipped}</td></tr>`,
  );
  return `<section aria-labelledby="check-coverage-title"><h2 id="check-coverage-title">Operations × roles × checks</h2><p class="muted">How many cases passed, failed, were not run or skipped each check on each operation; not run is never passed.</p><table><thead><tr><th scope="col">operation</th><th scope="col">role</th><th scope="col">check</th><th scope="col">passed</th><th scope="col">failed</th><th scope="col">not run</th><th scope="col">skipped</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function notes(report: ContractReport): string {
  if (report.notes.length === 0) return '';
  const items = report.notes.map(
    (note) => `<li data-filterable data-operation="${html(note.operation)}" data-check="${html(note.check)}" data-outcome="note"><code>${html(note.check)}</code> ${html(note.operation)}: ${html(note.message)}</li>`,
  );
  return `<section aria-labelledby="notes-title"><h2 id="notes-title">Notes</h2><p class="muted">What the target chose where ${chooser(report)} lets it choose, or what the run could not verify: never a failure.</p><ul>${items.join('')}</ul></section>`;
}

function caseTable(cases: CaseResult[]): string {
  const rows = cases.map((result) => {
    const checksOf = [...new Set([result.check, ...Object.keys(result.checks), ...result.failures.map((f) => f.check)])];
    const outcomes = [result.status, ...(result.notes.length ? ['note'] : [])];
    return `<tr data-filterable data-counted data-operation="${html(result.operation)}" data-check="${checksOf.map(html).join(' ')}" data-outcome="${outcomes.join(' ')}"><td><span class="badge ${result.status}">${OUTCOME_LABEL[result.status]}</span></td><td><code>${html(result.id)}</code></td><td>${html(result.title)}${result.reason ? `<br><span class="muted">${html(result.reason)}</span>` : ''}</td><td>${result.requests.length}</td><td>${result.durationMs}</td></tr>`;
  });
  return `<section aria-labelledby="cases-title"><h2 id="cases-title">Cases (${cases.length})</h2><table class="cases"><thead><tr><th scope="col">outcome</th><th scope="col">case</th><th scope="col">what it checks</th><th scope="col">requests</th><th scope="col">ms</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}

function cut(text: string): string {
  return text.length <= MAX_SHOWN_TEXT ? text : `${text.slice(0, MAX_SHOWN_TEXT)}… (${text.length} characters)`;
}

const STYLE = `
.scroll { overflow-x: auto; }
table.matrix th .vertical { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-weight: 500; }
table.matrix td { text-align: center; min-width: 2rem; }
table.matrix td.empty { background: var(--soft); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
section.check { margin-top: 1rem; }
.basis { border-left: 3px solid var(--line); padding-left: .6rem; }
h4 { margin: .6rem 0 .3rem; font-size: 1rem; }
h5 { margin: .4rem 0 .2rem; font-size: .9rem; color: var(--muted); }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
@media (max-width: 50rem) { .exchange { grid-template-columns: 1fr; } }
svg .p95 { fill: #9ecbff; }
svg .median { fill: #0550ae; }
svg .axis { font: 12px system-ui, sans-serif; fill: var(--fg); }
table.cases td:first-child { white-space: nowrap; }
`;
