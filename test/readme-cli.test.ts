import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMockServer, type MockServer } from '../src/index.js';
import { docs as readme, section, optionsTable } from './support/docs.js';
import { runCli, startCli } from './support/cli.js';
import { proxyChecks } from '../src/proxy/proxy-checks.js';
import { limitForRuns } from './support/run-budget.js';

// README and the help texts drifted from what the CLI does ("about 80" requests in --help, 56 sent; a
// JSDoc promising 70 passed). These compare each with the CLI itself.

/** `-p`, `--port`, … named at the start of each option line of a help text. */
function helpFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:(-[a-zA-Z]), )?(--[a-z-]+)/gm)]
    .flatMap((m) => (m[1] ? [m[1], m[2]!] : [m[2]!]))
    .sort();
}

/** Every flag named in the first column of a README options table. */
function tableFlags(text: string): string[] {
  return [...optionsTable(text).keys()].sort();
}

describe('README and --help agree with the CLI', () => {
  it("lists exactly the mock's flags in its options table", async () => {
    const help = await runCli(['mock', '--help']);
    const table = section('`npx petstore-kit mock [options]');
    expect(tableFlags(table)).toEqual(helpFlags(help.stdout));
  });

  it("lists exactly the contract command's flags in its options table", async () => {
    const help = await runCli(['contract', '--help']);
    const table = section('`npx petstore-kit contract --base-url URL [options]`');
    expect(tableFlags(table)).toEqual(helpFlags(help.stdout));
  });

  it("lists exactly the proxy's check ids in README's table", () => {
    const table = section('### What is checked, and under which ids');
    const ids = [...table.matchAll(/^\| `([a-z0-9.-]+)` \|/gm)].map((m) => m[1]);
    expect(ids.sort()).toEqual(Object.keys(proxyChecks).sort());
  });

  it('shows the start-up lines the mock prints', async () => {
    const { child, output } = await startCli(['mock', '--port', '0', '--no-config'], /admin API: .*\n/, {
      PETSTORE_API_KEYS: '',
      PETSTORE_API_KEY: '',
    });
    child.kill('SIGTERM');
    await once(child, 'close');
    const printed = output()
      .split('\n')
      .filter(Boolean)
      .slice(0, 6)
      .map((line) => line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:4010'));
    const quickStart = section('## Quick start', '##');
    const block = /```\n(petstore-kit mock listening on[\s\S]*?)```/.exec(quickStart)?.[1]?.trim().split('\n');
    expect(block).toEqual(printed);
  });
});

describe("the contract run's figures in README, --help and JSDoc", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: ['readme-key'] });
  });
  afterAll(() => server.close());

  it('match what a run against the mock sends and passes', { timeout: limitForRuns(1) }, async () => {
    // README's sample is a default run; its seed (on its first line) makes the generated phase send the same requests
    // again: examples, not time, are its budget, so the count does not depend on the machine's speed.
    const sample = section('### Try it');
    const seed = /; seed (\d+)\)$/m.exec(sample)![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'petstore-readme-'));
    const file = join(dir, 'report.json');
    const before = await server.mock.store.count();
    const result = await runCli([
      'contract',
      '--base-url',
      server.url,
      '--api-key',
      'readme-key',
      '--seed',
      seed,
      '--json',
      file,
    ]);
    const created = (await server.mock.store.count()) - before;
    const report = JSON.parse(readFileSync(file, 'utf8')) as {
      requests: number;
      generated: { requests: number; runs: number };
      cases: { id: string; generated?: { runs: number } }[];
    };
    expect(result.code).toBe(0);
    const [, sent] = /^(\d+) requests in /m.exec(result.stdout)!;
    const [, passed] = /^\d+ cases: (\d+) passed, 0 failed$/m.exec(result.stdout)!;
    const fixed = report.requests - report.generated.requests;
    const help = (await runCli(['contract', '--help'])).stdout;
    const about = [
      /the fixed cases send about (\d+)/.exec(help)?.[1],
      /the fixed cases send about (\d+)/.exec(readme)?.[1],
      /a fixed script of ~(\d+) readable requests/.exec(readme)?.[1],
      /The fixed cases send about (\d+) requests/.exec(readme)?.[1],
      /It sends a fixed script of about (\d+) requests/.exec(readme)?.[1],
    ];
    // "about": one number everywhere, within a tenth of what the fixed cases sent (a store with fewer pets needs more).
    expect(new Set(about).size, `help and README say about ${about.join(', ')}`).toBe(1);
    expect(Math.abs(Number(about[0]) - fixed)).toBeLessThanOrEqual(fixed / 10);
    // The budget's figures: "about" is within a tenth of this run's.
    const near = (text: string | undefined, actual: number) =>
      expect(
        Math.abs(Number(text?.replace(',', '')) - actual),
        `README says ${text}, a run sent ${actual}`,
      ).toBeLessThanOrEqual(actual / 10);
    near(/a default run sends about ([\d,]+)\)/.exec(readme)?.[1], report.requests);
    near(/the phase sends about ([\d,]+) requests/.exec(readme)?.[1], report.generated.requests);
    near(/generated\s+phase about ([\d,]+) by default/.exec(readme)?.[1], report.generated.requests);
    near(
      /the stateful check runs\s+~(\d+) sequences/.exec(readme)?.[1],
      report.cases.find((c) => c.id === 'stateful/pets')!.generated!.runs,
    );
    // "Running against production": how many pets a write run leaves behind, how many GETs a read-only run sends.
    near(/Without it a run creates about ([\d,]+) pets/.exec(readme)?.[1], created);
    const readOnly = await runCli([
      'contract',
      '--base-url',
      server.url,
      '--api-key',
      'readme-key',
      '--seed',
      seed,
      '--read-only',
      '--json',
      file,
    ]);
    expect(readOnly.code).toBe(0);
    const readOnlyReport = JSON.parse(readFileSync(file, 'utf8')) as { requests: number };
    near(/`--read-only`: only GETs are sent \(about ([\d,]+)\)/.exec(readme)?.[1], readOnlyReport.requests);
    // README's sample run and runContract's JSDoc show this very run's figures.
    expect(/^(\d+) requests in /m.exec(sample)?.[1]).toBe(sent);
    expect(/^\d+ cases: (\d+) passed, 0 failed$/m.exec(sample)?.[1]).toBe(passed);
    expect(
      new RegExp(`^Generated phase: seed ${seed}, (\\d+) requests, (\\d+) examples in 10 cases, 0 failures`, 'm')
        .exec(sample)
        ?.slice(1),
    ).toEqual([String(report.generated.requests), String(report.generated.runs)]);
    rmSync(dir, { recursive: true, force: true });
    const jsdoc = readFileSync(new URL('../src/contract/run/run-contract.ts', import.meta.url), 'utf8');
    expect(/report\.summary \/\/ \{ passed: (\d+), failed: 0/.exec(jsdoc)?.[1]).toBe(passed);
  });
});
