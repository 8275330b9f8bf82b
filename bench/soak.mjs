// npm run soak: a bounded mixed load (about a minute) against one mock started by the real CLI, checking every
// answer against openapi.yaml and that resident memory stays flat. The store is capped (--max-pets) so that it
// fills early: after that, creates are refused (409 store_full) and nothing should grow.
// The mix includes what once grew memory: chunked bodies (no Content-Length) the journal must size by what it
// read, large rejected bodies, invalid UTF-8, compressed bodies, and int64 categoryIds beyond 2^53.
// Knobs: SOAK_SECONDS (60; the issue-11 run used 600), SOAK_CONCURRENCY (32), SOAK_MAX_PETS (5000).
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { parseJson } from '../dist/json/parse-json.js';
import { loadSpec } from '../dist/openapi/load-spec.js';
import { checkResponse } from '../dist/openapi/check-response.js';
import { createRouter } from '../dist/mock/front-door/router.js';
import { cli, mb, startServer } from './processes.mjs';
import { recordOutput } from './record.mjs';

const KEY = 'soak-key';
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 32);
const MAX_PETS = Number(process.env.SOAK_MAX_PETS ?? 5_000);
const SAMPLE_MS = 2_000;

const record = recordOutput(
  'soak',
  process.env.SOAK_SECONDS ? `SOAK_SECONDS=${process.env.SOAK_SECONDS} npm run soak` : 'npm run soak',
);
const spec = await loadSpec();
const router = createRouter(spec.operations, spec.basePath);
const server = await startServer('mock', [
  cli,
  'mock',
  '--port',
  '0',
  '--api-key',
  KEY,
  '--max-pets',
  String(MAX_PETS),
]);
const { hostname, port } = new URL(server.url);
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

/** The mix: mostly reads, a steady stream of creates, and the usual client mistakes. */
const mix = [
  [30, () => ['GET', `/v1/pets?limit=${1 + rand(100)}`, auth]],
  [10, () => ['GET', `/v1/pets?status=${pick(['available', 'pending', 'sold'])}&limit=${1 + rand(100)}`, auth]],
  [25, () => ['GET', `/v1/pets/${1 + rand(MAX_PETS + 100)}`, auth]],
  [
    20,
    () => [
      'POST',
      '/v1/pets',
      json,
      JSON.stringify({
        name: `soak ${rand(1e6)}`,
        categoryId: 1 + rand(20),
        status: pick(['available', 'pending', 'sold', undefined]),
      }),
    ],
  ],
  [3, () => ['POST', '/v1/pets', json, pick(['{"name":1}', '{', '[]', '{"name":"x","categoryId":1.5}'])]],
  [
    4,
    () => [
      'POST',
      '/v1/pets',
      json,
      chunked(JSON.stringify({ name: `chunked ${rand(1e6)}`, categoryId: 1 + rand(20) })),
    ],
  ],
  [3, () => ['POST', '/v1/pets', json, chunked(`{"name":"${'x'.repeat(64 * 1024)}`)]],
  [
    2,
    () => [
      'POST',
      '/v1/pets',
      json,
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    ],
  ],
  [
    2,
    () => [
      'POST',
      '/v1/pets',
      { ...json, 'content-encoding': 'gzip' },
      gzipSync(JSON.stringify({ name: 'zipped', categoryId: 1 })),
    ],
  ],
  [3, () => ['POST', '/v1/pets', json, `{"name":"big","categoryId":${9223372036854775807n - BigInt(rand(1e6))}}`]],
  [3, () => ['GET', '/v1/pets', { authorization: 'Bearer wrong' }]],
  [3, () => ['GET', `/v1/pets?limit=${pick(['0', '101', 'x'])}`, auth]],
  [3, () => ['DELETE', '/v1/pets/1', auth]],
  [3, () => ['GET', '/v1/nowhere', auth]],
];
const totalWeight = mix.reduce((sum, [weight]) => sum + weight, 0);

const counts = new Map();
const violations = [];
let answered = 0;
let failed = 0;
const samples = [];
const startedAt = performance.now();
const deadline = startedAt + SECONDS * 1000;

