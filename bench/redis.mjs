// The team mock's part of `npm run bench`: one replica on memory vs one on Redis vs two on Redis (sharing one
// store), interleaved round by round in one run, as req/s and ratios. Needs Debian's redis-server (or
// REDIS_SERVER_PATH); without it the section says so and is skipped. Loopback only, bounded in time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, firstAnswer, median, startServer } from './processes.mjs';
import { load } from './load.mjs';

const redisServer = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/**
 * @param {{ key: string, rounds: number, seconds: number, connections: number }} options
 * @returns {Promise<number>} requests not answered as expected
 */
export async function benchTeamMock({ key, rounds, seconds, connections }) {
  console.log('\nteam mock: one replica on memory vs one on Redis vs two on Redis (one shared store)');
  if (!existsSync(redisServer)) {
    console.log(`  skipped: no redis-server at ${redisServer} (apt-get install -y redis-server)`);
    return 0;
  }
  const auth = { authorization: `Bearer ${key}` };
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-redis-'));
  const running = [];
  let redis;
  try {
    // Durable as README recommends (append-only file, fsync every second): what a team would run.
    redis = await startRedis(dir);
    const store = `redis://127.0.0.1:${redis.port}`;
    const base = [cli, 'mock', '--port', '0', '--api-key', key, '--quiet', '--no-config', '--max-pets', '5000000'];
    const start = async (label, args) => {
      const server = await startServer(label, args);
      running.push(server);
      await firstAnswer(`${server.url}/pets?limit=20`, auth);
      return server;
    };
    const memory = await start('memory replica', base);
    const redisA = await start('redis replica A', [...base, '--store', store, '--store-prefix', 'bench']);
    const redisB = await start('redis replica B', [...base, '--store', store, '--store-prefix', 'bench']);
    const newPet = JSON.stringify({ name: 'Biscuit', categoryId: 6, status: 'available' });
    const ops = [
      { group: 'list', path: '/pets?limit=20' },
      { group: 'lookup', path: '/pets/7' },
      { group: 'create', path: '/pets', method: 'POST', body: newPet },
    ];
    const targets = { memory: [memory], redis1: [redisA], redis2: [redisA, redisB] };
    const burst = async (op, servers, length) => {
      // Two replicas share the connections (as a load balancer would); their answers are added up.
      const results = await Promise.all(
        servers.map((server) =>
          load({
            url: server.url + op.path,
            method: op.method,
            headers: op.body ? { ...auth, 'content-type': 'application/json' } : auth,
            body: op.body,
            seconds: length,
            connections: Math.max(1, Math.round(connections / servers.length)),
          }),
        ),
      );
      return {
        rps: results.reduce((sum, r) => sum + r.rps, 0),
        bad: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
      };
    };
    const cells = ops.flatMap((op) => Object.keys(targets).map((target) => ({ op, target })));
    for (const cell of cells) await burst(cell.op, targets[cell.target], 1);
    const runs = new Map(cells.map((cell) => [cell, []]));
    let bad = 0;
    for (let round = 0; round < rounds; round++) {
      const order = cells.map((_, i) => cells[(i + round) % cells.length]);
      for (const cell of order) {
        const result = await burst(cell.op, targets[cell.target], seconds);
        runs.get(cell).push(result.rps);
        bad += result.bad;
      }
      process.stdout.write(`team round ${round + 1}/${rounds} done\n`);
    }
    const rps = {};
    for (const [cell, values] of runs) rps[`${cell.op.group}:${cell.target}`] = median(values);
    console.log(
      '  req/s (median of rounds)     memory   redis×1   redis×2   redis×1/memory   redis×2/memory   redis×2/redis×1',
    );
    for (const op of ops) {
      const [m, r1, r2] = ['memory', 'redis1', 'redis2'].map((target) => rps[`${op.group}:${target}`]);
      console.log(
        `  ${`${op.method ?? 'GET'} ${op.path}`.padEnd(26)} ${m.toFixed(0).padStart(8)} ${r1.toFixed(0).padStart(9)} ${r2.toFixed(0).padStart(9)}` +
          `   ${(r1 / m).toFixed(2).padStart(13)}x   ${(r2 / m).toFixed(2).padStart(13)}x   ${(r2 / r1).toFixed(2).padStart(14)}x`,
      );
    }
    if (bad) console.log(`  ${bad} team-mock requests were not answered as expected`);
    return bad;
  } finally {
    await Promise.all(running.map((server) => server.stop()));
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startRedis(dir) {
  const port = await freePort();
  const child = spawn(
    redisServer,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--logfile',
      '',
    ],
    { stdio: 'ignore' },
  );
  for (let attempt = 0; ; attempt++) {
    if (await canConnect(port)) break;
    if (attempt > 400 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
