// The cost of the mock's error answers, in-process (the fetch function, no sockets, 50 concurrent callers), for
// `node bench/error-answers.mjs [ROOT ...]`: each ROOT is a built checkout (default: this one), so two builds can be
// compared side by side in one run, their rounds interleaved so that the machine's load falls on both alike.
// Rows: v1's 404 and 400 (our Error shape, by the one path), v1's lookup (the hot path, for scale), and the same 404
// on a document declaring `default: Error {code: integer}` and one declaring a 4XX problem+json (shaped from the
// document's schema, the template decided once per operation and status).
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const CALLERS = 50;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 2);
const here = resolve(new URL('..', import.meta.url).pathname);
const roots = process.argv.length > 2 ? process.argv.slice(2).map((root) => resolve(root)) : [here];
const KEY = 'bench-error-key';
const documents = join(here, 'test/fixtures/documents');

const kinds = [
  ['v1 lookup', undefined, '/v1', '/pets/1', 200],
  ['v1 404 getPet', undefined, '/v1', '/pets/999999', 404],
  ['v1 400 listPets', undefined, '/v1', '/pets?limit=0', 400],
  ['default Error 404', join(documents, 'errors-default-integer-code.yaml'), '/api', '/animals/999999', 404],
  ['problem+json 404', join(documents, 'errors-problem-json.yaml'), '/v2', '/kennels/999999', 404],
];

async function fetchFor(root, spec, basePath) {
  const { createPetstoreFetch } = await import(pathToFileURL(join(root, 'dist/fetch/index.js')).href);
  const petstoreFetch = createPetstoreFetch({ apiKeys: [KEY], spec, baseUrl: `http://127.0.0.1:4010${basePath}` });
  await petstoreFetch.ready;
  return petstoreFetch;
}

/** Requests per second over one burst of SECONDS; counts answers of another status as wrong. */
async function burst(petstoreFetch, url, status) {
  let done = 0;
  let wrong = 0;
  const headers = { authorization: `Bearer ${KEY}` };
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until) {
        const response = await petstoreFetch(url, { headers });
        await response.arrayBuffer();
        if (response.status !== status) wrong++;
        done++;
      }
    }),
  );
  return { rps: (done * 1000) / (performance.now() - started), wrong };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(`error answers in-process (${CALLERS} callers, ${ROUNDS} × ${SECONDS} s, median req/s)`);
console.log(`  ${'answer'.padEnd(20)}${roots.map((root) => root.split('/').pop().padStart(14)).join('')}`);
let wrong = 0;
for (const [name, spec, basePath, path, status] of kinds) {
  const fetches = await Promise.all(roots.map((root) => fetchFor(root, spec, basePath)));
  const values = roots.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, petstoreFetch] of fetches.entries()) {
      const result = await burst(petstoreFetch, `http://127.0.0.1:4010${basePath}${path}`, status);
      values[index].push(result.rps);
      wrong += result.wrong;
    }
  }
  const cells = values.map((v) => median(v).toFixed(0).padStart(14));
  const ratio = values.length === 2 ? `   ${(median(values[1]) / median(values[0])).toFixed(2)}×` : '';
  console.log(`  ${name.padEnd(20)}${cells.join('')}${ratio}`);
  await Promise.all(fetches.map((petstoreFetch) => petstoreFetch.close()));
}
if (wrong) console.log(`  ${wrong} answers had an unexpected status`);
