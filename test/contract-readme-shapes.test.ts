import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { createMockServer } from '../src/mock/http/server.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';
import { NO_RESPONSES_REASON } from '../src/contract/generate/no-responses-case.js';

/**
 * Issue 53, "done when": our runner against our mock on readme's example documents (the pinned devDependency
 * @readme/oas-examples, unedited, so CI has them without the opt-in corpus): exit 0, no suite error, and every
 * operation either judged or named as not sent for a reason the document gives. Each document holds a shape the
 * runner once got wrong: discriminators with a mapping, a oneOf whose branches are the same schema, security
 * alternatives and combinations, operations that answer only 401, 3.1 type arrays.
 */
const KEY = 'readme-shapes-key-53c';
const readme = (path: string) =>
  fileURLToPath(new URL(`../node_modules/@readme/oas-examples/${path}`, import.meta.url));

/** The run, and for each operation the requests with the key it judged, or why it was not run. */
async function runOn(path: string): Promise<{ report: ContractReport; judged: Record<string, number | string> }> {
  const file = readme(path);
  const mock = await createMockServer({ apiKeys: [KEY], spec: file });
  try {
    const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec: file, seed: 53, runs: 10 });
    const judged = Object.fromEntries(report.operations!.map((run) => [run.operation, run.notRun ?? run.judged]));
    return { report, judged };
  } finally {
    await mock.close();
  }
}

describe('our runner against our mock on readme example documents', () => {
  it(
    'discriminators: a mapping names each branch; twin branches of a oneOf are named as not sent, with why',
    { timeout: limitForRuns(1) },
    async () => {
      const { report, judged } = await runOn('3.0/yaml/discriminators.yaml');
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      for (const operation of [
        'oneOfWithTopLevelDiscriminatorAndMapping',
        'oneOfWithTopLevelDiscriminatorNoMapping',
        'patch /oneof-allof-top-level-disc',
        'patch /mapping-with-duplicate-schemas',
        'patch /mapping-of-schema-names',
      ])
        expect(judged[operation], operation).toBeGreaterThan(0);
      expect(judged['post /potentially-undefined-formData']).toMatch(
        /^not sent: no request to post \/potentially-undefined-formData could be built: body: oneOf: no value is valid: its branches ApplicationApprovedEvent and ApplicationDeniedEvent assert the same schemas/,
      );
    },
  );

  it('polymorphism: every operation judged, no suite error', { timeout: limitForRuns(1) }, async () => {
    const { report, judged } = await runOn('3.0/yaml/polymorphism.yaml');
    expect(failuresOf(report)).toEqual([]);
    expect(verdictOf(report).exit).toBe(0);
    expect(Object.entries(judged).filter(([, value]) => typeof value !== 'number' || value === 0)).toEqual([]);
  });

  it(
    'security-multiple: one requirement sent whole; a requirement needing Basic and Bearer at once is named as not sent',
    { timeout: limitForRuns(1) },
    async () => {
      const { report, judged } = await runOn('3.0/yaml/security-multiple.yaml');
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      expect(judged['post /anything/and']).toMatch(
        /not sent: no request to post \/anything\/and could be built: its security requirement needs two credentials in the one Authorization header a request has \(Basic \(basic\) and Bearer \(oauth2\); RFC 9110 §11\.6\.2\)/,
      );
      for (const operation of ['post /anything/or', 'post /anything/and-or', 'post /anything/many-and-or'])
        expect(judged[operation], operation).toBeGreaterThan(0);
    },
  );

  it(
    'security: an operation that declares only 401 answers 401 to the valid key, as declared',
    { timeout: limitForRuns(1) },
    async () => {
      const { report, judged } = await runOn('3.0/yaml/security.yaml');
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      expect(judged['post /status/401']).toBeGreaterThan(0);
    },
  );

  it(
    'schema-types (3.1): operations that declare no responses are named as not sent, with the reason, never sent a 501 to judge',
    { timeout: limitForRuns(1) },
    async () => {
      const { report, judged } = await runOn('3.1/yaml/schema-types.yaml');
      expect(failuresOf(report)).toEqual([]);
      const reasons = Object.values(judged).filter((value) => typeof value === 'string');
      expect(reasons.length).toBeGreaterThan(20);
      for (const reason of reasons) expect(reason).toContain(`not sent: no request to `);
      for (const reason of reasons) expect(reason).toContain(NO_RESPONSES_REASON);
      // Nothing judged: exit 2 and its own line, never "the contract holds" (issue 53 item 5).
      expect(verdictOf(report).exit).toBe(2);
    },
  );

  it(
    'petstore (3.1): a required exploded array query (findPetsByStatus status) goes once per item, and is taken',
    { timeout: limitForRuns(1) },
    async () => {
      const { report } = await runOn('3.1/yaml/petstore.yaml');
      expect(failuresOf(report)).toEqual([]);
      expect(verdictOf(report).exit).toBe(0);
      // Sent as JSON text (`status=["sold"]`) it was refused (status.0 is not in the enum) and the run failed.
      const sent = report.cases.flatMap((c) =>
        c.requests.filter((r) => r.operation === 'findPetsByStatus').map((r) => r.request),
      );
      expect(sent.length).toBeGreaterThan(0);
      for (const request of sent) expect(request).not.toMatch(/status=(\[|%5B)/i);
      expect(sent.some((request) => /status=\w+/.test(request))).toBe(true);
    },
  );

  it('docs/contract.md quotes the no-responses reason as the code words it', () => {
    const docs = readFileSync(fileURLToPath(new URL('../docs/contract.md', import.meta.url)), 'utf8');
    expect(docs).toContain(`could be built: ${NO_RESPONSES_REASON}\``);
  });

  it(
    'a keyword the generators cannot honour: the case is not run naming it, never a suite error',
    { timeout: limitForRuns(1) },
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'petstore-unhonoured-')), 'unhonoured.yaml');
      writeFileSync(
        file,
        [
          'openapi: 3.1.0',
          'info: { title: unhonoured, version: 1.0.0 }',
          'paths:',
          '  /things:',
          '    post:',
          '      operationId: addThing',
          '      requestBody:',
          '        required: true',
          '        content:',
          '          application/json:',
          '            schema: { type: object, properties: { a: { type: string } }, unevaluatedProperties: false }',
          '      responses:',
          "        '201': { description: made }",
          "        '400': { description: refused }",
        ].join('\n'),
      );
      const mock = await createMockServer({ apiKeys: [KEY], spec: file });
      try {
        const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec: file, seed: 53, runs: 10 });
        expect(report.failedChecks).not.toContain('suite.error');
        const valid = report.cases.find((c) => c.id === 'generated.valid-accepted/addThing');
        expect(valid).toMatchObject({
          status: 'notRun',
          reason: expect.stringContaining('unevaluatedProperties not honoured'),
        });
      } finally {
        await mock.close();
      }
    },
  );
});
