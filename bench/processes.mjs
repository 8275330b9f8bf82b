// Starting and watching the servers under test as child processes, so that each has its own event loop and its
// own resident memory, and the load generator never shares a thread with them.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer as createNetServer } from 'node:net';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/**
 * Spawns `node <args>` and resolves once it prints "listening on <url>", with the time that took.
 * @returns {Promise<{ url: string, pid: number, startedAt: number, rss(): number, cpu(): number | undefined, stop(): Promise<void> }>}
 */
export function startServer(label, args, { env = {}, timeoutMs = 30_000 } = {}) {
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${label} printed no URL within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.on('exit', (code) => fail(new Error(`${label} exited (${code}) before listening:\n${output}`)));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url: match[1],
        pid: child.pid,
        startedAt,
        rss: () => residentBytes(child.pid),
        cpu: () => cpuSeconds(child.pid),
        stop: () => stop(child),
      });
    });
  });
}

/**
 * Spawns `node <args>` for a server that prints nothing usable (a peer such as Prism with its logging off, which is
 * how it is fastest), on `port`, and resolves once `readyUrl` answers 200.
 */
export async function startQuietServer(label, args, { url, readyUrl, headers, timeoutMs = 60_000 }) {
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}) before answering:\n${output}`))),
  );
  try {
    await Promise.race([firstAnswer(readyUrl, headers, timeoutMs), exited]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  child.removeAllListeners('exit');
  exited.catch(() => undefined);
  return {
    url,
    pid: child.pid,
    startedAt,
    rss: () => residentBytes(child.pid),
    cpu: () => cpuSeconds(child.pid),
    stop: () => stop(child),
  };
}

/** A port that was free a moment ago, for a server that cannot be told to pick one and report it. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resident set size of a process in bytes: /proc on Linux, `ps` elsewhere. */
export function residentBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    if (kb) return Number(kb[1]) * 1024;
  } catch {
    // not Linux
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system) a process has used, in seconds, from /proc on Linux; undefined elsewhere. CPU per
 * request is steadier than requests per second on a shared machine, where the server gets a varying share of CPU.
 */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Polls `url` until it answers 200, and returns when that happened (performance.now()). */
export async function firstAnswer(url, headers, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Whether `command` is installed: run with `args` (its version), only a missing binary says no (wrk -v exits 1). */
export function installed(command, args) {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch (error) {
    return error.code !== 'ENOENT';
  }
}
