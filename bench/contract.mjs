// The contract runner's own speed, for `npm run bench`: default runs of `petstore-kit contract` against a fresh
// mock each (loopback, --quiet), timed whole (spawn to exit) and by phase. The runner has at most 8 examples in
// flight (--concurrency), so its rate is set by round trips, not by the mock's capacity: the mock's figure under 50
// connections is printed beside it for scale.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, median, root, startServer } from './processes.mjs';

const RUNS = Number(process.env.BENCH_CONTRACT_RUNS ?? 3);

/** Returns how many runs did not exit 0 (each a failure of the benchmark). */
export async function benchContractRunner({ key, mockListRps }) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-contract-'));
  const rows = [];
  let bad = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const mock = await startMock('mock (contract target)', key);
      try {
        const file = join(dir, `run-${i}.json`);
        const started = performance.now();
        const code = await run([
          cli,
          'contract',
          '--base-url',
          mock.url,
          '--api-key',
          key,
          '--seed',
          String(1000 + i),
          '--json',
          file,
        ]);
        const wallMs = performance.now() - started;
        if (code !== 0) bad++;
        const report = JSON.parse(readFileSync(file, 'utf8'));
        const generatedMs = report.cases.filter((c) => c.generated).reduce((sum, c) => sum + c.durationMs, 0);
        const fixedMs = report.cases.filter((c) => !c.generated).reduce((sum, c) => sum + c.durationMs, 0);
        rows.push({
          wallMs,
          requests: report.requests,
          generated: report.generated?.requests ?? 0,
          generatedMs,
          fixed: report.requests - (report.generated?.requests ?? 0),
          fixedMs,
          code,
        });
      } finally {
        await mock.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rps = (requests, ms) => (ms > 0 ? (requests * 1000) / ms : 0);
  console.log(`\ncontract runner (petstore-kit contract with its defaults against a fresh mock; ${RUNS} runs, median)`);
  console.log(
    `  wall, spawn to exit        ${(median(rows.map((r) => r.wallMs)) / 1000).toFixed(1)} s  (< 15 s) ${median(rows.map((r) => r.wallMs)) < 15_000 ? 'ok' : 'MISSED'}  exit codes ${rows.map((r) => r.code).join(', ')}`,
  );
  console.log(
    `  requests per run           ${median(rows.map((r) => r.requests)).toFixed(0)} (fixed cases ${median(rows.map((r) => r.fixed)).toFixed(0)}, generated ${median(rows.map((r) => r.generated)).toFixed(0)})`,
  );
  console.log(
    `  runner req/s, generated    ${median(rows.map((r) => rps(r.generated, r.generatedMs))).toFixed(0)}  (8 examples in flight, each answer judged)`,
  );
  console.log(`  runner req/s, fixed cases  ${median(rows.map((r) => rps(r.fixed, r.fixedMs))).toFixed(0)}`);
  if (mockListRps !== undefined)
    console.log(`  mock req/s, GET /pets      ${mockListRps.toFixed(0)}  (50 connections, from the table above)`);
  const slow = await benchSlowTarget(key);
  const beside = await benchRunnerBaseline(key, process.env.BENCH_CONTRACT_BASELINE);
  return bad + slow + beside + (median(rows.map((r) => r.wallMs)) < 15_000 ? 0 : 1);
}

/** Issue 53: "the default v1 run stays within 10 % of today's time (measured side by side)". */
const RUNNER_RATIO_TARGET = 1.1;

/**
 * The default run of this build's runner beside another checkout's (BENCH_CONTRACT_BASELINE=DIR, built there with
 * npm run build: the runner as it was when issue 53 was filed, 12202ff), each against a fresh mock of this build,
 * the same seed, in turns (the order swapped every round, so that a noisy neighbour falls on both): the medians'
 * ratio, target at most 1.1×. Both must exit 0, else the comparison says nothing.
 */
