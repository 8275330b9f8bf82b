// Memory per stored pet, for `npm run bench`: heap growth after garbage collection over COUNT creates through the
// fetch function (petstore-kit/fetch: the store the server uses, without sockets or the request log), each measured
// in a fresh `node --expose-gc` child, this build's and the baseline's interleaved, median of three. Run directly
// (`node --expose-gc bench/pet-memory.mjs DIST COUNT`) it is that child and prints one JSON line.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, root } from './processes.mjs';

const COUNT = 100_000;
const RUNS = 3;
// Two runs of one build differ by up to 1 % (271 and 274 bytes seen): a limit tighter than that would judge noise.
const LIMIT = 1.02;

/** Prints bytes per stored pet (and this build / the baseline's); returns 1 when over the limit, else 0. */
export async function benchPetMemory(baseline) {
  const builds = { mine: join(root, 'dist'), ...(baseline ? { baseline: baseline.dist } : {}) };
  const bytes = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const [name, dist] of Object.entries(builds)) bytes[name].push(await measureIn(dist));
  }
  const mine = median(bytes.mine);
  console.log(`\nmemory per stored pet (heap after GC over ${COUNT.toLocaleString('en')} creates, median of ${RUNS})`);
  if (!baseline) {
    console.log(`  this build ${mine.toFixed(0)} bytes  (set BENCH_BASELINE to compare with another build)`);
    return 0;
  }
  const theirs = median(bytes.baseline);
  const ratio = mine / theirs;
  const ok = ratio <= LIMIT;
  console.log(
    `  this build ${mine.toFixed(0)} bytes, baseline ${theirs.toFixed(0)} bytes: ${ratio.toFixed(2)}x  <= ${LIMIT}x  ${ok ? 'ok' : 'MISSED'}`,
  );
  return ok ? 0 : 1;
}

function measureIn(dist) {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', script, dist, String(COUNT)], { timeout: 300_000 }, (error, stdout) => {
      if (error) return reject(error);
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)).bytesPerPet);
    });
  });
}

async function child(dist, count) {
  const { createPetstoreFetch } = await import(pathToFileURL(join(dist, 'fetch/index.js')).href);
  const key = 'memory-bench';
  const petstoreFetch = createPetstoreFetch({ apiKeys: [key], maxPets: count + 1_000, journalSize: 0, quiet: true });
  await petstoreFetch.ready;
  const base = 'http://127.0.0.1:4010/v1';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  await (await petstoreFetch(`${base}/pets?limit=1`, { headers })).arrayBuffer();
  const before = settledHeap();
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ name: `pet-${i}`, categoryId: (i % 12) + 1, status: 'available' });
    const response = await petstoreFetch(`${base}/pets`, { method: 'POST', headers, body });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`create ${i} answered ${response.status}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = settledHeap();
  // The check also keeps the mock reachable until the heap is read: with no use after the loop, V8 may collect it
  // and the figure reads near zero.
  const stored = (await petstoreFetch.snapshot()).pets.length;
  if (stored < count) throw new Error(`${stored} pets stored after ${count} creates`);
  process.stdout.write(`${JSON.stringify({ bytesPerPet: (after - before) / count })}\n`);
}

function settledHeap() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await child(process.argv[2], Number(process.argv[3]));
