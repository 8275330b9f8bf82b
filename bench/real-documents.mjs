// Start time and memory on public OpenAPI documents (issue 52 item 6): the mock's CLI on each document, beside
// Prism 5.12's CLI when PRISM_BIN points at its `prism` (a scratch install, never a dependency). "Ready" is from
// spawn to the first HTTP answer of any status on a free loopback port; RSS is read then, and the peak (VmHWM) too,
// and the CPU time the process had used (user + system): on a shared machine wall time grows with the load around
// it, CPU time much less, so the two side by side say what an idle machine would see.
// A document the tool refuses is reported with the last line it printed. npm run bench runs the rows of the two
// large documents (benchLargeDocuments); `node bench/real-documents.mjs --all` measures every document of the
// corpus (test/fixtures/real-documents/corpus.json), `--no-prism` leaves Prism out.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, cpuSeconds, freePort, mb, root } from './processes.mjs';

const KEY = 'bench-key';
/** Issue 52 item 6: a 4 MB document ready in at most 5 s and 400 MB on a 2-core machine. */
const READY_TARGET_MS = 5_000;
const RSS_TARGET = 400 * 1024 * 1024;
/** The large documents of the bench rows: Asana (3.1 MB) and Stripe (3.9 MB). */
const LARGE = ['Asana.openapi/defs/asana_oas.yaml', 'stripe.openapi/openapi/spec3.json'];
const MOCK_TIMEOUT_MS = Number(process.env.BENCH_MOCK_START_TIMEOUT ?? 60_000);
const PRISM_TIMEOUT_MS = Number(process.env.BENCH_PRISM_START_TIMEOUT ?? 120_000);

/** The corpus folder, found as test/support/real-documents/corpus.ts finds it; undefined when absent. */
export function corpusFolder() {
  const first = manifest()[0];
  const candidates = [
    process.env.PETSTORE_REAL_DOCUMENTS,
    join(root, 'test/fixtures/real-documents'),
    join(root, '..', 'shared', 'real-documents'),
  ];
  return candidates.find((folder) => folder && first && existsSync(join(folder, first.file)));
}

function manifest() {
  return JSON.parse(readFileSync(join(root, 'test/fixtures/real-documents/corpus.json'), 'utf8')).documents;
}

/**
 * Spawns `command args` and times it to its first HTTP answer on `port`; resolves with `{ readyMs, rss, peak }`,
 * or `{ refusal }` when it exits first, or `{ timedOut }`. The process is stopped either way.
 */
export async function timeStart(command, args, port, timeoutMs) {
  const startedAt = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    for (;;) {
      if (exited) return { refusal: lastLine(output) };
      if (performance.now() - startedAt > timeoutMs) return { timedOut: timeoutMs };
      if (await answers(port)) {
        const readyMs = performance.now() - startedAt;
        return { readyMs, cpu: cpuSeconds(child.pid), ...memoryOf(child.pid) };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
  }
}

async function answers(port) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { authorization: `Bearer ${KEY}` } });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/**
 * The line that says why a process stopped, colours out: its first fatal or error line (Prism prints its help
 * and a stack after it), else the last line that is not a stack frame (the mock prints one line).
 */
function lastLine(text) {
  const lines = text
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at '));
  return lines.find((line) => /✖|\bfatal\b|Error:/.test(line)) ?? lines.pop() ?? '(nothing printed)';
}

/** The mock's CLI on `file`. */
export async function startMock(file) {
  const port = await freePort();
  const args = [cli, 'mock', '--port', String(port), '--quiet', '--no-config', '--api-key', KEY, '--spec', file];
  return timeStart(process.execPath, args, port, MOCK_TIMEOUT_MS);
}

/** Prism's CLI on `file`, at its default log level (its refusals are printed there); undefined without PRISM_BIN. */
export async function startPrism(file) {
  const bin = process.env.PRISM_BIN;
  if (!bin || !existsSync(bin)) return undefined;
  const port = await freePort();
  return timeStart(bin, ['mock', file, '-h', '127.0.0.1', '-p', String(port)], port, PRISM_TIMEOUT_MS);
}

/** `1.2 s (CPU 1.1 s), 85.3 MB (peak 90.1 MB)`, or what happened instead. */
export function describeStart(result) {
  if (!result) return 'not measured';
  if (result.refusal !== undefined) return `refused: ${result.refusal}`;
  if (result.timedOut !== undefined) return `not ready after ${(result.timedOut / 1000).toFixed(0)} s`;
  const cpu = result.cpu === undefined ? '' : ` (CPU ${result.cpu.toFixed(1)} s)`;
  return `${(result.readyMs / 1000).toFixed(1)} s${cpu}, ${mb(result.rss)} (peak ${mb(result.peak)})`;
}

/** The bench rows: the mock and Prism on the two large documents; returns how many targets the mock missed. */
export async function benchLargeDocuments() {
  console.log(
    '\nstart-up on large public documents (spawn → first answer, and the CPU time used by then; RSS then, and peak)',
  );
  const folder = corpusFolder();
  if (!folder) {
    console.log(
      '  not measured: the real documents are not on this machine (set PETSTORE_REAL_DOCUMENTS; test/fixtures/real-documents/README.md)',
    );
    return 0;
  }
  if (!process.env.PRISM_BIN || !existsSync(process.env.PRISM_BIN))
    console.log('  Prism: not measured (PRISM_BIN is not set or does not exist)');
  let missed = 0;
  for (const file of LARGE) {
    const entry = manifest().find((document) => document.file === file);
    const path = join(folder, file);
    const mock = await startMock(path);
    const met = mock.readyMs !== undefined && mock.readyMs <= READY_TARGET_MS && mock.peak <= RSS_TARGET;
    if (!met) missed++;
    const size = `${(entry.bytes / 1e6).toFixed(1)} MB`;
    console.log(`  ${file} (${size})`);
    console.log(`    mock   ${describeStart(mock)}  (≤ 5 s, ≤ 400 MB) ${met ? 'ok' : 'MISSED'}`);
    const prism = await startPrism(path);
    if (prism) console.log(`    Prism  ${describeStart(prism)}`);
  }
  return missed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = corpusFolder();
  if (!folder) {
    console.error('the real documents are not on this machine: set PETSTORE_REAL_DOCUMENTS');
    process.exit(2);
  }
  const all = process.argv.includes('--all');
  const prism = !process.argv.includes('--no-prism');
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  for (const entry of manifest()) {
    if (!all && !LARGE.includes(entry.file)) continue;
    if (only && !entry.file.includes(only)) continue;
    const path = join(folder, entry.file);
    const mock = await startMock(path);
    const other = prism ? await startPrism(path) : undefined;
    console.log(`${entry.file}\t${entry.bytes}\tmock: ${describeStart(mock)}\tPrism: ${describeStart(other)}`);
  }
}