async function benchRunnerBaseline(key, directory) {
  if (!directory) return 0;
  const baselineCli = join(directory, 'dist/cli.js');
  if (!existsSync(baselineCli))
    throw new Error(`BENCH_CONTRACT_BASELINE=${directory} has no dist/cli.js: run npm run build there`);
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-beside-'));
  const times = { this: [], baseline: [] };
  const requests = { this: [], baseline: [] };
  let bad = 0;
  try {
    for (let round = 0; round < RUNS; round++) {
      const order = round % 2 ? ['baseline', 'this'] : ['this', 'baseline'];
      for (const which of order) {
        const mock = await startMock('mock (runner side by side)', key);
        try {
          const file = join(dir, `${which}-${round}.json`);
          const started = performance.now();
          const code = await run([
            which === 'this' ? cli : baselineCli,
            'contract',
            '--base-url',
            mock.url,
            '--api-key',
            key,
            '--seed',
            String(2000 + round),
            '--json',
            file,
          ]);
          times[which].push(performance.now() - started);
          requests[which].push(JSON.parse(readFileSync(file, 'utf8')).requests);
          if (code !== 0) bad++;
        } finally {
          await mock.stop();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = median(times.this) / median(times.baseline);
  const met = ratio <= RUNNER_RATIO_TARGET && bad === 0;
  console.log(
    `\ncontract runner beside ${directory} (default runs against a fresh mock of this build, ${RUNS} each, in turns)`,
  );
  console.log(
    `  this build   ${(median(times.this) / 1000).toFixed(1)} s wall, ${median(requests.this).toFixed(0)} requests\n` +
      `  baseline     ${(median(times.baseline) / 1000).toFixed(1)} s wall, ${median(requests.baseline).toFixed(0)} requests\n` +
      `  ratio        ${ratio.toFixed(2)}× the baseline's time (<= ${RUNNER_RATIO_TARGET}×) ${met ? 'ok' : 'MISSED'}${bad ? ` (${bad} runs did not exit 0)` : ''}`,
  );
  return met ? 0 : 1;
}

/**
 * The same default run (seed 1000) against a local mock and against one 40 ms away (--delay 40), each with
 * --concurrency 1 and with the default, each against a fresh mock: run time, requests per second and examples side
 * by side. Examples are the budget, so every run must try the same examples; the default against 40 ms must finish
 * in under 30 s with every case run.
 */
async function benchSlowTarget(key) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-slow-'));
  let bad = 0;
  const examples = new Set();
  console.log(
    '\ncontract runner, local and 40 ms away (the mock with --delay 40), --concurrency 1 and the default (seed 1000)',
  );
  try {
    for (const delay of [0, 40]) {
      for (const concurrency of [1, undefined]) {
        const mock = await startMock(`mock --delay ${delay}`, key, delay ? ['--delay', String(delay)] : []);
        try {
          const file = join(dir, `run-${delay}-${concurrency ?? 'default'}.json`);
          const started = performance.now();
          const code = await run([
            cli,
            'contract',
            '--base-url',
            mock.url,
            '--api-key',
            key,
            '--seed',
            '1000',
            ...(concurrency ? ['--concurrency', String(concurrency)] : []),
            '--json',
            file,
          ]);
          const wallMs = performance.now() - started;
          const report = JSON.parse(readFileSync(file, 'utf8'));
          const bound = delay && !concurrency ? 30_000 : Infinity;
          const ok = code === 0 && report.summary.notRun === 0 && wallMs < bound;
          if (!ok) bad++;
          examples.add(report.generated?.runs ?? 0);
          console.log(
            `  ${delay ? '40 ms' : 'local'}, --concurrency ${concurrency ?? 'default (8)'}`.padEnd(36) +
              `${(wallMs / 1000).toFixed(1).padStart(5)} s wall${bound < Infinity ? ' (< 30 s)' : ''}, ${(report.requests / (wallMs / 1000)).toFixed(0)} req/s, ` +
              `${report.requests} requests, ${report.generated?.runs ?? 0} examples, exit ${code}, ${report.summary.notRun} not run  ${ok ? 'ok' : 'MISSED'}`,
          );
        } finally {
          await mock.stop();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Examples, not time, are the budget: far or near, one at a time or eight, the same examples.
  console.log(`  examples the same in every run: ${examples.size === 1 ? 'yes' : `NO (${[...examples].join(', ')})`}`);
  return bad + (examples.size === 1 ? 0 : 1);
}

/** A fresh mock of this build on a free port, quiet, with `key` (and `extra` flags): each run's own target. */
function startMock(name, key, extra = []) {
  return startServer(name, [cli, 'mock', '--port', '0', '--api-key', key, '--quiet', ...extra]);
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

// `BENCH_CONTRACT_BASELINE=DIR node bench/contract.mjs`: the side-by-side rows alone (after npm run build), without
// the rest of npm run bench.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await benchRunnerBaseline('bench-key', process.env.BENCH_CONTRACT_BASELINE);
}
