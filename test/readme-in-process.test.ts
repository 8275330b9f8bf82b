import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { section } from './support/docs.js';

// README's two set-ups for tests without a server run as written — the vitest one, and the jest-style one
// (globals, no runner imports) — each in a vitest of its own, importing the package by its name.
const root = fileURLToPath(new URL('..', import.meta.url));
const text = section('## In the browser and in tests without a server');

/** The first ```ts block after `marker` in the section. */
function blockAfter(marker: string): string {
  const at = text.indexOf(marker);
  expect(at, `README has "${marker}"`).toBeGreaterThan(-1);
  const match = /```ts\n([\s\S]*?)```/.exec(text.slice(at));
  return match![1]!;
}

// Inside the package, so that `petstore-kit/msw` resolves to it by name (package self-reference), as in a user's repo.
const dir = mkdtempSync(join(root, 'test', '.readme-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README: in tests without a server', () => {
  it.for([
    ['the vitest set-up', 'With vitest', 'vitest-example.test.ts'],
    ['the jest-style set-up', 'Jest-style', 'jest-example.test.ts'],
  ])('%s runs as written and passes', { timeout: 120_000 }, async ([, marker, file]) => {
    writeFileSync(join(dir, file!), blockAfter(marker!));
    // Jest's globals (describe, it, expect, afterEach…) without imports: vitest's `globals` gives the same.
    writeFileSync(
      join(dir, `${file}.config.mjs`),
      `export default { test: { globals: true, include: [${JSON.stringify(file)}], testTimeout: 30000 } };\n`,
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', join(dir, `${file}.config.mjs`)],
      { cwd: dir, env: { ...process.env, CI: 'true', NO_COLOR: '1' } },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`README's ${marker} example failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    expect(stdout).toMatch(/Tests\s+1 passed \(1\)/);
  });
});
