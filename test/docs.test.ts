import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { pages, section } from './support/docs.js';
import { describeRedis } from './support/redis-server.js';
import { freePort } from './support/free-port.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { limitForRuns } from './support/run-budget.js';

// README is the front page (what a newcomer needs, on a screen or two); the rest lives on docs/ pages,
// one subject each. The pages link to each other, and every link must land.
const root = fileURLToPath(new URL('..', import.meta.url));
const read = (page: string) => readFileSync(join(root, page), 'utf8');

/** Markdown outside code fences. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('README and docs/', () => {
  it('README fits on a screen or two: at most 200 lines, the two commands first', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    const quickStart = section('## Quick start', '##');
    expect(quickStart).toContain('npm install && npx petstore-kit mock');
    expect(quickStart).toContain('npm test');
  });

  it('every docs page has a title, a way back, and contents when it has sections', () => {
    for (const page of pages.filter((p) => p.startsWith('docs/'))) {
      const text = read(page);
      expect(text, page).toMatch(/^# \S/);
      expect(text, page).toContain('[← README](../README.md)');
      if ((prose(text).match(/^## /gm) ?? []).length >= 2) expect(text, page).toContain('**Contents**');
    }
  });

  it('every relative link lands on a file, and every anchor on a heading of its page', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const [, target] of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const path = file === '' ? page : normalize(join(dirname(page), file));
        if (!existsSync(join(root, path))) {
          broken.push(`${page}: ${target} (no ${path})`);
          continue;
        }
        if (anchor && path.endsWith('.md') && !anchors(read(path)).has(anchor))
          broken.push(`${page}: ${target} (no heading #${anchor} in ${path})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("README's MSW lines are those of the set-up docs/mock.md runs as written (test/readme-in-process.test.ts)", () => {
    const readme = read('README.md');
    const fragment = /```ts\n(import \{ setupServer \}[\s\S]*?)```/.exec(readme)![1]!;
    const tested = section('## In the browser and in tests without a server');
    for (const line of fragment
      .split('\n')
      .map((l) => l.replace(/\s*\/\/.*$/, '').trim())
      .filter(Boolean))
      expect(tested).toContain(line);
  });
});

describe("README's browser example", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({});
  });
  afterAll(() => server.close());

  it('creates the pet it says, against a fresh mock with the development key', async () => {
    const readme = read('README.md');
    const code = /```js\n([\s\S]*?)```/.exec(readme)![1]!;
    const shown = /\/\/ (\d{3}) (\{.*\})/.exec(code)!;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- README's example, run as written, is the point
    const run = new Function(
      'fetch',
      `return (async () => { ${code.replaceAll('http://127.0.0.1:4010/v1', server.url)}; return res; })();`,
    ) as (f: typeof fetch) => Promise<Response>;
    const res = await run(fetch);
    expect(res.status).toBe(Number(shown[1]));
    expect(await res.json()).toEqual(JSON.parse(shown[2]!));
  });
});

describe("README's contract command for a CI job", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: ['ci-key-0123456789'] });
  });
  afterAll(() => server.close());

  it(
    'runs as written against a target (the staging URL swapped for a local mock) and writes both reports',
    { timeout: limitForRuns(1) },
    async () => {
      const block = /```sh\n(PETSTORE_API_KEY=\$KEY npx petstore-kit contract[\s\S]*?)```/.exec(read('README.md'))![1]!;
      const dir = mkdtempSync(join(tmpdir(), 'petstore-readme-ci-'));
      try {
        const script = block
          .replaceAll('https://staging.example.com/v1', server.url)
          .replaceAll('npx petstore-kit', `"${process.execPath}" "${join(root, 'dist', 'cli.js')}"`);
        const shell = spawn('bash', ['-e', '-c', script], {
          cwd: dir,
          env: { ...process.env, KEY: 'ci-key-0123456789', PETSTORE_API_KEYS: '' },
          stdio: 'ignore',
        });
        expect((await once(shell, 'exit'))[0]).toBe(0);
        const report = JSON.parse(readFileSync(join(dir, 'reports', 'contract.json'), 'utf8')) as {
          summary: { failed: number; notRun: number };
        };
        expect(report.summary).toMatchObject({ failed: 0, notRun: 0 });
        expect(readFileSync(join(dir, 'reports', 'contract.xml'), 'utf8')).toContain('<testsuite');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describeRedis("README's team mock on Redis", () => {
  // The block as written, in a temporary directory (Redis writes its append-only file there), with two changes only:
  // free ports instead of 6379, 4010 and 4011, and the built CLI instead of npx (a temporary directory is not a clone).
  it(
    'runs as written: two replicas on one Redis, a pet created through one is returned by the other',
    // Generous: two Node processes starting beside a loaded test run; the poll below waits as long as it may.
    { timeout: 180_000 },
    async () => {
      const block = /```sh\n(redis-server[\s\S]*?)```/.exec(read('README.md'))![1]!;
      const [redisPort, first, second] = [await freePort(), await freePort(), await freePort()];
      const dir = mkdtempSync(join(tmpdir(), 'petstore-readme-team-'));
      const script = block
        .replaceAll('6379', String(redisPort))
        .replaceAll('--port 4010', `--port ${first}`)
        .replaceAll('--port 4011', `--port ${second}`)
        .replaceAll('npx petstore-kit', `"${process.execPath}" "${join(root, 'dist', 'cli.js')}"`)
        .split('\n')
        .map((line) =>
          line.trim().endsWith('&') || / &\s+#/.test(line) ? `${line.replace(/\s+#.*$/, '')} echo $! >> pids` : line,
        )
        .join('\n');
      try {
        // Its output is not awaited: the servers it leaves running in the background keep the shell's streams open.
        const shell = spawn('bash', ['-c', script], {
          cwd: dir,
          env: { ...process.env, PETSTORE_API_KEYS: '' },
          stdio: 'ignore',
        });
        expect((await once(shell, 'exit'))[0]).toBe(0);
        const ready = async (port: number) =>
          expect
            .poll(
              async () =>
                (
                  await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, {
                    headers: { Authorization: 'Bearer team-key' },
                  }).catch(() => undefined)
                )?.status,
              { timeout: 80_000 },
            )
            .toBe(200);
        await ready(first);
        await ready(second);
        const created = await fetch(`http://127.0.0.1:${first}/v1/pets`, {
          method: 'POST',
          headers: { Authorization: 'Bearer team-key', 'Content-Type': 'application/json' },
          body: '{"name":"Shared","categoryId":1}',
        });
        expect(created.status).toBe(201);
        const pet = (await created.json()) as { id: number };
        const got = await fetch(`http://127.0.0.1:${second}/v1/pets/${pet.id}`, {
          headers: { Authorization: 'Bearer team-key' },
        });
        expect(await got.json()).toEqual(pet);
      } finally {
        const pids = (() => {
          try {
            return readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
          } catch {
            return [];
          }
        })();
        // The mocks first, then Redis; each by the PID the shell gave it.
        for (const pid of pids.reverse()) {
          try {
            process.kill(pid, 'SIGTERM');
          } catch {
            // already gone
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
