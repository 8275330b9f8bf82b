import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { checks } from '../src/compat/check-ids.js';
import { compareDocuments } from '../src/compat/compare-documents.js';
import { loadDocument } from '../src/compat/load-document.js';
import { buildCompatReport } from '../src/compat/report/compat-report.js';
import { formatCompatText } from '../src/compat/report/format-text.js';
import { defaultSpecFile } from '../src/paths.js';
import { optionsTable, section } from './support/docs.js';
import { cliFile, runProcess } from './support/cli.js';
import { compatHelp, runCompat } from '../src/commands/compat.js';
import { DEFAULT_MIN_NOTICE_DAYS } from '../src/compat/lifecycle.js';
import { MAX_DOCUMENT_BYTES, URL_TIMEOUT_MS } from '../src/compat/load-document.js';

// docs/compat.md and README's "For an API owner" stay true: the check ids table is the code's, the sample output is
// what the code prints, and the commands run as written in a git repository whose base branch has openapi.yaml and
// whose change removes getPet (the CLI's path aside: `npx petstore-kit` is the built CLI here).

const page = readFileSync(new URL('../docs/compat.md', import.meta.url), 'utf8');
const withoutGetPet = () => {
  const document = YAML.parse(readFileSync(defaultSpecFile, 'utf8'));
  delete document.paths['/pets/{petId}'];
  return document;
};

describe('docs/compat.md', () => {
  it('the check ids table is the code’s table: every id, its level, its title and oasdiff’s ids, in order', () => {
    const rows = [...section('## Check ids').matchAll(/^\| `([a-z.-]+)` \| (\w+) \| (.+?) \| (.+) \|$/gm)].map(
      ([, id, level, title, oasdiff]) => [id, level, title, oasdiff],
    );
    const code = Object.entries(checks).map(([id, rule]) => [
      id,
      rule.level,
      rule.title,
      rule.oasdiff.map((o) => `\`${o}\``).join(', ') || '—',
    ]);
    expect(rows).toEqual(code);
  });

  it('the options table lists the flags --help lists, with the defaults the code has', () => {
    const table = optionsTable(section('## A first comparison'));
    const help = [...compatHelp.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)]
      .map((match) => match[1]!)
      .filter((flag) => flag !== '--help');
    expect([...table.keys()].sort()).toEqual(help.sort());
    expect(table.get('--min-notice')).toBe(`\`${DEFAULT_MIN_NOTICE_DAYS}\``);
    expect(compatHelp).toContain(`(default ${DEFAULT_MIN_NOTICE_DAYS})`);
  });

  it('the bounds and defaults it and the Decisions page name are the code’s', () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    expect(flat(section('## A first comparison'))).toContain(
      `fetched with a ${URL_TIMEOUT_MS / 1000}-second timeout and up to ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`,
    );
    expect(flat(section('## Deprecation, sunset and stability'))).toContain(
      `${DEFAULT_MIN_NOTICE_DAYS} days by default`,
    );
    const decisions = readFileSync(new URL('../docs/decisions.md', import.meta.url), 'utf8');
    expect(flat(decisions.slice(decisions.indexOf('## The compatibility gate')))).toContain(
      `Minimum notice**: ${DEFAULT_MIN_NOTICE_DAYS} days by default`,
    );
  });

  it('the sample output is what compat prints for openapi.yaml without getPet on 2026-11-26', async () => {
    const sample = /```\n(petstore-kit compat openapi\.yaml → new\.yaml[\s\S]*?)```/.exec(page)![1]!;
    const old = await loadDocument({ path: defaultSpecFile });
    const current = await loadDocument({ label: 'new.yaml', value: withoutGetPet() });
    const findings = compareDocuments(old, current, { date: new Date('2026-11-26T00:00:00Z'), minNoticeDays: 180 });
    const report = buildCompatReport(
      {
        version: 'x',
        old: 'openapi.yaml',
        new: 'new.yaml',
        date: '2026-11-26',
        minNoticeDays: 180,
        failOn: 'breaking',
      },
      findings,
    );
    expect(formatCompatText(report)).toBe(sample);
  });
});

