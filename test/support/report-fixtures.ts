import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport, type ContractReport } from '../../src/contract/reports/build-report.js';
import type { CaseResult, Failure } from '../../src/contract/base/case-result.js';
import type { HtmlRunContext } from '../../src/contract/reports/format-html.js';
import { defaultSpecFile } from '../../src/paths.js';

// Reports of runs that never happened, made of the records a run makes (CaseResult): fixed, so that pages built from
// them can be compared pixel for pixel, and complete, so that every kind of failure is on one page. What a real run
// writes is tested beside (test/html-report.test.ts runs the CLI against a target).

const BASE = 'http://127.0.0.1:4010/v1';
const KEY = '-H "Authorization: Bearer ${PETSTORE_API_KEY}"';
const curl = (method: string, path: string, body?: string) =>
  `curl -sS -i --compressed ${method === 'GET' && body === undefined ? '' : `-X ${method} `}${BASE}${path} -H 'Accept: application/json' ${KEY}${body === undefined ? '' : ` -H 'Content-Type: application/json' --data-raw '${body}'`}`;

export const htmlContext: HtmlRunContext = {
  document: { file: 'openapi.yaml', title: 'Petstore API', version: '1.0.0' },
  operations: [
    { id: 'listPets', method: 'get', path: '/pets' },
    { id: 'createPet', method: 'post', path: '/pets' },
    { id: 'getPet', method: 'get', path: '/pets/{petId}' },
  ],
};

const judged = {
  'server.responds': 'passed',
  'response.bounded': 'passed',
  'server.no-5xx': 'passed',
  'content-type.json': 'passed',
  'schema.response': 'passed',
  'status.documented': 'passed',
  'auth.valid-key': 'passed',
} as const;

function passed(
  id: string,
  operation: string,
  title: string,
  requests: [method: string, path: string, ms: number, status?: number][],
  extra: Partial<CaseResult> = {},
): CaseResult {
  const check = id.split('/')[0] as CaseResult['check'];
  return {
    id,
    check,
    operation,
    title,
    status: 'passed',
    checks: { ...judged, [check]: 'passed' },
    failures: [],
    notes: [],
    requests: requests.map(([method, path, durationMs, status]) => ({
      request: curl(method, path, method === 'POST' ? '{"name":"Rex","categoryId":1}' : undefined),
      status: status ?? (method === 'POST' ? 201 : 200),
      durationMs,
    })),
    durationMs: requests.reduce((sum, [, , ms]) => sum + ms, 0),
    ...extra,
  };
}

