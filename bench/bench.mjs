// npm run bench: the mock side by side with a bare node:http server, a minimal Express 5 app answering the same
// bytes and headers, and Prism 5.12 when PRISM_BIN points at its `prism` (a scratch install, never a dependency of
// this project), interleaved in one run (round after round, each target in turn), on loopback only and bounded in
// time. Prints medians, ratios and the issue's targets. Knobs: BENCH_ROUNDS (5), BENCH_SECONDS per burst (2),
// BENCH_CONNECTIONS (50), PRISM_BIN, BENCH_BASELINE (another checkout, built: its mock measured beside this one),
// PETSTORE_REAL_DOCUMENTS (the corpus of public documents, for the start-up rows on two large ones).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cli, firstAnswer, freePort, mb, median, root, startQuietServer, startServer } from './processes.mjs';
import { load, tool } from './load.mjs';
import { benchTeamMock } from './redis.mjs';
import { benchContractRunner } from './contract.mjs';
import { benchInProcess } from './in-process.mjs';
import { recordOutput } from './record.mjs';
import { benchPetMemory } from './pet-memory.mjs';
import { benchInstructions } from './instructions.mjs';
import { benchLargeDocuments } from './real-documents.mjs';

const KEY = 'bench-key';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const STARTS = 5;
const BIG = 100_000;
const auth = { authorization: `Bearer ${KEY}` };
const newPet = JSON.stringify({ name: 'Biscuit', categoryId: 6, status: 'available' });
// A later version of the document, with PUT, PATCH and DELETE on pets (docs/mock.md "Your document, your resources").
const V11 = join(root, 'test/fixtures/documents/petstore-v1.1.yaml');
// Each DELETE removes a stored pet: the store is reset to this many before each burst, more than a burst deletes.
const DELETABLE = 200_000;
const baseline = baselineBuild(process.env.BENCH_BASELINE);

const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const running = [];
const record = recordOutput('bench', 'npm run bench');
try {
  await main();
  record.save();
} finally {
  await Promise.all(running.map((server) => server.stop()));
  rmSync(dir, { recursive: true, force: true });
}

