// Makes the screenshots of the report pages that README shows (docs/images/report-*.png): the browser test of the
// pages (test/browser-reports.test.ts) photographs each page, built from the fixed reports of
// test/support/report-fixtures.ts, in Chromium at 1200×900, and with UPDATE_SCREENSHOTS=1 writes what it took instead
// of comparing it. The same files are the test's baselines, so README's pictures are checked against the pages on
// every `npm test`. Run it after changing a page: node scripts/screenshot-reports.mjs
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const run = spawnSync(process.execPath, [vitest, 'run', 'test/browser-reports.test.ts', '-t', 'screenshot'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, UPDATE_SCREENSHOTS: '1' },
});
process.exit(run.status ?? 1);