/** The cases of a correct target's run (a short one: a dozen cases stand for the 63 of a default run). */
function correctCases(): CaseResult[] {
  return [
    passed('list.limit/listPets/1', 'listPets', 'listPets with limit=1 returns exactly 1 pet', [
      ['GET', '/pets?limit=1', 12],
    ]),
    passed(
      'list.limit/listPets/100',
      'listPets',
      'listPets with limit=100 returns at most 100 pets',
      [['GET', '/pets?limit=100', 31]],
      {
        notes: [{ check: 'list.limit', operation: 'listPets', message: 'the target lists 100 or more pets' }],
      },
    ),
    passed('list.default-limit/listPets', 'listPets', 'listPets without limit returns 20 pets', [['GET', '/pets', 18]]),
    passed('list.status-filter/listPets/sold', 'listPets', 'every pet listed with status=sold is sold', [
      ['GET', '/pets?status=sold', 15],
    ]),
    passed('auth.required/listPets/none', 'listPets', 'listPets without Authorization gets 401', [
      ['GET', '/pets', 4, 401],
    ]),
    passed('auth.required/createPet/none', 'createPet', 'createPet without Authorization gets 401', [
      ['POST', '/pets', 5, 401],
    ]),
    passed('auth.required/getPet/none', 'getPet', 'getPet without Authorization gets 401', [
      ['GET', '/pets/1', 4, 401],
    ]),
    passed(
      'create.echo/createPet/status-sold',
      'createPet',
      'a created pet echoes what was sent plus a new id',
      [['POST', '/pets', 22]],
      {
        notes: [
          {
            check: 'create.echo',
            operation: 'createPet',
            message: 'a pet created without status was given status "available"',
          },
        ],
      },
    ),
    passed('create.persisted/createPet', 'createPet', 'a created pet comes back from getPet unchanged', [
      ['POST', '/pets', 25],
      ['GET', '/pets/51', 9],
    ]),
    passed('get.returns-requested/getPet', 'getPet', 'getPet returns the pet asked for', [['GET', '/pets/2', 8]]),
    passed('get.not-found/getPet', 'getPet', 'getPet of an unknown id gets 404', [
      ['GET', '/pets/9007199254740991', 7, 404],
    ]),
    passed(
      'deprecation.headers/getPet',
      'getPet',
      'what the deprecated getPet sends as Deprecation, Sunset and Link',
      [['GET', '/pets/1', 6]],
      {
        notes: [
          {
            check: 'deprecation.headers',
            operation: 'getPet',
            message: 'Deprecation: @1900000000; Sunset: Thu, 05 Dec 2030 00:00:00 GMT',
          },
        ],
      },
    ),
    passed(
      'generated.valid-accepted/listPets',
      'listPets',
      'generated valid listPets queries are accepted',
      [
        ['GET', '/pets?limit=7&status=pending', 14],
        ['GET', '/pets?limit=93', 29],
        ['GET', '/pets?status=available', 16],
      ],
      { generated: { seed: 748513138, runs: 25, requests: 3 } },
    ),
    passed(
      'stateful.list/pets',
      'listPets',
      'model-based sequences of creates, gets and lists',
      [
        ['POST', '/pets', 21],
        ['GET', '/pets?limit=5', 11],
        ['GET', '/pets/52', 8],
      ],
      { generated: { seed: 748513138, runs: 25, requests: 3 } },
    ),
    {
      ...passed('coverage.operation-status', '*', 'which documented operation × status pairs the run exercised', []),
      coverage: [
        { operation: 'listPets', status: '200', documented: true, count: 7, state: 'exercised' },
        { operation: 'listPets', status: '401', documented: true, count: 1, state: 'exercised' },
        { operation: 'createPet', status: '201', documented: true, count: 3, state: 'exercised' },
        { operation: 'createPet', status: '400', documented: true, count: 0, state: 'missing' },
        { operation: 'createPet', status: '401', documented: true, count: 1, state: 'exercised' },
        { operation: 'getPet', status: '200', documented: true, count: 4, state: 'exercised' },
        { operation: 'getPet', status: '404', documented: true, count: 1, state: 'exercised' },
      ],
    },
  ];
}

const started = new Date('2026-11-27T09:00:00.000Z');
const config = { baseUrl: BASE, runId: 'fixture', readOnly: false, requireCoverage: false };

/** A run in which every check held. */
export function passingReport(): ContractReport {
  return buildReport(config, correctCases(), { startedAt: started, durationMs: 4200 });
}