async function main() {
  const bigFixtures = join(dir, 'pets-100k.json');
  writeFileSync(bigFixtures, JSON.stringify(manyPets(BIG)));
  const deletableFixtures = join(dir, 'pets-deletable.json');
  writeFileSync(deletableFixtures, JSON.stringify(manyPets(DELETABLE)));
  console.log(
    `petstore-kit bench: ${ROUNDS} rounds × ${SECONDS} s bursts, ${tool} with ${CONNECTIONS} connections, loopback, Node ${process.version}\n`,
  );
  if (baseline) console.log(`baseline: the mock of ${baseline.label}, measured beside this one\n`);

  // Start-up, interleaved with the baselines' as a reference for what this machine needs to start Node at all.
  const starts = { mock: [], express: [], bare: [] };
  for (let i = 0; i < STARTS; i++) {
    starts.mock.push(await timeToFirstAnswer([cli, 'mock', '--port', '0', '--api-key', KEY]));
    starts.express.push(await timeToFirstAnswer(['bench/servers/minimal-express.mjs']));
    starts.bare.push(await timeToFirstAnswer(['bench/servers/bare-http.mjs']));
  }
  const ready = starts.mock;
  console.log(`ready (spawn → first answered request): mock ${ready.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  // The creates of the benchmark must not fill the store: a fast machine makes a few hundred thousand.
  // --quiet, as README advises for load tests: the baselines log nothing either. The request log's own cost is
  // measured apart, on a second mock that logs every request to a pipe this process drains.
  const logArgs = [cli, 'mock', '--port', '0', '--api-key', KEY, '--max-pets', '5000000'];
  const mockArgs = [...logArgs, '--quiet'];
  // Creates run against their own instances (of the mock and of the Express baseline alike): a server that has
  // absorbed a hundred thousand creates has a larger heap to collect, which would tax the reads measured on it
  // later in the run, in an order that changes every round. (The 100k-pet mock measures reads on a large store.)
  const servers = {
    bare: await start('bare node:http', ['bench/servers/bare-http.mjs']),
    express: await start('minimal Express', ['bench/servers/minimal-express.mjs']),
    expressCreate: await start('minimal Express (creates)', ['bench/servers/minimal-express.mjs']),
    shaped: await start('minimal Express, shaped as the mock', ['bench/servers/shaped-express.mjs']),
    shapedCreate: await start('minimal Express, shaped as the mock (creates)', ['bench/servers/shaped-express.mjs']),
    mock: await start('mock (fixtures)', mockArgs),
    mockCreate: await start('mock (creates)', mockArgs),
    // --state acknowledges a create only once it is on disk (a journal line, fdatasynced per group of creates).
    mockStateCreate: await start('mock --state (creates)', [...mockArgs, '--state', join(dir, 'state.json')]),
    mock100k: await start('mock (100k pets)', [...mockArgs, '--fixtures', bigFixtures]),
    mocklog: await start('mock (request log on)', logArgs),
    // The v1.1 document's writes: PUT and PATCH on one pet, DELETE through a store reset before each burst.
    v11: await start('mock on v1.1 (PUT, PATCH)', [...mockArgs, '--spec', V11]),
    v11delete: await start('mock on v1.1 (DELETE)', [...mockArgs, '--spec', V11, '--fixtures', deletableFixtures]),
  };
  if (baseline) {
    const baselineArgs = [baseline.cli, ...mockArgs.slice(1)];
    servers.baseline = await start('baseline mock (fixtures)', baselineArgs);
    servers.baselineCreate = await start('baseline mock (creates)', baselineArgs);
  }
  // The validating proxy in front of a fixtures mock of its own: its overhead is proxy→mock against the mock alone.
  // Its own, so that the proxy's traffic does not reach the mock measured alone and beside the baseline (a larger
  // request journal and heap there than the baseline's, in every round after the proxy's bursts).
  servers.proxyUpstream = await start('mock behind the proxy', mockArgs);
  servers.proxy = await start('proxy → mock', [
    cli,
    'proxy',
    '--upstream',
    servers.proxyUpstream.url,
    '--port',
    '0',
    '--api-key',
    KEY,
    '--quiet',
    '--no-config',
  ]);
  const prism = await startPrism();
  if (prism) servers.prism = prism;
  await sameAnswers(servers.mock.url, servers.express.url, 'the minimal Express app');
  await sameAnswers(servers.mock.url, servers.shaped.url, 'the shaped Express app');
  console.log();
  const idle = {};
  for (const [name, server] of Object.entries(servers)) {
    await firstAnswer(`${server.url}/pets?limit=20`, auth);
    idle[name] = server.rss();
  }

  const cells = [
    ...['bare', 'express', 'shaped', 'mock', ...(baseline ? ['baseline'] : [])].flatMap((target) => [
      { group: 'list', target, server: target, path: '/pets?limit=20' },
      { group: 'lookup', target, server: target, path: '/pets/7' },
      {
        group: 'create',
        target,
        server: target === 'bare' ? target : `${target}Create`,
        path: '/pets',
        method: 'POST',
        body: newPet,
      },
    ]),
    { group: 'create', target: 'mockstate', server: 'mockStateCreate', path: '/pets', method: 'POST', body: newPet },
    { group: 'list', target: 'mock100k', server: 'mock100k', path: '/pets?limit=20' },
    { group: 'lookup', target: 'mock100k', server: 'mock100k', path: `/pets/${BIG - 7}` },
    { group: 'list', target: 'mocklog', server: 'mocklog', path: '/pets?limit=20' },
    { group: 'list', target: 'proxy', server: 'proxy', path: '/pets?limit=20' },
    { group: 'lookup', target: 'proxy', server: 'proxy', path: '/pets/7' },
    { group: 'replace', target: 'v1.1', server: 'v11', path: '/pets/7', method: 'PUT', body: newPet, expected: 200 },
    {
      group: 'merge',
      target: 'v1.1',
      server: 'v11',
      path: '/pets/7',
      method: 'PATCH',
      body: '{"status":"sold","name":"Patched"}',
      contentType: 'application/merge-patch+json',
      expected: 200,
    },
    {
      group: 'delete',
      target: 'v1.1',
      server: 'v11delete',
      path: '/pets/1',
      method: 'DELETE',
      pathPrefix: '/pets/',
      expected: 204,
    },
    // Prism serves the document's paths without the server's base path; it answers the list's example.
    ...(prism ? [{ group: 'list', target: 'prism', server: 'prism', path: '/pets?limit=20' }] : []),
  ];
  const burst = async (cell, seconds) => {
    const server = servers[cell.server];
    // Each burst of DELETEs starts from the whole seed again, from id 1 (the reset is not counted).
    if (cell.pathPrefix) await reset(server.url);
    const cpuBefore = server.cpu();
    const result = await load({
      url: server.url + cell.path,
      method: cell.method,
      headers: cell.body ? { ...auth, 'content-type': cell.contentType ?? 'application/json' } : auth,
      body: cell.body,
      seconds,
      connections: CONNECTIONS,
      pathPrefix: cell.pathPrefix && new URL(server.url).pathname + cell.pathPrefix,
    });
    const cpuAfter = server.cpu();
    // Server CPU per answered request, in microseconds: what the server can do with a whole core to itself.
    result.cpuUs = cpuBefore === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / result.requests;
    return result;
  };

  // Warm every target's JIT before anything is counted.
  for (const cell of cells) await burst(cell, 1);
  const results = new Map(cells.map((cell) => [cell, []]));
  const units = pairedUnits(cells);
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order every round, so no target always runs first (or right after the noisiest one); within a pair,
    // the two builds take turns going first.
    const order = units.map((_, i) => units[(i + round * 3) % units.length]);
    for (const unit of order)
      for (const cell of round % 2 ? [...unit].reverse() : unit) results.get(cell).push(await burst(cell, SECONDS));
    process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  const afterLoad = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.rss()]));

  console.log(
    '\nrequests per second (median of rounds; min–max; p99 latency of the median round; server CPU µs per request, median)',
  );
  const rps = {};
  const cpu = {};
  let bad = 0;
  for (const [cell, runs] of results) {
    const values = runs.map((run) => run.rps);
    const key = `${cell.group}:${cell.target}`;
    rps[key] = median(values);
    const cpuValues = runs.map((run) => run.cpuUs).filter((us) => us !== undefined);
    cpu[key] = cpuValues.length ? median(cpuValues) : undefined;
    const expected = cell.expected ?? (cell.method === 'POST' ? 201 : 200);
    const failures = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0);
    bad += failures;
    const p99 = runs.find((run) => run.rps === rps[key])?.p99 ?? runs[0].p99;
    console.log(
      `  ${(cell.method ?? 'GET').padEnd(6)} ${(cell.pathPrefix ? `${cell.pathPrefix}{n}` : cell.path).padEnd(18)} ${cell.target.padEnd(9)} ${rps[key].toFixed(0).padStart(7)}` +
        `  (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})  p99 ${p99} ms` +
        (cpu[key] === undefined ? '' : `  ${cpu[key].toFixed(0)} µs CPU/req`) +
        (failures ? `  ${failures} answers not ${expected} or failed` : ''),
    );
  }

  const keyOf = (cell) => `${cell.group}:${cell.target}`;
  const runsOf = new Map([...results].map(([cell, runs]) => [keyOf(cell), runs]));
  const paired = new Set(units.filter((unit) => unit.length === 2).map(([a, b]) => `${keyOf(a)}/${keyOf(b)}`));
  // A pair's ratio is read round by round, each round's two bursts taken back to back, then the median of those:
  // the machine's drift between rounds (the noise line: 1.5x on a shared machine) falls on both builds alike.
  const pairRatio = (a, b, read) =>
    median(
      runsOf
        .get(a)
        .map((run, round) => read(run, runsOf.get(b)[round]))
        .filter(Number.isFinite),
    );
  const ratio = (a, b) => (paired.has(`${a}/${b}`) ? pairRatio(a, b, (x, y) => x.rps / y.rps) : rps[a] / rps[b]);
  // The same ratio from CPU cost: throughput each server would reach with a core to itself.
  const capacity = (a, b) => {
    if (cpu[a] === undefined) return undefined;
    return paired.has(`${a}/${b}`) ? pairRatio(a, b, (x, y) => y.cpuUs / x.cpuUs) : cpu[b] / cpu[a];
  };
  const targets = [
    ['list: mock / minimal Express', 'list:mock', 'list:express', 0.9],
    ['lookup: mock / minimal Express', 'lookup:mock', 'lookup:express', 0.9],
    ['create: mock / minimal Express', 'create:mock', 'create:express', 0.9],
    ...(prism ? [['list: mock / Prism 5.12', 'list:mock', 'list:prism', 2]] : []),
    // The mock's own cost: against the same Express app given the mock's listener (shapeForExpress).
    ['list: mock / Express, shaped', 'list:mock', 'list:shaped'],
    ['lookup: mock / Express, shaped', 'lookup:mock', 'lookup:shaped'],
    ['create: mock / Express, shaped', 'create:mock', 'create:shaped'],
    ['list: mock / bare node:http', 'list:mock', 'list:bare'],
    ['lookup: mock / bare node:http', 'lookup:mock', 'lookup:bare'],
    ['create: mock / bare node:http', 'create:mock', 'create:bare'],
    ['create: --state / memory', 'create:mockstate', 'create:mock'],
    ['list: 100k pets / fixtures', 'list:mock100k', 'list:mock', 0.9],
    ['lookup: 100k pets / fixtures', 'lookup:mock100k', 'lookup:mock', 0.9],
    ['list: request log on / --quiet', 'list:mocklog', 'list:mock'],
    ['list: proxy→mock / mock alone', 'list:proxy', 'list:mock', 0.5],
    ['lookup: proxy→mock / mock alone', 'lookup:proxy', 'lookup:mock', 0.5],
    // The writes a later document adds, against the create every document has (v1's, on the mock above).
    ['replace (PUT, v1.1) / create', 'replace:v1.1', 'create:mock'],
    ['merge (PATCH, v1.1) / create', 'merge:v1.1', 'create:mock'],
    ['delete (v1.1) / create', 'delete:v1.1', 'create:mock'],
    // This build against another (BENCH_BASELINE), side by side on the same machine, paired: within 5 %.
    ...(baseline
      ? [
          ['list: mock / baseline build', 'list:mock', 'list:baseline', 0.95],
          ['lookup: mock / baseline build', 'lookup:mock', 'lookup:baseline', 0.95],
          ['create: mock / baseline build', 'create:mock', 'create:baseline', 0.95],
        ]
      : []),
  ];
  console.log(
    `\nratios          (req/s medians; in brackets the same from CPU per request${baseline ? "; against the baseline build, the median of the rounds' ratios, each round's two bursts back to back" : ''})`,
  );
  let missed = 0;
  for (const [label, a, b, target] of targets) {
    const value = ratio(a, b);
    const fromCpu = capacity(a, b);
    const goal = target === undefined ? '' : `>= ${target}x`;
    const verdict = target === undefined ? '' : judge(value, fromCpu, target);
    if (verdict !== '' && verdict !== 'ok') missed++;
    console.log(
      `  ${label.padEnd(32)} ${value.toFixed(2)}x  ${fromCpu === undefined ? '' : `[${fromCpu.toFixed(2)}x]`}  ${goal.padEnd(9)} ${verdict}`,
    );
  }
  // How much the machine itself moved during the run: the same server, the same work, round after round.
  const spread = ['list', 'lookup', 'create'].map((group) => {
    const values = [...results]
      .find(([cell]) => cell.group === group && cell.target === 'express')[1]
      .map((run) => run.rps);
    return `${group} ${(Math.max(...values) / Math.min(...values)).toFixed(2)}x`;
  });
  console.log(`  noise: the minimal Express app's req/s, fastest round / slowest: ${spread.join(', ')}`);
  const readyMs = median(ready);
  const readyOk = readyMs < 500;
  // The mock that took the creates holds their pets: the target holds for both mocks.
  const rssOk = Math.max(afterLoad.mock, afterLoad.mockCreate) < 100 * 1024 * 1024;
  if (!readyOk) missed++;
  if (!rssOk) missed++;
  console.log('\nstart-up and memory');
  console.log(
    `  ready: ${readyMs.toFixed(0)} ms  (< 500 ms) ${readyOk ? 'ok' : 'MISSED'}  (same machine: minimal Express ${median(starts.express).toFixed(0)} ms, bare node:http ${median(starts.bare).toFixed(0)} ms)`,
  );
  for (const name of Object.keys(servers)) {
    const verdict = name === 'mockCreate' ? `  (both mocks < 100 MB after load) ${rssOk ? 'ok' : 'MISSED'}` : '';
    console.log(
      `  RSS ${name.padEnd(13)} idle ${mb(idle[name]).padStart(9)}, after load ${mb(afterLoad[name]).padStart(9)}${verdict}`,
    );
  }
  missed += await benchPetMemory(baseline);
  missed += await benchInstructions(baseline, { key: KEY, newPet });
  // Issue 52 item 6: start time and memory on two large public documents, beside Prism's (real-documents.mjs).
  missed += await benchLargeDocuments();
  bad += await benchTeamMock({ key: KEY, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS });
  bad += await benchInProcess({ key: KEY, rounds: ROUNDS, seconds: SECONDS, httpRps: rps });
  bad += await benchContractRunner({ key: KEY, mockListRps: rps['list:mock'] });
  if (bad) console.log(`\n${bad} requests were not answered as expected`);
  console.log(`\n${missed ? `${missed} target(s) missed` : 'all targets met'}`);
  process.exitCode = missed || bad ? 1 : 0;

  /**
   * A target is met only when both readings reach it: requests per second and CPU per request measure the same
   * thing two ways, and on a shared machine they can disagree. Then one run shows nothing either way: UNCLEAR,
   * counted as missed, never as met.
   */
  function judge(value, fromCpu, target) {
    const byRps = value >= target;
    const byCpu = fromCpu === undefined ? byRps : fromCpu >= target;
    if (byRps && byCpu) return 'ok';
    if (!byRps && !byCpu) return 'MISSED';
    return `UNCLEAR (${byRps ? 'CPU' : 'req/s'} says missed)`;
  }

  /** Prism 5.12 from PRISM_BIN, logging off (its fastest); undefined, said aloud, when it is not installed. */
  async function startPrism() {
    const bin = process.env.PRISM_BIN;
    if (!bin || !existsSync(bin)) {
      console.log(
        `Prism: not measured (${bin ? `PRISM_BIN=${bin} does not exist` : 'PRISM_BIN is not set'}); install @stoplight/prism-cli@5.12.0 in a scratch directory and set PRISM_BIN to its node_modules/.bin/prism\n`,
      );
      return undefined;
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startQuietServer(
      'Prism',
      [bin, 'mock', join(root, 'openapi.yaml'), '-h', '127.0.0.1', '-p', String(port), '-v', 'silent'],
      {
        url,
        readyUrl: `${url}/pets?limit=20`,
        headers: auth,
      },
    );
    running.push(server);
    return server;
  }

  /** The admin API's reset: the store back to its fixtures. */
  async function reset(url) {
    const response = await fetch(`${new URL(url).origin}/__admin/reset`, { method: 'POST', headers: auth });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`POST /__admin/reset answered ${response.status}`);
  }

  async function start(label, args) {
    const server = await startServer(label, args, { env: { BENCH_KEY: KEY } });
    running.push(server);
    return server;
  }
}

