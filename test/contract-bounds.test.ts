import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { runCliMeasured } from './support/peak-rss.js';
import { startHostileTarget, startSlowTarget, stream, type Hostile } from './support/hostile-target.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { limitForRuns } from './support/run-budget.js';

const KEY = 'bounds-key-4c8e1a';
const LIMIT_MIB = 300;
const tmp = mkdtempSync(join(tmpdir(), 'petstore-bounds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const zeros = Buffer.alloc(64 * 1024, 0x20);
// 16 MiB of spaces in ~16 KB of gzip; sent 64 times it is 1 GiB once decompressed (gzip members concatenate).
const bombMember = gzipSync(Buffer.alloc(16 * MiB, 0x20), { level: 9 });
const brackets = Buffer.alloc(64 * 1024, '[');

function millionPets(res: Parameters<Hostile>[1]): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.on('error', () => {});
  let id = 0;
  const write = () => {
    while (id < 1_000_000 && !res.destroyed) {
      let chunk = id === 0 ? '[' : '';
      for (let i = 0; i < 1000 && id < 1_000_000; i++, id++)
        chunk += `${id ? ',' : ''}{"id":${id + 1},"name":"pet-${id}","categoryId":1}`;
      if (id === 1_000_000) chunk += ']';
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    if (!res.destroyed) res.end();
  };
  write();
}

// Each hostile answer goes to every request after the probe, so the runner meets it ~55 times in one run.
const targets: [string, Hostile, string[], string][] = [
  [
    'a 1 GiB body',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      stream(res, zeros, 1024 * MiB);
    },
    [],
    'response.bounded',
  ],
  [
    'an endless stream',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      stream(res, zeros, Infinity);
    },
    [],
    'response.bounded',
  ],
  [
    'a gzip bomb (1 GiB from 1 MB)',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      stream(res, bombMember, bombMember.length * 64);
    },
    [],
    'response.bounded',
  ],
  ['a list of a million pets', (_req, res) => millionPets(res), [], 'response.bounded'],
  // 5 MB of '[' is over the default cap: raise it so that the depth limit, not the byte cap, is what stops it.
  [
    '5 million [',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      stream(res, brackets, 5_000_000);
    },
    ['--max-body', '8MiB'],
    'response.bounded',
  ],
];

describe('the runner stays bounded against hostile targets (peak RSS of the CLI measured)', () => {
  const peaks: Record<string, number> = {};
  afterAll(() => {
    // Printed for the record (README figures); the assertion is the bound below.
    console.log(`peak RSS by hostile target (MiB): ${JSON.stringify(peaks)}`);
  });

  it.for(targets)(
    '%s: exit 1, every answer failed under response.bounded, peak RSS under 300 MB',
    { timeout: limitForRuns(1) },
    async ([name, hostile, args, check]) => {
      const target = await startHostileTarget(hostile);
      try {
        const report = join(tmp, `${name.replace(/\W+/g, '-')}.json`);
        const result = await runCliMeasured([
          'contract',
          '--base-url',
          target.url,
          '--api-key',
          KEY,
          '--json',
          report,
          '--timeout',
          '5000',
          ...args,
        ]);
        peaks[name] = result.peakRssMiB;
        expect(result.stderr).toBe('');
        expect(result.code).toBe(1);
        const parsed = JSON.parse(readFileSync(report, 'utf8')) as ContractReport;
        expect(parsed.failedChecks).toContain(check);
        expect(parsed.groups.find((g) => g.check === check)?.count).toBeGreaterThan(10);
        expect(result.peakRssMiB).toBeGreaterThan(0);
        expect(result.peakRssMiB).toBeLessThan((LIMIT_MIB * 1e6) / MiB);
      } finally {
        await target.close();
      }
    },
  );

  it(
    'a target that stops answering after the first request: exit 2 with one line after 3 non-answers, reports say so',
    async () => {
      const target = await startHostileTarget(() => {
        // Never answers: the socket stays open until the runner gives up.
      });
      try {
        const files = {
          junit: join(tmp, 'silent.xml'),
          json: join(tmp, 'silent.json'),
          summary: join(tmp, 'silent.md'),
        };
        const result = await runCliMeasured(
          [
            'contract',
            '--base-url',
            target.url,
            '--api-key',
            KEY,
            '--timeout',
            '400',
            '--junit',
            files.junit,
            '--json',
            files.json,
          ],
          { GITHUB_STEP_SUMMARY: files.summary },
        );
        peaks['stops answering'] = result.peakRssMiB;
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          'petstore-kit: stopped: 3 requests in a row got no answer (the last: no answer within 400 ms); the target stopped answering\n',
        );
        expect(target.requests()).toBe(4);
        const report = JSON.parse(readFileSync(files.json, 'utf8')) as ContractReport;
        expect(report.stopped).toMatch(/^3 requests in a row got no answer/);
        // The cases after the stop could not run: not run, never passed nor merely skipped.
        expect(report.summary.notRun).toBeGreaterThan(40);
        const junit = readFileSync(files.junit, 'utf8');
        expect(junit).toContain('errors="1"');
        expect(junit).toContain('<error type="run.stopped" message="3 requests in a row got no answer');
        expect(readFileSync(files.summary, 'utf8')).toContain(
          '### Petstore contract: ⚠️ stopped early: 3 requests in a row got no answer',
        );
        expect(result.peakRssMiB).toBeLessThan((LIMIT_MIB * 1e6) / MiB);
      } finally {
        await target.close();
      }
    },
    limitForRuns(1),
  );

  it(
    'stops at the overall --deadline: exit 2 with one line',
    async () => {
      // Answers every request correctly, slowly: only the deadline can end the run early.
      const target = await startSlowTarget(400);
      try {
        const result = await runCliMeasured([
          'contract',
          '--base-url',
          target.url,
          '--api-key',
          KEY,
          '--deadline',
          '2',
          '--read-only',
        ]);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe("petstore-kit: stopped: the run's deadline of 2 s passed (--deadline)\n");
        expect(target.requests()).toBeLessThan(10);
      } finally {
        await target.close();
      }
    },
    limitForRuns(1),
  );
});