/** Text a hostile target could send, in a body and a header: markup, a script, bidi overrides and a terminal escape. */
export const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>\u202e\u001b[31m';

function failed(base: CaseResult, failures: Failure[]): CaseResult {
  const checks = { ...base.checks };
  for (const failure of failures) if (failure.operation === base.operation) checks[failure.check] = 'failed';
  return { ...base, status: 'failed', checks, failures };
}

/** A run with every kind of failure: fixed, schema, no answer, hostile text, generated, stateful, grouped and the suite's own. */
export function failingReport(): ContractReport {
  const cases = correctCases();
  const [limit1, limit100, , statusFilter, authList, , , echo, , getRequested, , , generated, stateful] = cases;
  const replaced = new Map<string, CaseResult>([
    [
      limit1!.id,
      failed(limit1!, [
        {
          check: 'list.limit',
          operation: 'listPets',
          expected: 'at most 1 pet',
          actual: '20 pets',
          request: curl('GET', '/pets?limit=1'),
          status: 200,
          response: {
            status: 200,
            contentType: 'application/json',
            body: '[{"id":1,"name":"Rex","categoryId":1},{"id":2,"name":"Whiskers","categoryId":2}]',
          },
        },
      ]),
    ],
    [
      limit100!.id,
      failed(limit100!, [
        {
          check: 'list.limit',
          operation: 'listPets',
          expected: 'at most 100 pets',
          actual: '130 pets',
          request: curl('GET', '/pets?limit=100'),
          status: 200,
          response: { status: 200, contentType: 'application/json', body: '[{"id":1,"name":"Rex","categoryId":1}]' },
        },
      ]),
    ],
    [
      statusFilter!.id,
      failed(statusFilter!, [
        {
          check: 'schema.response',
          operation: 'listPets',
          expected: 'a body that matches Pets',
          actual: 'response[0].categoryId must be integer',
          request: curl('GET', '/pets?status=sold'),
          status: 200,
          response: {
            status: 200,
            contentType: 'application/json',
            body: '[{"id":4,"name":"Tom","categoryId":"3","status":"sold"}]',
          },
          schemaErrors: [
            {
              path: 'response[0].categoryId',
              rule: 'type',
              message: 'response[0].categoryId must be integer',
              schemaPath: '#/items/properties/categoryId/type',
            },
          ],
        },
      ]),
    ],
    [
      authList!.id,
      failed(authList!, [
        {
          check: 'auth.required',
          operation: 'listPets',
          expected: '401 with an Error body',
          actual: '200',
          request: curl('GET', '/pets').replace(` ${KEY}`, ''),
          status: 200,
          response: { status: 200, contentType: 'application/json', body: '[]' },
        },
      ]),
    ],
    [
      echo!.id,
      failed(echo!, [
        {
          check: 'content-type.json',
          operation: 'createPet',
          expected: 'Content-Type application/json and a JSON body',
          actual: `text/html; the body starts ${HOSTILE}`,
          request: curl('POST', '/pets', '{"name":"Rex","categoryId":1,"status":"sold"}'),
          status: 201,
          response: { status: 201, contentType: 'text/html', body: `<html>${HOSTILE}</html>` },
        },
      ]),
    ],
    [
      getRequested!.id,
      failed(getRequested!, [
        {
          check: 'server.responds',
          operation: 'getPet',
          expected: 'an HTTP answer within --timeout (5000 ms)',
          actual: 'no answer: the request timed out after 5000 ms',
          request: curl('GET', '/pets/2'),
          response: { contentType: null, body: '', error: 'timed out after 5000 ms' },
        },
      ]),
    ],
    [
      generated!.id,
      failed(generated!, [
        {
          check: 'generated.valid-accepted',
          operation: 'listPets',
          expected: 'a valid request accepted (2xx)',
          actual: '500',
          request: curl('GET', '/pets?limit=93'),
          status: 500,
          response: {
            status: 500,
            contentType: 'application/json',
            body: '{"code":"internal","message":"boom","status":500}',
          },
          reproduction: [
            '#!/bin/sh',
            '# generated.valid-accepted/listPets: the smallest failing example (petstore-kit contract --seed 748513138 replays the run).',
            '# Set PETSTORE_API_KEY to the key first (export PETSTORE_API_KEY=...).',
            curl('GET', '/pets?limit=93'),
          ],
        },
      ]),
    ],
    [
      stateful!.id,
      failed(stateful!, [
        {
          check: 'stateful.unique-ids',
          operation: 'createPet',
          expected: 'a new id for every created pet',
          actual: 'id 52 given to two pets',
          request: curl('POST', '/pets', '{"name":"contract-fixture-s1.1","categoryId":0}'),
          status: 201,
          response: {
            status: 201,
            contentType: 'application/json',
            body: '{"id":52,"name":"contract-fixture-s1.1","categoryId":0}',
          },
          reproduction: [
            '#!/bin/sh',
            '# stateful/pets: the smallest failing example (petstore-kit contract --seed 748513138 replays the run).',
            '# sequence: create(categoryId=0), list(limit=5, status=-), create(categoryId=0)',
            '# Set PETSTORE_API_KEY to the key first (export PETSTORE_API_KEY=...).',
            curl('POST', '/pets', '{"name":"contract-fixture-s1.0","categoryId":0}'),
            curl('GET', '/pets?limit=5'),
            curl('POST', '/pets', '{"name":"contract-fixture-s1.1","categoryId":0}'),
          ],
        },
      ]),
    ],
  ]);
  const suiteError: CaseResult = {
    id: 'contract-tests/fixed.test.ts',
    check: 'suite.error',
    operation: '*',
    title: 'the contract suite itself',
    status: 'failed',
    checks: { 'suite.error': 'failed' },
    failures: [
      {
        check: 'suite.error',
        operation: '*',
        expected: 'the suite to run',
        actual: 'the request budget (--max-requests 1000) is spent',
      },
    ],
    notes: [],
    requests: [],
    durationMs: 0,
  };
  return buildReport(config, [...cases.map((c) => replaced.get(c.id) ?? c), suiteError], {
    startedAt: started,
    durationMs: 9800,
  });
}

/** A run in which some cases could not try what they check (the request budget spent): exit 2, not judged. */
export function notRunReport(): ContractReport {
  const cases = correctCases().map((c): CaseResult => {
    if (c.id === 'stateful.list/pets')
      return {
        ...c,
        status: 'notRun',
        checks: {},
        reason: 'tried 3 of its 25 minimum examples: --max-requests 60 was reached (raise --max-requests)',
      };
    if (c.id === 'generated.valid-accepted/listPets')
      return {
        ...c,
        status: 'notRun',
        checks: { ...judged },
        reason: 'tried 3 of its 25 minimum examples: --max-requests 60 was reached (raise --max-requests)',
      };
    if (c.operation === 'createPet' && c.check !== 'auth.required')
      return { ...c, status: 'skipped', checks: {}, requests: [], notes: [], reason: 'read-only: createPet writes' };
    return c;
  });
  return buildReport({ ...config, readOnly: true }, cases, { startedAt: started, durationMs: 3100 });
}

/**
 * Two documents and a client's journal for a compat page: NEW lowers limit's maximum to 50, removes getPet before
 * its sunset and adds a required property to NewPet; the journal holds 40 requests, most of which NEW breaks.
 */
export function writeCompatFixture(dir: string): { old: string; new: string; journal: string } {
  const text = readFileSync(defaultSpecFile, 'utf8');
  const next = text
    .replace(/maximum: 100\n {12}default: 20/, 'maximum: 50\n            default: 20')
    .replace(/ {2}\/pets\/\{petId\}:\n[\s\S]*?(?=\ncomponents:)/, '')
    .replace('required: [name, categoryId]', 'required: [name, categoryId, ownerId]')
    .replace(
      /(\n {4}NewPet:\n[\s\S]*?properties:\n)/,
      '$1        ownerId:\n          type: integer\n          format: int64\n',
    );
  const files = { old: join(dir, 'old.yaml'), new: join(dir, 'openapi.yaml'), journal: join(dir, 'journal.json') };
  writeFileSync(files.old, text);
  writeFileSync(files.new, next);
  const entries = Array.from({ length: 40 }, (_, i) => {
    const kind = i % 4;
    const seq = i + 1;
    const headers = { authorization: 'Bearer [redacted]' };
    if (kind === 0)
      return {
        seq,
        method: 'GET',
        path: '/v1/pets',
        query: { limit: String(60 + i) },
        status: 200,
        operationId: 'listPets',
        requestHeaders: headers,
      };
    if (kind === 1)
      return {
        seq,
        method: 'GET',
        path: `/v1/pets/${i}`,
        query: {},
        status: 200,
        operationId: 'getPet',
        requestHeaders: headers,
      };
    if (kind === 2)
      return {
        seq,
        method: 'POST',
        path: '/v1/pets',
        query: {},
        status: 201,
        operationId: 'createPet',
        requestHeaders: { ...headers, 'content-type': 'application/json' },
        requestBody: { name: `Rex ${i}`, categoryId: 1 },
      };
    return {
      seq,
      method: 'GET',
      path: '/v1/pets',
      query: { limit: '10' },
      status: 200,
      operationId: 'listPets',
      requestHeaders: headers,
    };
  });
  writeFileSync(files.journal, JSON.stringify({ capacity: 1000, count: entries.length, entries }, null, 2));
  return files;
}