/**
 * The comparison is fair only if both answer the same: same status, same body bytes, same headers (but Date and
 * the connection's own), for each measured request. A created pet's id may differ; the rest of it may not.
 */
async function sameAnswers(mockUrl, expressUrl, label) {
  const requests = [
    ['GET', '/pets?limit=20'],
    ['GET', '/pets/7'],
    ['POST', '/pets', newPet],
  ];
  const normalise = async (response) => {
    const headers = [...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name));
    const text = (await response.text()).replace(/"id":\d+/, '"id":N');
    return JSON.stringify({
      status: response.status,
      headers: headers.map(([n, v]) => [n, n === 'location' ? v.replace(/\d+$/, 'N') : v]),
      text,
    });
  };
  for (const [method, path, body] of requests) {
    const init = { method, headers: body ? { ...auth, 'content-type': 'application/json' } : auth, body };
    const [mine, theirs] = await Promise.all([
      fetch(mockUrl + path, init).then(normalise),
      fetch(expressUrl + path, init).then(normalise),
    ]);
    if (mine !== theirs)
      throw new Error(
        `${label} does not answer ${method} ${path} as the mock does:\n  mock:    ${mine}\n  express: ${theirs}`,
      );
  }
  console.log(`${label} answers list, lookup and create with the same status, headers and bytes as the mock`);
}

