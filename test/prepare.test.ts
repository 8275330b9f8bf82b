import { afterEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The first `npx petstore-kit mock` in a fresh clone took 9.5 s in silence, because npm exec installs the
// clone into its npx cache as a link and runs its `prepare` (the whole build) again. scripts/prepare.mjs keeps an
// up-to-date dist/ under npm exec. Tried on a copy of the script in a scratch package whose "build" leaves a mark.
const run = promisify(execFile);
const script = fileURLToPath(new URL('../scripts/prepare.mjs', import.meta.url));
let root: string;

function scratchPackage(): string {
  root = mkdtempSync(join(tmpdir(), 'petstore-prepare-'));
  const files = [
    'src/cli.ts',
    'src/openapi/load-spec.ts',
    'scripts/build-openapi-validator.mjs',
    'scripts/prepare.mjs',
    'tsconfig.json',
    'tsconfig.build.json',
    'dist/cli.js',
    'dist/openapi/openapi-3.0-schema.cjs',
    'dist/web/size.json',
  ];
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    if (file === 'scripts/prepare.mjs') copyFileSync(script, join(root, file));
    else writeFileSync(join(root, file), '// scratch\n');
  }
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      scripts: { build: "node -e \"require('fs').writeFileSync('built', '')\"" },
    }),
  );
  // Sources an hour old, outputs a minute old: dist/ is up to date.
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const file of files) utimesSync(join(root, file), hourAgo, hourAgo);
  for (const dir of ['src', 'src/openapi', 'scripts']) utimesSync(join(root, dir), hourAgo, hourAgo);
  const minuteAgo = new Date(Date.now() - 60_000);
  for (const file of ['dist/cli.js', 'dist/openapi/openapi-3.0-schema.cjs', 'dist/web/size.json'])
    utimesSync(join(root, file), minuteAgo, minuteAgo);
  return root;
}

async function prepare(npmCommand: string): Promise<{ built: boolean; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_')));
  const { stderr } = await run(process.execPath, ['scripts/prepare.mjs'], {
    cwd: root,
    env: { ...env, npm_command: npmCommand },
  });
  return { built: existsSync(join(root, 'built')), stderr };
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('prepare (scripts/prepare.mjs)', () => {
  it('keeps an up-to-date dist/ under npx (npm exec), and says so', async () => {
    scratchPackage();
    expect(await prepare('exec')).toEqual({
      built: false,
      stderr: 'petstore-kit: dist/ is up to date; not rebuilding\n',
    });
  });

  it.each([
    [
      'a source edited after the build',
      () => writeFileSync(join(root, 'src', 'openapi', 'load-spec.ts'), '// edited\n'),
    ],
    ['dist/ missing', () => rmSync(join(root, 'dist'), { recursive: true })],
  ])('rebuilds under npx with %s', async (_, change) => {
    scratchPackage();
    change();
    expect((await prepare('exec')).built).toBe(true);
  });

  it.each(['install', 'ci', 'pack', 'publish'])('always builds for npm %s', async (command) => {
    scratchPackage();
    expect((await prepare(command)).built).toBe(true);
  });
});

describe('npm run build', () => {
  it('leaves the bin executable, since npx in a clone reuses its earlier link and will not set the bit again', () => {
    // `npm test` builds first (pretest).
    expect(statSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url))).mode & 0o111).toBe(0o111);
  });
});
