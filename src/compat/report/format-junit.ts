import { xml } from '../../text/xml-text.js';
import { describe } from '../replay-journal.js';
import type { Finding } from '../finding.js';
import { failsGate, summaryLine, type CompatReport } from './compat-report.js';

/**
 * JUnit XML as CI systems read it: one testcase per finding, its check id as the classname; a finding that fails
 * the gate is a `<failure type="<check id>">`, any other passes with its sentence in `<system-out>`. A comparison
 * without findings is one passing testcase; one that could not be judged (exit 2) has an `<error>` testcase too.
 */
export function formatCompatJunit(report: CompatReport): string {
  const findings = [...report.findings, ...(report.journal?.findings ?? [])];
  const cases = [
    ...findings.map((found) => testcase(found, report)),
    ...(report.exitCode === 2 ? [notJudged(report)] : findings.length ? [] : [compatible(report)]),
  ];
  const failures = findings.filter((found) => failsGate(found, report.failOn)).length;
  const errors = report.exitCode === 2 ? 1 : 0;
  const counts = `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-kit compat" ${counts}>`,
    `  <testsuite name="${xml(`compat ${report.old} → ${report.new}`)}" ${counts}>`,
    '    <properties>',
    ...Object.entries({
      old: report.old,
      new: report.new,
      date: report.date,
      minNoticeDays: report.minNoticeDays,
      failOn: report.failOn,
      version: report.version,
      ...(report.journal ? { journal: report.journal.file } : {}),
    }).map(([name, value]) => `      <property name="${name}" value="${xml(String(value))}"/>`),
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(found: Finding, report: CompatReport): string {
  const name = xml(`${found.level}: ${found.request ? describe(found.request) : (found.operation ?? found.check)}`);
  const details = xml(
    [found.message, found.old ? `old: ${found.old}` : '', found.new ? `new: ${found.new}` : '']
      .filter(Boolean)
      .join('\n'),
  );
  const body = failsGate(found, report.failOn)
    ? `<failure type="${found.check}" message="${xml(found.message)}">${details}</failure>`
    : `<system-out>${details}</system-out>`;
  return `    <testcase classname="${found.check}" name="${name}" time="0">\n      ${body}\n    </testcase>`;
}

function compatible(report: CompatReport): string {
  return `    <testcase classname="compat.compatible" name="${xml(summaryLine(report))}" time="0"/>`;
}

function notJudged(report: CompatReport): string {
  return `    <testcase classname="compat.not-judged" name="the documents could not be judged" time="0">\n      <error type="compat.not-judged" message="${xml(report.error ?? '')}">${xml(summaryLine(report))}</error>\n    </testcase>`;
}
