import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { formatTextSummary } from '../src/contract/reports/format-text.js';
import { formatMarkdown } from '../src/contract/reports/format-markdown.js';
import { json, startHostileTarget, type HostileTarget } from './support/hostile-target.js';
import { limitForRuns } from './support/run-budget.js';

const KEY = 'honest-key-9d2f4e';
const spec = await loadSpec();

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}

/**
 * A stateless target: it checks the key (401), accepts creates with a correct echo, and keeps nothing, so every
 * pet it created is 404 afterwards and every list is empty. One root cause behind many failures.
 */
function stateless(options: { missingKey?: (res: ServerResponse) => void; wrongEcho?: boolean } = {}) {
  let nextId = 1000;
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const text = await body(req);
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        if (!req.headers.authorization && options.missingKey) return options.missingKey(res);
        return json(res, 401, { code: 'unauthorized', message: 'no key', status: 401 });
      }
      if (req.method === 'POST') {
        let sent: { name?: unknown; categoryId?: unknown; status?: unknown };
        try {
          sent = JSON.parse(text) as typeof sent;
        } catch {
          return json(res, 400, { code: 'invalid_json', message: 'body', status: 400 });
        }
        if (
          typeof sent !== 'object' ||
          sent === null ||
          Array.isArray(sent) ||
          typeof sent.name !== 'string' ||
          !Number.isInteger(sent.categoryId) ||
          (sent.status !== undefined && !['available', 'pending', 'sold'].includes(sent.status as string))
        ) {
          return json(res, 400, { code: 'invalid_body', message: 'body', status: 400 });
        }
        return json(res, 201, { ...sent, id: nextId++, ...(options.wrongEcho ? { name: 'someone else' } : {}) });
      }
      if (/\/pets\/\d+$/.test(req.url ?? ''))
        return json(res, 404, { code: 'not_found', message: 'no such pet', status: 404 });
      if (/\/pets\/[^/?]+$/.test(req.url ?? ''))
        return json(res, 400, { code: 'invalid_parameter', message: 'petId', status: 400 });
      const limit = new URL(req.url ?? '', 'http://x').searchParams.get('limit');
      if (limit !== null && !/^\d+$/.test(limit))
        return json(res, 400, { code: 'invalid_parameter', message: 'limit', status: 400 });
      return json(res, 200, []);
    })();
  };
}

describe('an honest report: a stateless target', () => {
  let target: HostileTarget;
  beforeAll(async () => {
    target = await startHostileTarget(stateless(), { probe: (_req, res) => json(res, 200, []) });
  });
  afterAll(() => target.close());

  it(
    'groups the failures of one root cause, shows what came back, skips what it cannot know, and counts cases and failures apart',
    { timeout: limitForRuns(1) },
    async () => {
      const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec });
      const persisted = report.groups.find((g) => g.check === 'create.persisted')!;
      expect(persisted.count).toBe(4);
      expect(persisted.cases).toHaveLength(4);
      // Every failure shows the status, the media type and an excerpt of the body beside the rule.
      expect(persisted.example.response).toEqual({
        status: 404,
        contentType: 'application/json',
        body: '{"code":"not_found","message":"no such pet","status":404}',
      });
      for (const failure of report.cases.flatMap((c) => c.failures))
        expect(failure.response?.contentType, failure.check).toBeDefined();
      // The target stores nothing, so "stored none of the rejected bodies" proves nothing: skipped, with the reason.
      const nothingStored = report.cases.find((c) => c.id === 'input.invalid-rejected/createPet/nothing-stored')!;
      expect(nothingStored.status).toBe('skipped');
      expect(nothingStored.reason).toMatch(/^the target was not shown to store pets at all/);
      // Coverage is incomplete (no getPet 200): never a ✓.
      const coverage = report.cases.find((c) => c.id === 'coverage.operation-status')!;
      expect(coverage.status).toBe('skipped');
      expect(coverage.reason).toMatch(/^only \d of 8 documented pairs exercised; never exercised: .*getPet 200/);
      // Cases and failures are counted apart, and the line says which is which.
      const text = formatTextSummary(report);
      const total = report.cases.length;
      expect(report.failures.total).toBeGreaterThan(report.summary.failed);
      expect(text.trimEnd().split('\n').at(-1)).toBe(
        `${total} cases: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped; ${report.failures.total} failures in ${report.failures.groups} groups`,
      );
      expect(text).toContain(
        '1) create.persisted · getPet — the pet created with status available is returned by getPet and appears in the list  (×4)',
      );
      expect(text).toContain(
        '     got:      404 application/json {"code":"not_found","message":"no such pet","status":404}',
      );
      expect(formatMarkdown(report)).toContain('(×4)');
    },
  );
});

describe('an honest report: premises and missing keys', () => {
  it(
    'skips the cases built on a wrong create answer, naming it, instead of querying with the wrong pet',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startHostileTarget(stateless({ wrongEcho: true }));
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec });
        const persisted = report.cases.filter((c) => c.check === 'create.persisted');
        expect(persisted.map((c) => c.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
        expect(persisted[0]!.reason).toBe(
          'createPet answered a wrong pet for "status-available" (see create.echo/createPet/status-available)',
        );
        expect(report.cases.filter((c) => c.check === 'create.echo' && c.status === 'failed')).toHaveLength(4);
      } finally {
        await target.close();
      }
    },
  );

  it(
    'fails JSON that is not valid UTF-8 under content-type.json (RFC 8259 §8.1)',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startHostileTarget((req, res) => {
        if (req.method !== 'GET' || /\/pets\/[^/]+$/.test(req.url ?? '')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          Buffer.concat([
            Buffer.from('[{"id":1,"name":"'),
            Buffer.from([0xc3, 0x28, 0xff]),
            Buffer.from('","categoryId":1}]'),
          ]),
        );
      });
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec, readOnly: true });
        const group = report.groups.find((g) => g.check === 'content-type.json');
        expect(group?.example.actual).toBe('the body is not valid UTF-8 (RFC 8259 §8.1 requires UTF-8)');
        expect(group!.count).toBeGreaterThan(5);
      } finally {
        await target.close();
      }
    },
  );

  it(
    'files a missing key answered 400 text/plain under auth.required, not only as a media type problem',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startHostileTarget(
        stateless({
          missingKey: (res) => {
            res.writeHead(400, { 'content-type': 'text/plain' });
            res.end('Missing header');
          },
        }),
      );
      try {
        const report = await runContract({ baseUrl: target.url, apiKey: KEY, spec });
        const noHeader = report.cases.filter((c) => c.id.startsWith('auth.required/') && c.id.endsWith('/no-header'));
        expect(noHeader).toHaveLength(3);
        for (const result of noHeader) {
          expect(result.failures.map((f) => f.check).sort()).toEqual(['auth.required', 'content-type.json']);
          expect(result.failures.find((f) => f.check === 'auth.required')?.response).toEqual({
            status: 400,
            contentType: 'text/plain',
            body: 'Missing header',
          });
        }
      } finally {
        await target.close();
      }
    },
  );
});
