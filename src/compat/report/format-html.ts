import { checks, type CheckId, type Level } from '../check-ids.js';
import type { Finding, RecordedRequest } from '../finding.js';
import { describe } from '../replay-journal.js';
import { filterBar, html, htmlPage } from '../../text/html-page.js';
import { summaryLine, type CompatReport } from './compat-report.js';
import { excerptAt } from './document-excerpt.js';
import { groupJournal } from './group-journal.js';

/** The two documents' texts as read, for excerpts; a side without text (a document given as a value) shows none. */
export interface CompatSources {
  old?: string | undefined;
  new?: string | undefined;
}

/**
 * The size rule (docs/compat.md): every finding is listed; the first `MAX_EXCERPTED_FINDINGS` carry the excerpts of
 * both documents (at most 16 lines each); the journal is shown by group, never by request, so a journal of any size
 * is a page of its changes.
 */
export const MAX_EXCERPTED_FINDINGS = 200;

const LEVELS: Level[] = ['breaking', 'warning', 'info'];

/**
 * A compat run as one self-contained HTML page, from the same report the other forms are: the verdict as the exit
 * code says it, counts by level, each finding with its check id, the operation, and both documents at the places it
 * names side by side with their line numbers, then the journal's broken requests grouped by operation and change.
 * Text from the documents and the journal is escaped.
 * @example
 * const [old, current] = [await loadDocument({ path: 'old.yaml' }), await loadDocument({ path: 'openapi.yaml' })];
 * const report = buildCompatReport(run, compareDocuments(old, current, { date, minNoticeDays: 180 }));
 * writeFileSync('compat.html', formatCompatHtml(report, { old: old.text, new: current.text }));
 */
export function formatCompatHtml(report: CompatReport, sources: CompatSources): string {
  const title = report.exitCode === 2 ? 'not judged' : report.exitCode === 1 ? 'not compatible' : 'compatible';
  const tone = report.exitCode === 0 ? 'pass' : report.exitCode === 1 ? 'fail' : 'warn';
  const all = [...report.findings, ...(report.journal?.findings ?? [])];
  const used = [...new Set(all.map((f) => f.check))];
  const operations = [...new Set(all.flatMap((f) => (f.operation ? [f.operation] : [])))];
  const body = [
    `<header><h1>API compatibility: ${html(title)}</h1>`,
    `<p class="verdict ${tone}" role="status">Exit ${report.exitCode}: ${html(summaryLine(report))}</p>`,
    facts(report),
    counts(report),
    '</header>',
    '<main>',
    filterBar([
      { name: 'level', label: 'Level', choices: LEVELS },
      { name: 'check', label: 'Check', choices: used },
      { name: 'operation', label: 'Operation', choices: operations },
    ]),
    findings(report, sources),
    journal(report),
    rules(used),
    '</main>',
  ].join('\n');
  return htmlPage({ title: `API compatibility: ${title} (${report.old} → ${report.new})`, style: STYLE, body });
}

