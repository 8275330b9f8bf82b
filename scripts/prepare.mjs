// npm's `prepare` hook: build dist/ on `npm install` in a clone and before `npm pack`/`npm publish`.
//
// npm also runs it on the first `npx petstore-kit …` inside a clone: `npm exec` finds the bin in the local
// package.json, installs the local package into its npx cache (~/.npm/_npx/<hash>) as a link, and arborist runs
// `prepare` for links. Its output is hidden, so the first answer came after a silent full build (9.5 s measured).
// Under `npm exec` (npx), dist/ that is newer than every source it is built from is kept as it is.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputs = ['dist/cli.js', 'dist/openapi/openapi-3.0-schema.cjs', 'dist/web/size.json'].map((file) =>
  join(root, file),
);
const sources = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json'].map((file) => join(root, file));

/** The newest modification time under `path` (a file or a directory tree). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

function upToDate() {
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return sources.filter((path) => existsSync(path)).every((path) => newest(path) <= built);
}

if (process.env.npm_command === 'exec' && upToDate()) {
  process.stderr.write('petstore-kit: dist/ is up to date; not rebuilding\n');
} else {
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
}
