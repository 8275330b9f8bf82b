// The mock without a server, for `npm run bench`: the fetch function (petstore-kit/fetch) driven in this process by
// 50 concurrent callers, no sockets, for the same list, lookup and create the HTTP mock is measured on, printed beside
// the HTTP mock's figures from the table above. What it shows: the pipeline's own cost, without HTTP's.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, root } from './processes.mjs';

const CALLERS = 50;

/** Prints req/s for each request kind (median of `rounds` bursts of `seconds`); returns how many answers were wrong. */
export async function benchInProcess({ key, rounds, seconds, httpRps }) {
  const { createPetstoreFetch } = await import(pathToFileURL(join(root, 'dist/fetch/index.js')).href);
  const petstoreFetch = createPetstoreFetch({ apiKeys: [key], maxPets: 5_000_000 });
  await petstoreFetch.ready;
  const base = 'http://127.0.0.1:4010/v1';
  const headers = { authorization: `Bearer ${key}` };
  const kinds = [
    ['list', 'GET /pets?limit=20', 200, () => petstoreFetch(`${base}/pets?limit=20`, { headers })],
    ['lookup', 'GET /pets/1', 200, () => petstoreFetch(`${base}/pets/1`, { headers })],
    [
      'create',
      'POST /pets',
      201,
      () =>
        petstoreFetch(`${base}/pets`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{"name":"Biscuit","categoryId":6,"status":"available"}',
        }),
    ],
  ];
  let wrong = 0;
  console.log(
    `\nthe mock without a server: the fetch function in-process (${CALLERS} concurrent callers, ${rounds} × ${seconds} s, median)`,
  );
  for (const [name, label, status, call] of kinds) {
    const values = [];
    for (let round = 0; round < rounds; round++) {
      let done = 0;
      const until = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CALLERS }, async () => {
          while (performance.now() < until) {
            const response = await call();
            await response.arrayBuffer();
            if (response.status !== status) wrong++;
            done++;
          }
        }),
      );
      values.push((done * 1000) / (performance.now() - started));
    }
    const http = httpRps?.[`${name}:mock`];
    console.log(
      `  ${label.padEnd(20)} ${median(values).toFixed(0).padStart(7)} req/s in-process${http ? `   HTTP mock ${http.toFixed(0)} req/s (${(median(values) / http).toFixed(2)}x)` : ''}`,
    );
  }
  await petstoreFetch.close();
  if (wrong) console.log(`  ${wrong} answers had an unexpected status`);
  return wrong;
}
