import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { runContract } from '../src/contract/run/run-contract.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { securityDocuments, writeSecurityDocument } from './fixtures/security-documents.js';

/**
 * The runner on every security scheme: against the mock serving each document of fixtures/security-documents.ts it
 * sends each operation's credentials as its scheme says and passes; against the mock behind a front that breaks
 * one rule of the document's security (accepts any bearer token, ignores the apiKey in the query, supplies a
 * missing cookie), it fails under the auth checks and nothing else.
 */
const KEY = 'contract-security-key-0123';
const RUNS = 5;

async function run(baseUrl: string, file: string): Promise<ContractReport> {
  return runContract({ baseUrl, apiKey: KEY, spec: file, runs: RUNS, seed: 7, concurrency: 2 });
}

const failed = (report: ContractReport) =>
  report.cases.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.failures[0]?.actual ?? ''}`);

describe.each(Object.keys(securityDocuments))('the runner against the mock on the %s document', (name) => {
  let server: MockServer;
  const file = writeSecurityDocument(name);
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: [KEY], spec: file });
  });
  afterAll(() => server.close());

  it('passes, with an auth case for every secured operation', async () => {
    const report = await run(server.url, file);
    expect(failed(report)).toEqual([]);
    expect(report.stopped).toBeUndefined();
    const judged = new Set(report.cases.filter((c) => c.check === 'auth.required').map((c) => c.operation));
    // Every operation that requires credentials the runner can send: the list of `bearer` is public ({} among its
    // alternatives), and mutualTLS alone cannot be told from a refusal of it.
    const expected = { bearer: ['addNote', 'getNote'], 'mutual-tls': [] as string[] }[name] ?? [
      'listNotes',
      'addNote',
      'getNote',
    ];
    expect([...judged].sort()).toEqual([...expected].sort());
    // The valid credentials went as each scheme says: the creates of the resource checks were served.
    expect(report.cases.find((c) => c.id === 'resource.create-echo/notes')?.status).toBe('passed');
  });
});

/** A front for the mock that rewrites each request before passing it on: a target with one planted fault. */
async function startFaultyFront(upstream: string, fault: (url: URL, headers: Record<string, string>) => void) {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(`${upstream}${req.url!.replace(/^\/v1/, '')}`);
      const headers: Record<string, string> = {};
      for (const [header, value] of Object.entries(req.headers))
        if (value !== undefined && !['host', 'connection', 'content-length'].includes(header))
          headers[header] = Array.isArray(value) ? value.join(', ') : value;
      fault(url, headers);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(url, { method: req.method!, headers, ...(body ? { body } : {}) })
        .then(async (answer) => {
          const bytes = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((value, header) => {
            if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(header))
              out[header] = value;
          });
          res.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) }).end(bytes);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

// [fault, document, the rewrite, auth.required cases that must fail, ones that must still pass]
const faults: [string, string, (url: URL, headers: Record<string, string>) => void, string[], string[]][] = [
  [
    'accepts any bearer token',
    'oauth2',
    (_, headers) => {
      if (/^bearer\b/i.test(headers.authorization ?? '')) headers.authorization = `Bearer ${KEY}`;
    },
    ['listNotes/oauth-invalid-token', 'listNotes/oauth-empty-token', 'addNote/oauth-invalid-token'],
    ['listNotes/no-credentials', 'listNotes/oauth-wrong-scheme'],
  ],
  [
    'ignores the apiKey in the query',
    'apikey-query',
    (url) => url.searchParams.set('appid', KEY),
    ['listNotes/no-credentials', 'listNotes/query-missing', 'listNotes/query-invalid', 'addNote/query-empty'],
    [],
  ],
  [
    'accepts a missing cookie',
    'apikey-cookie',
    (_, headers) => {
      if (!/(^|;\s*)sid=/.test(headers.cookie ?? ''))
        headers.cookie = [headers.cookie, `sid=${KEY}`].filter(Boolean).join('; ');
    },
    ['listNotes/no-credentials', 'listNotes/cookie-missing', 'addNote/cookie-missing'],
    ['listNotes/cookie-invalid', 'listNotes/cookie-empty'],
  ],
  [
    'accepts a missing cookie beside the apiKey header',
    'combination',
    (_, headers) => {
      if (!/(^|;\s*)sid=/.test(headers.cookie ?? ''))
        headers.cookie = [headers.cookie, `sid=${KEY}`].filter(Boolean).join('; ');
    },
    ['addNote/cookie-missing'],
    ['addNote/header-missing', 'addNote/no-credentials', 'listNotes/bearer-invalid-token'],
  ],
];

describe.each(faults)('a target that %s (%s document)', (_, name, fault, failing, passing) => {
  let server: MockServer;
  let front: Awaited<ReturnType<typeof startFaultyFront>>;
  const file = writeSecurityDocument(name);
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: [KEY], spec: file });
    front = await startFaultyFront(server.url, fault);
  });
  afterAll(async () => {
    front.close();
    await server.close();
  });

  it('fails under the auth checks, and under nothing else', async () => {
    const report = await run(front.url, file);
    expect(report.failedChecks).toEqual(['auth.required', 'generated.auth-rejected']);
    const status = new Map(report.cases.map((c) => [c.id.replace(/^auth\.required\//, ''), c.status]));
    expect(failing.map((id) => [id, status.get(id)])).toEqual(failing.map((id) => [id, 'failed']));
    expect(passing.map((id) => [id, status.get(id)])).toEqual(passing.map((id) => [id, 'passed']));
    const refusal = report.cases.find((c) => c.id === `auth.required/${failing[0]}`)!.failures[0]!;
    expect(refusal).toMatchObject({ check: 'auth.required', expected: '401 (RFC 9110 §15.5.2)' });
    expect(refusal.actual).toMatch(/^20\d /);
  });
});
