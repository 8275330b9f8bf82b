import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer } from '../src/mock/http/server.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// Issue 53 item 2, "every operation sent": against our own mock on each test document, every operation of the
// document gets requests, or a case that sends nothing and names the document's reason (no create for a write, no
// create, list or example for an item). On v1.1 and v1.2 the run holds (exit 0).
const KEY = 'every-operation-key-53b';
const documents = (name: string) => fileURLToPath(new URL(`./fixtures/documents/${name}`, import.meta.url));

/**
 * The operations no request with the key reached (the auth cases' 401s do not count: they judge the credentials,
 * not the operation), each with the reason a case gave for not sending it (or `none given`).
 */
function unsent(report: ContractReport, operationIds: string[]): Record<string, string> {
  const sent = new Set(
    report.coverage.filter((row) => row.count > 0 && !['401', '403'].includes(row.status)).map((row) => row.operation),
  );
  return Object.fromEntries(
    operationIds
      .filter((id) => !sent.has(id))
      .map((id) => {
        const named = report.cases.find((c) => c.status === 'skipped' && c.reason?.includes(`no request to ${id} `));
        return [id, named?.reason ?? 'none given'];
      }),
  );
}

async function runOn(name: string) {
  const file = documents(name);
  const spec = await loadSpec(file);
  const mock = await createMockServer({ apiKeys: [KEY], spec: file });
  try {
    const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec: file, seed: 53, runs: 40 });
    return { report, operations: spec.operations.map((o) => o.id) };
  } finally {
    await mock.close();
  }
}

describe('every operation of a document is sent, or named as not sent with the reason', () => {
  it.for(['petstore-v1.1.yaml', 'petstore-v1.2.yaml'])(
    '%s: all sent, and the run holds',
    { timeout: limitForRuns(1) },
    async (name) => {
      const { report, operations } = await runOn(name);
      expect(unsent(report, operations)).toEqual({});
      expect(verdictOf(report).exit, failuresOf(report).join('\n')).toBe(0);
    },
  );

  it(
    'oracle-shapes.yaml: the shelters, which the document gives no way to reach, named with why',
    { timeout: limitForRuns(1) },
    async () => {
      const { report, operations } = await runOn('oracle-shapes.yaml');
      const reason = 'the document declares no create and no list for /shelters and gives no example of shelterId';
      expect(unsent(report, operations)).toEqual({
        getShelter: `not sent: no request to getShelter could be built: shelterId: ${reason}`,
        addDog:
          'not sent: no request to addDog could be built: POST /shelters/{shelterId}/dogs writes to an item of /shelters, and the document declares no create for /shelters (a run writes only to items it made)',
        getDog: `not sent: no request to getDog could be built: shelterId: ${reason}`,
      });
    },
  );

  it(
    "an operation no collection holds, its path parameter given by a link from another operation's answer",
    { timeout: limitForRuns(1) },
    async () => {
      // OpenAPI 3.0.3 §4.7.20: getMe's answer gives getUserRepos its login ($response.body#/login).
      const document = {
        openapi: '3.0.3',
        info: { title: 'links', version: '1' },
        security: [{ bearer: [] }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        paths: {
          '/teams': { get: { operationId: 'listTeams', responses: { '200': jsonArray('Teams.') } } },
          '/me': {
            get: {
              operationId: 'getMe',
              responses: {
                '200': {
                  description: 'Me.',
                  content: {
                    'application/json': {
                      schema: { type: 'object', required: ['login'], properties: { login: { type: 'string' } } },
                      example: { login: 'ada' },
                    },
                  },
                  links: { myRepos: { operationId: 'getUserRepos', parameters: { login: '$response.body#/login' } } },
                },
              },
            },
          },
          '/users/{login}/repos': {
            get: {
              operationId: 'getUserRepos',
              parameters: [{ name: 'login', in: 'path', required: true, schema: { type: 'string' } }],
              responses: { '200': jsonArray('Repos.') },
            },
          },
        },
      };
      const spec = await loadSpec(document as never);
      const mock = await createMockServer({ apiKeys: [KEY], spec: document as never });
      try {
        const report = await runContract({ baseUrl: mock.url, apiKey: KEY, spec, seed: 53, runs: 20 });
        expect(verdictOf(report).exit, failuresOf(report).join('\n')).toBe(0);
        const sent = report.cases.find((c) => c.id === 'generated.valid-accepted/getUserRepos')!.requests;
        expect(sent[0]!.request).toMatch(/\/me /);
        expect(sent.slice(1).every((r) => / http:\/\/[^ ]+\/users\/ada\/repos /.test(r.request))).toBe(true);
      } finally {
        await mock.close();
      }
    },
  );
});

function jsonArray(description: string) {
  return { description, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } };
}