function facts(report: CompatReport): string {
  const rows: [string, string][] = [
    ['Old document', `<code>${html(report.old)}</code>`],
    ['New document', `<code>${html(report.new)}</code>`],
    ['Lifecycle judged on', `${html(report.date)} (a sunset at least ${report.minNoticeDays} days later)`],
    ['Fails the gate', report.failOn === 'warning' ? 'breaking findings and warnings' : 'breaking findings'],
    ['Tool', `petstore-kit ${html(report.version)}`],
  ];
  if (report.error) rows.push(['Not judged', html(report.error)]);
  return `<dl class="facts">${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

function counts(report: CompatReport): string {
  const cells = LEVELS.map(
    (level) => `<li><span class="badge ${level}">${report.summary[level]} ${level}</span></li>`,
  ).join('');
  return `<ul class="counts" aria-label="Findings by level">${cells}</ul>`;
}

function findings(report: CompatReport, sources: CompatSources): string {
  if (report.findings.length === 0)
    return '<section aria-labelledby="findings-title"><h2 id="findings-title">Differences</h2><p>No difference between the documents that a client could notice.</p></section>';
  const order = { breaking: 0, warning: 1, info: 2 };
  const sorted = [...report.findings].sort((a, b) => order[a.level] - order[b.level]);
  const items = sorted.map((found, index) => findingItem(found, index < MAX_EXCERPTED_FINDINGS ? sources : {}));
  return `<section aria-labelledby="findings-title"><h2 id="findings-title">Differences (${report.findings.length})</h2>
${items.join('\n')}</section>`;
}

function findingItem(found: Finding, sources: CompatSources): string {
  const where = found.operation
    ? `<p class="muted">Operation: <code>${html(found.operation)}</code>${found.status ? `, response ${html(found.status)}` : ''}</p>`
    : '';
  return `<article class="group" data-filterable data-counted data-level="${found.level}" data-check="${html(found.check)}" data-operation="${html(found.operation ?? '')}">
<h3><span class="badge ${found.level}">${found.level}</span> <a href="#rule-${html(found.check)}"><code>${html(found.check)}</code></a></h3>
<p>${html(found.message)}</p>${where}
<div class="sides">${side('Old', found.old, sources.old)}${side('New', found.new, sources.new)}</div>
</article>`;
}

/** One document at a pointer: its lines there, numbered as in the file, the pointed line marked. */
function side(name: string, pointer: string | undefined, text: string | undefined): string {
  if (!pointer)
    return `<div class="pane"><h4>${name}</h4><p class="muted">(not in the ${name.toLowerCase()} document)</p></div>`;
  const found = text === undefined ? undefined : excerptAt(text, pointer);
  const head = `<h4>${name}: <code>${html(pointer)}</code></h4>`;
  if (!found)
    return `<div class="pane">${head}<p class="muted">(no excerpt: the text at this place is not available)</p></div>`;
  const width = String(found.firstLine + found.lines.length - 1).length;
  const lines = found.lines.map((line, i) => {
    const number = found.firstLine + i;
    const text = `<span class="ln" aria-hidden="true">${String(number).padStart(width)}</span> ${html(line)}`;
    return number === found.line ? `<span class="at">${text}</span>` : text;
  });
  return `<div class="pane">${head}<pre aria-label="${name} document, lines ${found.firstLine} to ${found.firstLine + found.lines.length - 1}">${lines.join('\n')}</pre></div>`;
}

function journal(report: CompatReport): string {
  if (!report.journal) return '';
  const { file, entries, replayed } = report.journal;
  const groups = groupJournal(report.journal.findings);
  const intro = `<p>Journal <code>${html(file)}</code>: ${entries} recorded exchange${entries === 1 ? '' : 's'}, ${replayed} replayed against <code>${html(report.new)}</code>; ${report.journal.findings.length} finding${report.journal.findings.length === 1 ? '' : 's'} in ${groups.length} group${groups.length === 1 ? '' : 's'}.</p>`;
  if (groups.length === 0)
    return `<section aria-labelledby="journal-title"><h2 id="journal-title">The client's requests</h2>${intro}<p>None of them is broken by the change.</p></section>`;
  const rows = groups.map(
    (
      group,
    ) => `<tr data-filterable data-level="${group.level}" data-check="${html(group.check)}" data-operation="${html(group.operation)}">
<td><span class="badge ${group.level}">${group.level}</span></td><td><a href="#rule-${html(group.check)}"><code>${html(group.check)}</code></a></td><td><code>${html(group.operation)}</code></td><td>${html(group.change)}</td><td class="number">${group.count}</td><td><ul class="examples">${group.examples.map((r) => `<li><code>${html(example(r))}</code></li>`).join('')}</ul></td></tr>`,
  );
  return `<section aria-labelledby="journal-title"><h2 id="journal-title">The client's requests this change breaks</h2>${intro}
<table><thead><tr><th scope="col">level</th><th scope="col">check</th><th scope="col">operation</th><th scope="col">change</th><th scope="col">requests</th><th scope="col">first requests</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}

/** `request #3 GET /v1/pets/1 → 200`. */
function example(request: RecordedRequest): string {
  return `${describe(request)} → ${request.status}`;
}

/** The check ids the page uses, as docs/compat.md's table defines them (the code's table, which that page is tested against). */
function rules(used: string[]): string {
  if (used.length === 0) return '';
  const items = used.map((id) => {
    const rule = checks[id as CheckId];
    return `<dt id="rule-${html(id)}"><code>${html(id)}</code> <span class="badge ${rule.level}">${rule.level}</span></dt><dd>${html(rule.title)}${rule.oasdiff.length ? `; oasdiff: ${rule.oasdiff.map((o) => `<code>${html(o)}</code>`).join(', ')}` : ''}</dd>`;
  });
  return `<section aria-labelledby="rules-title"><h2 id="rules-title">Check ids</h2><p class="muted">As listed in docs/compat.md, section “Check ids”, which is tested against the same table.</p><dl class="rules">${items.join('')}</dl></section>`;
}

const STYLE = `
ul.counts { list-style: none; padding: 0; display: flex; gap: .6rem; margin: .2rem 0; }
ul.counts .badge { font-size: 15px; padding: .2rem .6rem; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
@media (max-width: 50rem) { .sides { grid-template-columns: 1fr; } }
h4 { margin: .4rem 0 .2rem; font-size: .9rem; color: var(--muted); font-weight: 500; }
pre .ln { color: var(--muted); user-select: none; }
pre .at { background: var(--warn-bg); display: inline-block; width: 100%; }
td.number { text-align: right; }
ul.examples { margin: 0; padding-left: 1rem; }
dl.rules dt { margin-top: .5rem; }
dl.rules dd { margin: 0 0 0 1rem; }
`;