console.log(
  `petstore-kit soak: ${SECONDS} s, ${CONCURRENCY} concurrent clients, --max-pets ${MAX_PETS}, mock at ${server.url}`,
);
const sampler = setInterval(() => {
  samples.push({ at: (performance.now() - startedAt) / 1000, rss: server.rss() });
  const last = samples.at(-1);
  process.stdout.write(`  ${last.at.toFixed(0).padStart(3)} s  RSS ${mb(last.rss).padStart(9)}  ${answered} answers\n`);
}, SAMPLE_MS);
try {
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
} finally {
  clearInterval(sampler);
  agent.destroy();
  await server.stop();
}

// Flat: the last quarter's mean RSS may not exceed the second quarter's (after warm-up and the store filling) by
// more than 10 % and 8 MB at once; a leak of a few hundred bytes per request would break both within the minute.
const quarter = (q) => {
  const part = samples.filter((s) => s.at > (SECONDS * q) / 4 && s.at <= (SECONDS * (q + 1)) / 4);
  return part.reduce((sum, s) => sum + s.rss, 0) / Math.max(1, part.length);
};
const middle = quarter(1);
const end = quarter(3);
const grew = end - middle;
const flat = grew <= Math.max(0.1 * middle, 8 * 1024 * 1024);

console.log(
  `\nanswers: ${answered} in ${SECONDS} s (${(answered / SECONDS).toFixed(0)}/s); by status: ${[...counts]
    .sort()
    .map(([s, n]) => `${s}×${n}`)
    .join(', ')}`,
);
console.log(
  `memory: RSS ${mb(middle)} in the second quarter, ${mb(end)} in the last (${grew >= 0 ? '+' : ''}${mb(grew)}) → ${flat ? 'flat' : 'GROWING'}`,
);
console.log(`contract: ${violations.length} answers broke openapi.yaml, ${failed} requests failed (5xx or connection)`);
for (const violation of violations.slice(0, 10)) console.log(`  ${violation}`);
const ok = flat && violations.length === 0 && failed === 0 && counts.has(409);
if (!counts.has(409)) console.log('the store never filled: raise SOAK_SECONDS or lower SOAK_MAX_PETS');
console.log(ok ? '\nsoak passed' : '\nsoak FAILED');
record.save();
process.exitCode = ok ? 0 : 1;

async function client() {
  while (performance.now() < deadline) {
    const [method, path, headers, body] = choose()();
    try {
      const answer = await send(method, path, headers, body);
      answered++;
      counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) failed++;
      const found = operationFor(method, path.split('?')[0]);
      const problems = checkResponse(spec, found, answer);
      if (problems.length)
        violations.push(`${method} ${path} → ${answer.status}: ${problems.map((p) => p.message).join('; ')}`);
    } catch (error) {
      failed++;
      violations.push(`${method} ${path}: ${error.message}`);
    }
  }
}

function send(method, path, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let parsed;
        try {
          parsed = text ? parseJson(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode, contentType: res.headers['content-type'] ?? null, body: parsed, text });
      });
    });
    req.on('error', reject);
    if (Array.isArray(body)) {
      // No Content-Length: the body goes out chunked, piece by piece.
      for (const piece of body) req.write(piece);
      req.end();
    } else req.end(body);
  });
}

function operationFor(method, path) {
  try {
    return router.match(method, path).operation;
  } catch {
    return undefined;
  }
}

function choose() {
  let roll = rand(totalWeight);
  for (const [weight, make] of mix) {
    if (roll < weight) return make;
    roll -= weight;
  }
  return mix[0][1];
}

function rand(n) {
  return Math.floor(Math.random() * n);
}

/** A body to send chunked: pieces of at most 8 KiB. */
function chunked(text) {
  const pieces = [];
  for (let at = 0; at < text.length; at += 8192) pieces.push(text.slice(at, at + 8192));
  return pieces;
}

function pick(values) {
  return values[rand(values.length)];
}
