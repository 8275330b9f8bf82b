// The contract runner's own speed, for `npm run bench`: default runs of `petstore-kit contract` against a fresh
// mock each (loopback, --quiet), timed whole (spawn to exit) and by phase. The runner sends one request at a time
// (a stateful check's parallel creates aside), so its rate is set by round trips, not by the mock's capacity: the
// mock's figure under 50 connections is printed beside it for scale.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, median, root, startServer } from './processes.mjs';

const RUNS = Number(process.env.BENCH_CONTRACT_RUNS ?? 3);

/** Returns how many runs did not exit 0 (each a failure of the benchmark). */
export async function benchContractRunner({ key, mockListRps }) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-contract-'));
  const rows = [];
  let bad = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const mock = await startServer('mock (contract target)', [cli, 'mock', '--port', '0', '--api-key', key, '--quiet']);
      try {
        const file = join(dir, `run-${i}.json`);
        const started = performance.now();
        const code = await run([cli, 'contract', '--base-url', mock.url, '--api-key', key, '--seed', String(1000 + i), '--json', file]);
        const wallMs = performance.now() - started;
        if (code !== 0) bad++;
        const report = JSON.parse(readFileSync(file, 'utf8'));
        const generatedMs = report.cases.filter((c) => c.generated).reduce((sum, c) => sum + c.durationMs, 0);
        const fixedMs = report.cases.filter((c) => !c.generated).reduce((sum, c) => sum + c.durationMs, 0);
        rows.push({ wallMs, requests: report.requests, generated: report.generated?.requests ?? 0, generatedMs, fixed: report.requests - (report.generated?.requests ?? 0), fixedMs, code });
      } finally {
        await mock.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rps = (requests, ms) => (ms > 0 ? (requests * 1000) / ms : 0);
  console.log(`\ncontract runner (petstore-kit contract with its defaults against a fresh mock; ${RUNS} runs, median)`);
  console.log(`  wall, spawn to exit        ${(median(rows.map((r) => r.wallMs)) / 1000).toFixed(1)} s  (< 15 s) ${median(rows.map((r) => r.wallMs)) < 15_000 ? 'ok' : 'MISSED'}  exit codes ${rows.map((r) => r.code).join(', ')}`);
  console.log(`  requests per run           ${median(rows.map((r) => r.requests)).toFixed(0)} (fixed cases ${median(rows.map((r) => r.fixed)).toFixed(0)}, generated ${median(rows.map((r) => r.generated)).toFixed(0)})`);
  console.log(`  runner req/s, generated    ${median(rows.map((r) => rps(r.generated, r.generatedMs))).toFixed(0)}  (one connection, each answer judged)`);
  console.log(`  runner req/s, fixed cases  ${median(rows.map((r) => rps(r.fixed, r.fixedMs))).toFixed(0)}`);
  if (mockListRps !== undefined) console.log(`  mock req/s, GET /pets      ${mockListRps.toFixed(0)}  (50 connections, from the table above)`);
  return bad + (median(rows.map((r) => r.wallMs)) < 15_000 ? 0 : 1);
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
}
