// Instructions per request on the mock's main thread, counted by valgrind's callgrind: this build beside the
// baseline (BENCH_BASELINE), list, lookup and create on the v1 document. Requests per second on a shared 2-core
// machine move by half between rounds (the noise line of bench.mjs), more than the 5 % the baseline rows judge;
// the instructions a request costs do not. Only the main thread is counted: it runs the JavaScript, the HTTP
// parser and the answer's writes; V8's compiler and collector helpers run on other threads, on their own schedule.
// Without valgrind on PATH (apt-get install valgrind) the rows say so and nothing is judged.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, firstAnswer, freePort, installed } from './processes.mjs';

// Enough requests for V8 to have optimised the request path before counting starts (under valgrind a request
// takes about 2 ms), then enough counted ones that one request's share of a collection is averaged out.
const WARM_UP = Number(process.env.BENCH_INSTRUCTIONS_WARM_UP ?? 30_000);
const COUNTED = Number(process.env.BENCH_INSTRUCTIONS_COUNTED ?? 5_000);
const SOCKETS = 8;
// The timing rows' 5 % (>= 0.95x), as work: two runs of one build differ by about 1 %.
const LIMIT = 1.05;

/**
 * Prints instructions per request for each operation and build, and this build / the baseline; returns the count
 * of ratios over LIMIT.
 */
export async function benchInstructions(baseline, { key, newPet }) {
  console.log("\ninstructions per request (callgrind, the mock process's main thread, after warm-up)");
  if (!installed('valgrind', ['--version'])) {
    console.log('  not measured: valgrind is not installed (apt-get install valgrind)');
    return 0;
  }
  const builds = { this: cli, ...(baseline ? { baseline: baseline.cli } : {}) };
  const cases = [
    { group: 'list', path: '/pets?limit=20' },
    { group: 'lookup', path: '/pets/7' },
    { group: 'create', path: '/pets', method: 'POST', body: newPet },
  ];
  let missed = 0;
  for (const one of cases) {
    // The builds side by side, one per core.
    const counts = await Promise.all(Object.values(builds).map((build) => countInstructions(build, one, key)));
    const [mine, theirs] = counts;
    const row = `  ${one.group.padEnd(7)} this build ${mine.toFixed(0).padStart(7)}`;
    if (theirs === undefined) {
      console.log(row);
      continue;
    }
    const ratio = mine / theirs;
    const ok = ratio <= LIMIT;
    if (!ok) missed++;
    console.log(
      `${row}   baseline ${theirs.toFixed(0).padStart(7)}   ${ratio.toFixed(3)}x  <= ${LIMIT}x  ${ok ? 'ok' : 'MISSED'}`,
    );
  }
  return missed;
}

/** One build's mock under callgrind: warm up, count `COUNTED` requests, and return the main thread's share of each. */
async function countInstructions(build, { path, method = 'GET', body }, key) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-callgrind-'));
  const port = await freePort();
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--separate-threads=yes',
      '--instr-atstart=no',
      // V8 writes the machine code it runs: valgrind must notice code that changes.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      process.execPath,
      build,
      'mock',
      '--port',
      String(port),
      '--api-key',
      key,
      '--quiet',
      '--no-config',
      '--max-pets',
      '5000000',
    ],
    { stdio: 'ignore' },
  );
  try {
    const url = `http://127.0.0.1:${port}/v1${path}`;
    const headers = { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) };
    await firstAnswer(`http://127.0.0.1:${port}/v1/pets?limit=1`, { authorization: `Bearer ${key}` }, 300_000);
    await send(url, method, headers, body, WARM_UP);
    control(['-i', 'on', String(child.pid)]);
    await send(url, method, headers, body, COUNTED);
    control(['-d', String(child.pid)]);
    control(['-i', 'off', String(child.pid)]);
    return mainThreadInstructions(dir) / COUNTED;
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
}

function control(args) {
  execFileSync('callgrind_control', args, { stdio: 'ignore' });
}

/** The dump's main thread (thread 1): its `totals:` line. */
function mainThreadInstructions(dir) {
  const file = readdirSync(dir).find((name) => /\.1-01$/.test(name));
  if (!file) throw new Error(`callgrind wrote no main-thread dump in ${dir}: ${readdirSync(dir).join(', ')}`);
  const totals = /^totals: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
  if (!totals) throw new Error(`no totals line in ${file}`);
  return Number(totals[1]);
}

/** `count` requests over `SOCKETS` keep-alive connections; any answer not 2xx stops the run. */
async function send(url, method, headers, body, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });
  let sent = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request(url, { method, agent, headers }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode >= 200 && res.statusCode < 300
            ? resolve()
            : reject(new Error(`${method} ${url} answered ${res.statusCode}`)),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  try {
    await Promise.all(
      Array.from({ length: SOCKETS }, async () => {
        while (sent < count) {
          sent++;
          await one();
        }
      }),
    );
  } finally {
    agent.destroy();
  }
}
