import { cell } from '../../text/markdown-cell.js';
import type { Finding } from '../finding.js';
import { requestsLikeIt, summaryLine, type CompatReport } from './compat-report.js';

const ICON = { breaking: '❌', warning: '⚠️', info: 'ℹ️' } as const;

/**
 * A Markdown summary for `$GITHUB_STEP_SUMMARY` or `--markdown FILE`: the verdict, a table of the findings (breaking
 * first) with where they are in both documents, and the journal's with their recorded requests. Every cell is
 * escaped, so a document's text cannot break the table or add a link, an image or HTML.
 */
export function formatCompatMarkdown(report: CompatReport): string {
  const verdict =
    report.exitCode === 2
      ? '⚠️ not judged'
      : report.exitCode === 1
        ? `❌ not compatible (${report.failedChecks.map((c) => `\`${c}\``).join(', ')})`
        : '✅ compatible';
  const out = [
    `### Petstore compat: ${verdict}`,
    '',
    `\`${cell(report.old)}\` → \`${cell(report.new)}\`, judged on ${report.date}: ${cell(summaryLine(report))}`,
  ];
  if (report.findings.length) out.push('', ...table(report.findings));
  if (report.journal) {
    const { file, entries, replayed, findings } = report.journal;
    out.push('', `Journal \`${cell(file)}\`: ${entries} recorded exchanges, ${replayed} replayed.`);
    if (findings.length) out.push('', ...table(findings));
  }
  return `${out.join('\n')}\n`;
}

function table(findings: Finding[]): string[] {
  const order = { breaking: 0, warning: 1, info: 2 };
  const rows = [...findings].sort((a, b) => order[a.level] - order[b.level]);
  return [
    '| | check | what | old | new |',
    '|---|---|---|---|---|',
    ...rows.map(
      (f) =>
        `| ${ICON[f.level]} ${f.level} | \`${f.check}\` | ${cell(requestsLikeIt(f) ? `${f.message} (${requestsLikeIt(f)})` : f.message)} | ${f.old ? cell(f.old) : ''} | ${f.new ? cell(f.new) : ''} |`,
    ),
  ];
}
