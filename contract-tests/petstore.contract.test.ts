import { inject, test } from 'vitest';
import { configFromEnv, contractCases, createSession, runCase } from 'petstore-kit/contract';

// Thin on purpose: every case lives in src/contract; this file gives each one a vitest test, so that vitest's
// reporters (and `petstore-kit contract`'s own) see one test per case. Settings come from the runner, or from
// CONTRACT_BASE_URL and PETSTORE_API_KEY when vitest is run directly (vitest.contract.config.ts).
const session = await createSession(inject('petstoreContract') ?? configFromEnv(process.env));

for (const contractCase of contractCases(session.spec)) {
  test(`[${contractCase.check}] ${contractCase.title}`, async (context) => {
    const result = await runCase(session, contractCase);
    context.task.meta.petstoreContract = result;
    // Not run is never passed: vitest shows it as skipped, and the runner's reports as not run (its own status).
    if (result.status === 'skipped' || result.status === 'notRun')
      context.skip(result.status === 'notRun' ? `not run: ${result.reason}` : result.reason);
    if (result.status === 'failed') {
      throw new Error(
        result.failures
          .map(
            (f) =>
              `${f.check} (${f.operation}): expected ${f.expected}; actual ${f.actual}${f.request ? `\n  ${f.request}` : ''}`,
          )
          .join('\n'),
      );
    }
  });
}