/** Spawns a server (the real CLI for the mock) on an ephemeral port and times it from spawn to its first answer. */
async function timeToFirstAnswer(args) {
  const server = await startServer(args[0], args, { env: { BENCH_KEY: KEY } });
  try {
    const answeredAt = await firstAnswer(`${server.url}/pets?limit=1`, auth);
    return answeredAt - server.startedAt;
  } finally {
    await server.stop();
  }
}

/** Another checkout of petstore-kit, built (`npm run build` there), whose mock is measured beside this one. */
function baselineBuild(directory) {
  if (!directory) return undefined;
  const cli = join(directory, 'dist/cli.js');
  if (!existsSync(cli)) throw new Error(`BENCH_BASELINE=${directory} has no dist/cli.js: run npm run build there`);
  let label = directory;
  try {
    label = `${execFileSync('git', ['-C', directory, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()} (${directory})`;
  } catch {
    // not a git checkout: its directory names it
  }
  return { cli, dist: join(directory, 'dist'), label };
}

/** `count` valid pets with ids 1..count, statuses spread over the enum and some without one. */
function manyPets(count) {
  const statuses = ['available', 'pending', 'sold', undefined];
  return Array.from({ length: count }, (_, i) => {
    const pet = { id: i + 1, name: `pet-${i + 1}`, categoryId: (i % 12) + 1 };
    const status = statuses[i % statuses.length];
    if (status) pet.status = status;
    return pet;
  });
}

/**
 * The cells as they run: each baseline cell joined to this build's cell of the same group, the two run back to back
 * (a pair); every other cell alone.
 */
function pairedUnits(cells) {
  const baselineOf = (cell) =>
    cell.target === 'mock' && cells.find((other) => other.target === 'baseline' && other.group === cell.group);
  return cells
    .filter((cell) => cell.target !== 'baseline')
    .map((cell) => {
      const baselineCell = baselineOf(cell);
      return baselineCell ? [cell, baselineCell] : [cell];
    });
}
