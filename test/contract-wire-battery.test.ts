import { describe, it } from 'vitest';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { formatTextSummary } from '../src/contract/reports/format-text.js';
import { startIndependentPetstore } from './targets/independent-petstore.js';
import {
  cutAtEveryPosition,
  oneBytePieces,
  startFramingFront,
  tinyPieces,
  type Framing,
  type FramingFront,
} from './support/framing-front.js';
import { failuresOf } from './support/verdict.js';

// A verdict is about the target, never about how the runner read it: one correct implementation, served under
// every framing a real HTTP/1.x server may use, must be judged "the contract holds" at every --concurrency.
const KEY = 'wire-battery-key-5b81d2';
const spec = await loadSpec();
// The fewest examples that still keep many answers in flight at once: each property's examples are sent side by
// side, and a case's properties share the run's slots.
const RUNS = 8;
const SEED = 20261126;
const LONG = process.env.PETSTORE_LONG_TESTS === '1';

/** Every framing of the battery: RFC 9112 §6 (body length), §7 (chunked, trailers), §9 (connections), RFC 9110 §8.4. */
export const FRAMINGS: Framing[] = [
  { name: 'Content-Length, one piece', length: 'content-length' },
  { name: 'Content-Length, the body in pieces of 1-3 bytes', length: 'content-length', pieces: tinyPieces },
  { name: 'chunked, cut at every position', length: 'chunked', pieces: cutAtEveryPosition },
  { name: 'chunked, one byte per chunk', length: 'chunked', pieces: oneBytePieces },
  { name: 'gzip in pieces of 1-3 bytes', length: 'chunked', coding: 'gzip', pieces: tinyPieces },
  { name: 'deflate in pieces of 1-3 bytes', length: 'chunked', coding: 'deflate', pieces: tinyPieces },
  { name: 'br in pieces of 1-3 bytes', length: 'chunked', coding: 'br', pieces: tinyPieces },
  { name: 'Connection: close on every answer', length: 'content-length', closeEach: true, pieces: cutAtEveryPosition },
  { name: 'HTTP/1.0, the body ended by the close', length: 'close', http10: true, pieces: cutAtEveryPosition },
  {
    name: 'keep-alive closed by the server after 3 requests',
    length: 'chunked',
    requestsPerConnection: 3,
    pieces: cutAtEveryPosition,
  },
  {
    name: 'keep-alive closed by the server after 20 ms idle',
    length: 'content-length',
    idleCloseMs: 20,
    pieces: cutAtEveryPosition,
  },
  { name: 'a slow first byte (10 ms)', length: 'chunked', firstByteDelayMs: 10, pieces: cutAtEveryPosition },
  // A second's wait on every answer would make a run of minutes; every 200th waits a second, the others 5 ms.
  {
    name: 'the head first, the body later (a second on every 200th)',
    length: 'chunked',
    bodyDelayMs: (n) => (n % 200 === 0 ? 1000 : 5),
    pieces: cutAtEveryPosition,
  },
  { name: 'trailers after the last chunk', length: 'chunked', trailers: true, pieces: cutAtEveryPosition },
  { name: 'application/json; charset=utf-8', length: 'chunked', charset: true, pieces: cutAtEveryPosition },
  { name: 'pretty-printed JSON, members in another order', length: 'chunked', pretty: true, pieces: tinyPieces },
];

// One request at a time and the most in flight at once: the two ends, where answers arrive whole or interleaved. The
// long suite (PETSTORE_LONG_TESTS=1, as .ci/run sets it) adds 8, the default, between them.
const CONCURRENCIES = LONG ? [1, 8, 64] : [1, 64];

/** Runs the contract at each --concurrency through `front`: what failed, what did not run, the summary's verdict. */
async function verdictsThrough(
  front: FramingFront,
): Promise<{ concurrency: number; failures: string[]; notRun: number; holds: boolean; framed: boolean }[]> {
  const verdicts = [];
  for (const concurrency of CONCURRENCIES) {
    const before = front.answers();
    const report = await runContract({ baseUrl: front.url, apiKey: KEY, spec, seed: SEED, runs: RUNS, concurrency });
    // Every answer of the run went through the framing (the probe before the run too).
    const framed = front.answers() - before >= report.requests;
    verdicts.push({
      concurrency,
      failures: failuresOf(report),
      notRun: report.summary.notRun,
      holds: formatTextSummary(report).includes('the contract holds'),
      framed,
    });
  }
  return verdicts;
}

// The framings run side by side (each its own target), their runs at each concurrency one after another.
describe.each(LONG ? [0, 40] : [0])('a correct target under every framing, %i ms away', (delayMs) => {
  for (const framing of FRAMINGS) {
    it.concurrent(
      `${framing.name}: the contract holds at --concurrency ${CONCURRENCIES.join(', ')}`,
      { timeout: 600_000 },
      async ({ expect }) => {
        const upstream = await startIndependentPetstore({ key: KEY, delayMs });
        const front = await startFramingFront(upstream.url, framing);
        try {
          const verdicts = await verdictsThrough(front);
          expect(verdicts).toEqual(
            CONCURRENCIES.map((concurrency) => ({ concurrency, failures: [], notRun: 0, holds: true, framed: true })),
          );
        } finally {
          await front.close();
          await upstream.close();
        }
      },
    );
  }
});
