import { xml } from '../../text/xml-text.js';
import type { ContractReport } from './build-report.js';
import { formatAnswer } from './format-text.js';
import { judgedNothing, nothingJudgedLine } from './operation-runs.js';

/**
 * JUnit XML as CI systems read it (the Ant/Surefire dialect): one testcase per case, its check id as the
 * classname, each failure with the check id as its type and the curl command in the text.
 */
export function formatJunit(report: ContractReport): string {
  const { passed, failed, notRun = 0 } = report.summary;
  // An operation no request with valid credentials reached is a skipped testcase of its own, saying why.
  const unsent = (report.operations ?? []).filter((o) => o.notRun !== undefined);
  // A case not run is a skipped testcase whose message says so: never a passed one.
  const skipped = report.summary.skipped + notRun + unsent.length;
  // A run that judged nothing must not read as a green one either: an error testcase says so.
  const nothing = !report.stopped && judgedNothing(report.operations);
  const errors = report.stopped || nothing ? 1 : 0;
  const total = passed + failed + skipped + errors;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore-kit contract" tests="${total}" failures="${failed}" errors="${errors}" skipped="${skipped}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${xml(`contract ${report.baseUrl}`)}" tests="${total}" failures="${failed}" errors="${errors}" skipped="${skipped}" time="${seconds(report.durationMs)}" timestamp="${report.startedAt}">`,
    '    <properties>',
    ...Object.entries({ ...(report.stopped ? { stopped: report.stopped } : {}), baseUrl: report.baseUrl, spec: report.spec, runId: report.runId, readOnly: report.readOnly, requireCoverage: report.requireCoverage, requests: report.requests, version: report.version, ...(report.generated ? { seed: report.generated.seed, generatedRequests: report.generated.requests, generatedExamples: report.generated.runs } : {}) }).map(
      ([name, value]) => `      <property name="${name}" value="${xml(String(value))}"/>`,
    ),
    // What each operation of the document was sent, one property each: `operation getPet GET /pets/{petId}`.
    ...(report.operations ?? []).map(
      (run) => `      <property name="${xml(`operation ${run.operation} ${run.method} ${run.path}`)}" value="${xml(`requests ${run.requests}, with valid credentials ${run.judged}${run.notRun ? `; not run: ${run.notRun}` : ''}`)}"/>`,
    ),
    // Coverage per operation × role × check, one property each: `coverage createPet create create.echo`.
    ...report.checkCoverage.map(
      (row) => `      <property name="${xml(`coverage ${row.operation} ${row.role ?? '-'} ${row.check}`)}" value="${xml(`passed ${row.passed}, failed ${row.failed}, not run ${row.notRun}, skipped ${row.skipped}`)}"/>`,
    ),
    '    </properties>',
  ];
  if (report.stopped) {
    // A run that did not finish must not read as a green one: the stop is an error testcase of its own.
    lines.push('    <testcase classname="run.stopped" name="the run stopped before the end" time="0">');
    lines.push(`      <error type="run.stopped" message="${xml(report.stopped)}">${xml(`the run stopped: ${report.stopped}\nexit code 2; the cases listed ran before the stop`)}</error>`);
    lines.push('    </testcase>');
  }
  if (nothing) {
    const why = nothingJudgedLine(report.operations!);
    lines.push('    <testcase classname="run.nothing-judged" name="the run judged no operation of the document" time="0">');
    lines.push(`      <error type="run.nothing-judged" message="${xml(why)}">${xml(`${why}\nexit code 2`)}</error>`);
    lines.push('    </testcase>');
  }
  for (const run of unsent) {
    lines.push(`    <testcase classname="operation.not-run" name="${xml(`${run.operation}: ${run.method} ${run.path}`)}" time="0">`);
    lines.push(`      <skipped message="${xml(`not run: ${run.notRun ?? ''}`)}"/>`);
    lines.push('    </testcase>');
  }
  for (const result of report.cases) {
    lines.push(`    <testcase classname="${xml(result.check)}" name="${xml(`${result.id}: ${result.title}`)}" time="${seconds(result.durationMs)}">`);
    for (const failure of result.failures) {
      const details = [
        `check: ${failure.check}`,
        `operation: ${failure.operation}`,
        `expected: ${failure.expected}`,
        `actual: ${failure.actual}`,
        ...(formatAnswer(failure) ? [`got: ${formatAnswer(failure)}`] : []),
        ...(failure.schemaErrors ?? []).map((e) => `schema: ${e.message}${e.schemaPath ? ` (${e.schemaPath})` : ''}`),
        ...(failure.reproduction ? ['reproduce (the shrunk example, a shell script):', ...failure.reproduction] : failure.request ? [`request: ${failure.request}`] : []),
      ];
      lines.push(`      <failure type="${xml(failure.check)}" message="${xml(`${failure.check} ${failure.operation}: expected ${failure.expected}; actual ${failure.actual}`)}">${xml(details.join('\n'))}</failure>`);
    }
    if (result.status === 'skipped') lines.push(`      <skipped message="${xml(result.reason ?? '')}"/>`);
    if (result.status === 'notRun') lines.push(`      <skipped message="${xml(`not run: ${result.reason ?? ''}`)}"/>`);
    const out = [
      ...(result.generated ? [`generated: seed ${result.generated.seed}, ${result.generated.runs} examples, ${result.generated.requests} requests${result.generated.cutShort ? ` (cut short: ${result.generated.cutShort})` : ''}`] : []),
      ...result.notes.map((n) => `[${n.check}] ${n.message}`),
    ];
    if (out.length > 0) lines.push(`      <system-out>${xml(out.join('\n'))}</system-out>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
