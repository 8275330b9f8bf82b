import { describeNeeding } from './describe-needing.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { portRefuses } from './port-refuses.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Redis (`apt-get install -y redis-server`); override with REDIS_SERVER_PATH. */
export const redisServerPath = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

const missing = existsSync(redisServerPath)
  ? undefined
  : `redis-server not found at ${redisServerPath}; install it with "apt-get install -y redis-server" (or set REDIS_SERVER_PATH)`;
/** `describe` for tests that need a Redis server (see describe-needing.ts). */
export function describeRedis(name: string, body: () => void): void {
  describeNeeding('redis-server to run against', missing, name, body);
}

export interface RedisServer {
  port: number;
  url: string;
  /** The server's own directory (its append-only file lives there). */
  dir: string;
  /** Stops the server (SIGTERM by PID, or SIGKILL with `hard`) and waits for it to exit; the port stays this one's. */
  stop(options?: { hard?: boolean }): Promise<void>;
  /** Starts it again on the same port and directory (so with its data when `appendonly` is on). */
  start(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing is answered, as with a hung Redis. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

export interface RedisServerOptions {
  /**
   * Keep data across a stop/start: append-only file with an fsync on every write (`appendfsync always`), so that
   * even a SIGKILL loses no acknowledged write. Default true.
   */
  durable?: boolean;
  /** More redis-server arguments, e.g. `['--requirepass', 'secret']`. */
  args?: string[];
}

/**
 * Starts a private redis-server on a free loopback port with its own temporary directory, no RDB snapshots, and
 * (by default) an fsync'd append-only file. Stopped by PID, never by name.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  const port = await freePort();
  const durable = options.durable ?? true;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    durable ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--loglevel',
    'warning',
    '--logfile',
    '',
    ...(options.args ?? []),
  ];
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const process_ = spawn(redisServerPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    process_.stderr.on('data', (chunk) => (stderr += chunk));
    child = process_;
    const exited = new Promise<never>((_, reject) =>
      process_.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${stderr}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPort(port), exited]);
  }

  async function stop({ hard = false } = {}): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(hard ? 'SIGKILL' : 'SIGTERM');
    await gone;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    stop,
    start,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async close() {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A free port below the kernel's ephemeral range. A port from that range (what port 0 gives) can be handed out again
 * as the local port of an outgoing connection while the server is stopped mid-test, and a client reconnecting to
 * it may even connect to itself; a port outside the range is only ever taken by a listener.
 */
async function freePort(): Promise<number> {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: keep the common default
  }
  const floor = Math.max(1024, low - 12_000);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = floor + Math.floor(Math.random() * (low - floor));
    if (await canListen(port)) return port;
  }
  throw new Error('no free port below the ephemeral range');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Resolves once something accepts connections on the port (Redis listens only once it has loaded its data). */
async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (!(await portRefuses(port))) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server did not listen on port ${port}`);
}