describe('the CI recipe and README’s API-owner path, run as written', () => {
  let repo: string;
  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'petstore-compat-ci-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], { cwd: repo });
    git('init', '-q');
    writeFileSync(join(repo, 'openapi.yaml'), readFileSync(defaultSpecFile));
    git('add', 'openapi.yaml');
    git('commit', '-qm', 'the document clients know');
    // A pull request's checkout: the base branch as a remote-tracking branch, the change in the working tree.
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    writeFileSync(join(repo, 'openapi.yaml'), YAML.stringify(withoutGetPet()));
    // What the recipe's first step writes, so that each test also runs alone (the recipe writes it again).
    writeFileSync(join(repo, 'old.yaml'), readFileSync(defaultSpecFile));
    mkdirSync(join(repo, 'reports'));
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  /** Runs shell lines in the repository, `npx petstore-kit` being the built CLI; the exit code of the last. */
  async function runLines(lines: string[], env: Record<string, string>) {
    const script = lines
      .map((line) => line.replaceAll('npx petstore-kit', `"${process.execPath}" "${cliFile}"`))
      .join('\n');
    return runProcess('bash', ['-e', '-c', script], { env: { ...process.env, ...env }, cwd: repo });
  }

  it('the GitHub Actions recipe: its run steps after the install fail the pull request that removes getPet, with reports', async () => {
    const recipe = YAML.parse(/```yaml\n([\s\S]*?)```/.exec(section('## In CI'))![1]!);
    const steps: { run?: string }[] = recipe.jobs.compat.steps;
    const runs = steps.flatMap((step) => (step.run ? [step.run] : []));
    // The install step is the only one not run: this checkout is installed already.
    expect(runs[0]).toBe('npm ci');
    const summary = join(repo, 'summary.md');
    const { code, stdout } = await runLines(runs.slice(1), { GITHUB_BASE_REF: 'main', GITHUB_STEP_SUMMARY: summary });
    expect(code).toBe(1);
    expect(stdout).toContain(
      'BREAKING operation.removed-before-sunset  GET /pets/{petId} (getPet) is removed before its sunset on 2030-12-05',
    );
    expect(readFileSync(join(repo, 'reports/compat.xml'), 'utf8')).toContain(
      '<failure type="operation.removed-before-sunset"',
    );
    expect(JSON.parse(readFileSync(join(repo, 'reports/compat.json'), 'utf8'))).toMatchObject({
      exitCode: 1,
      failedChecks: ['operation.removed-before-sunset'],
    });
    expect(readFileSync(summary, 'utf8')).toMatch(/^### Petstore compat: ❌ not compatible/);
  });

  it('docs/compat.md “A first comparison”: each command, run in-process in that repository (old.yaml, the change, a journal)', async () => {
    const lines = /```sh\n([\s\S]*?)```/.exec(section('## A first comparison'))![1]!.trim().split('\n');
    // The journal of a client that called getPet once, as GET /__admin/journal answers.
    const call = {
      seq: 1,
      time: '2026-11-26T00:00:00.000Z',
      method: 'GET',
      path: '/v1/pets/1',
      query: {},
      status: 200,
      durationMs: 1,
      operationId: 'getPet',
      requestHeaders: { authorization: 'Bearer [redacted]' },
      validation: { valid: true, violations: [] },
    };
    writeFileSync(join(repo, 'reports/journal.json'), JSON.stringify({ capacity: 1000, count: 1, entries: [call] }));
    let out = '';
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    const codes: number[] = [];
    try {
      for (const line of lines) {
        expect(line).toMatch(/^npx petstore-kit compat /);
        const args = line
          .replace(/#.*$/, '')
          .trim()
          .split(/\s+/)
          .slice(3)
          .map((arg) => (/\.(yaml|json)$/.test(arg) ? join(repo, arg) : arg));
        codes.push(await runCompat(args));
      }
    } finally {
      write.mockRestore();
    }
    // Today getPet's removal breaks; on its sunset day it does not; the journal names the client's call, and with
    // --fail-on warning nothing changes that.
    expect(codes).toEqual([1, 0, 1]);
    expect(out).toContain(
      'BREAKING journal.operation-removed  request #1 GET /v1/pets/1 used GET /pets/{petId} (getPet)',
    );
  });

  it('README: the two commands compare the base branch’s document with the change', async () => {
    const block = /```sh\n(git show origin\/main[\s\S]*?)```/.exec(section('## For an API owner', '##'))![1]!;
    rmSync(join(repo, 'reports/compat.xml'), { force: true });
    const { code, stdout } = await runLines(block.trim().split('\n'), {});
    expect(code).toBe(1);
    expect(stdout).toContain('1 breaking, 0 warnings, 0 info: not compatible for clients of old.yaml (exit 1)');
    expect(existsSync(join(repo, 'reports/compat.xml'))).toBe(true);
  });
});
