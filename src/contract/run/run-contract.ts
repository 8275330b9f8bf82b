import { contractCases } from './contract-cases.js';
import { runCase } from '../engine/run-case.js';
import { createSession, type ContractConfig } from '../base/session.js';
import { buildReport, documentLabel, type ContractReport } from '../reports/build-report.js';
import { probeTarget } from '../transport/probe-target.js';
import { planOperations } from '../reports/operation-runs.js';
import { reportDocument } from '../reports/report-document.js';

/**
 * Runs the whole contract suite in this process and returns the report: the engine behind the vitest suite in
 * `contract-tests/`, callable on its own, fixed cases and generated phase alike (same cases, same verdicts). Throws a `TargetError` when the target cannot be reached or rejects the key;
 * a run that stops early (deadline, target gone) returns a report with `stopped` set.
 * @example const report = await runContract({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'petstore-dev-key' });
 * report.summary // { passed: 63, failed: 0, skipped: 0 } (against the mock with its fixtures)
 */
export async function runContract(config: ContractConfig): Promise<ContractReport> {
  const started = new Date();
  const session = await createSession(config);
  try {
    await probeTarget(session);
    const results = [];
    for (const contractCase of contractCases(session.spec)) results.push(await runCase(session, contractCase));
    const document = {
      spec: documentLabel(session.spec.file),
      operations: planOperations(session.spec),
      document: reportDocument(session.spec),
    };
    return buildReport({ ...session.config, ...document }, results, {
      startedAt: started,
      redact: session.redact,
    });
  } finally {
    await session.dispatcher.close();
  }
}
