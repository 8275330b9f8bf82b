import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { runContract } from '../src/contract/run/run-contract.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { startIndependentPetstore } from './targets/independent-petstore.js';
import { limitForRuns } from './support/run-budget.js';

// Every printed curl sends byte for byte what the runner sent. A run goes through a recording
// proxy; a sample of its printed requests (and every reproduction of a failing run) is then run by sh and curl
// against a recording server, and each must equal a request the runner really sent: method, target, body bytes,
// and every header but the two curl must choose itself (User-Agent, Accept-Encoding: see IGNORED).
const KEY = 'replay-key-5b1d0f3e9a';
const spec = await loadSpec();
const sh = (command: string) =>
  promisify(execFile)('sh', ['-c', command], { env: { ...process.env, PETSTORE_API_KEY: KEY } });

/** Headers that are the client's own: its name, the encodings its decompressor knows, and how it holds the connection. */
const IGNORED = new Set(['host', 'user-agent', 'accept-encoding', 'connection', 'keep-alive']);

interface Recorded {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
}

/** What a request was on the wire, as comparable text (the body in base64: bytes, not characters). */
async function record(req: IncomingMessage): Promise<{ recorded: Recorded; raw: Buffer }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (!IGNORED.has(name)) headers.push([name, req.rawHeaders[i + 1]!]);
  }
  headers.sort(([a], [b]) => a.localeCompare(b));
  return { recorded: { method: req.method!, target: req.url!, headers, body: raw.toString('base64') }, raw };
}

/** Records every request and passes it on to `upstream`, answering with what it answered. */
async function recordingProxy(upstream: string, log: Recorded[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    void (async () => {
      const { recorded, raw } = await record(req);
      log.push(recorded);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answer = await request(`${upstream}${req.url}`, {
        method: req.method as 'GET',
        headers,
        ...(raw.length || req.method === 'POST' ? { body: raw } : {}),
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(
        answer.statusCode,
        Object.fromEntries(
          Object.entries(answer.headers).filter(
            ([name]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name),
          ),
        ) as Record<string, string>,
      );
      res.end(body);
    })().catch(() => res.destroy());
  });
  return listen(server);
}

async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs each curl against a server that only records, with the host swapped; returns what it received, in order. */
async function replay(curls: string[], host: string): Promise<Recorded[]> {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    void record(req).then(({ recorded }) => (seen.push(recorded), res.end('{}')));
  });
  const target = await listen(server);
  try {
    for (const curl of curls) await sh(curl.replaceAll(host, target.url));
  } finally {
    await target.close();
  }
  return seen;
}

const key = (r: Recorded) => JSON.stringify(r);

describe('printed requests replay byte for byte', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await createMockServer({ apiKeys: [KEY] });
  });
  afterAll(() => mock.close());

  it(
    'a sample of a whole run (fixed and generated): each curl sends exactly a request the runner sent',
    { timeout: limitForRuns(1) },
    async () => {
      const sent: Recorded[] = [];
      const proxy = await recordingProxy(mock.url.replace(/\/v1$/, ''), sent);
      try {
        const report = await runContract({ baseUrl: `${proxy.url}/v1`, apiKey: KEY, spec, seed: 424242, runs: 20 });
        expect(report.summary.failed).toBe(0);
        const curls = report.cases.flatMap((c) => c.requests.map((r) => r.request));
        // The target's probe before the first case is the one request no case reports.
        expect(sent.length - curls.length).toBe(1);
        // Every 7th, and every request with a body whose Content-Type is not application/json (the rare shapes).
        const sample = curls.filter(
          (curl, index) =>
            index % 7 === 0 || (curl.includes('--data-raw') && !curl.includes("'Content-Type: application/json'")),
        );
        expect(sample.length).toBeGreaterThan(50);
        const replayed = await replay(sample, proxy.url);
        expect(replayed.length).toBe(sample.length);
        const originals = new Map<string, number>();
        for (const r of sent) originals.set(key(r), (originals.get(key(r)) ?? 0) + 1);
        const unmatched = replayed.filter((r) => !originals.get(key(r)));
        expect(
          unmatched,
          `${unmatched.length} replayed requests differ from every request sent, e.g. ${JSON.stringify(unmatched[0])}`,
        ).toEqual([]);
        // Both kinds of body went through the comparison: labelled JSON and unlabelled or otherwise labelled.
        expect(replayed.some((r) => r.method === 'POST' && !r.headers.some(([name]) => name === 'content-type'))).toBe(
          true,
        );
        expect(
          replayed.some(
            (r) =>
              r.method === 'POST' &&
              r.headers.some(([name, value]) => name === 'content-type' && value.startsWith('application/json')),
          ),
        ).toBe(true);
      } finally {
        await proxy.close();
      }
    },
  );

  it(
    'every reproduction script of a failing run re-sends the requests it shows, in order',
    { timeout: limitForRuns(1) },
    async () => {
      const target = await startIndependentPetstore({ key: KEY, fault: 'status-case-insensitive' });
      const sent: Recorded[] = [];
      const proxy = await recordingProxy(target.url.replace(/\/v1$/, ''), sent);
      try {
        const report = await runContract({ baseUrl: `${proxy.url}/v1`, apiKey: KEY, spec, seed: 424242, runs: 20 });
        const scripts = report.cases.flatMap((c) =>
          c.failures.flatMap((f) => (f.reproduction ? [f.reproduction] : [])),
        );
        expect(scripts.length).toBeGreaterThan(0);
        const originals = new Set(sent.map(key));
        for (const script of scripts) {
          const curls = script.filter((line) => line.startsWith('curl '));
          const replayed = await replay(curls, proxy.url);
          expect(replayed.length).toBe(curls.length);
          for (const r of replayed) expect(originals.has(key(r)), `${script[1]}: ${JSON.stringify(r)}`).toBe(true);
        }
      } finally {
        await proxy.close();
        await target.close();
      }
    },
  );
});
