import { escapeText } from '../../text/excerpt.js';
import type { Finding } from '../finding.js';
import { requestsLikeIt, summaryLine, type CompatReport } from './compat-report.js';

const LEVEL_LABEL = { breaking: 'BREAKING', warning: 'WARNING ', info: 'info    ' } as const;

/**
 * The terminal report: each finding on its line (level, check id, the sentence) with its pointers below, breaking
 * first; the journal's findings with the recorded request (one per check, operation and change, with how many
 * requests it stands for); the summary line last. Text from the documents and the
 * journal is escaped: a name or an enum value cannot start a line or colour the terminal.
 */
export function formatCompatText(report: CompatReport): string {
  const out = [`petstore-kit compat ${escapeText(report.old)} → ${escapeText(report.new)} (judged on ${report.date})`];
  out.push(...byLevel(report.findings).map(findingLines));
  if (report.journal) {
    const { file, entries, replayed, findings } = report.journal;
    out.push(
      '',
      `journal ${escapeText(file)}: ${entries} recorded exchange${entries === 1 ? '' : 's'}, ${replayed} replayed against ${escapeText(report.new)}`,
    );
    out.push(...byLevel(findings).map(findingLines));
  }
  out.push('', escapeText(summaryLine(report)));
  return `${out.join('\n')}\n`;
}

function byLevel(findings: Finding[]): Finding[] {
  const order = { breaking: 0, warning: 1, info: 2 };
  return [...findings].sort((a, b) => order[a.level] - order[b.level]);
}

function findingLines(found: Finding): string {
  const lines = [`${LEVEL_LABEL[found.level]} ${found.check}  ${escapeText(found.message)}`];
  const where = [found.old ? `old ${escapeText(found.old)}` : '', found.new ? `new ${escapeText(found.new)}` : '']
    .filter(Boolean)
    .join('  ');
  if (where) lines.push(`         ${where}`);
  // A journal finding is one line however many requests it stands for: the count and the first few.
  const alike = requestsLikeIt(found);
  if (alike) lines.push(`         ${escapeText(alike)}`);
  return lines.join('\n');
}
