import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runContract } from '../src/contract/run/run-contract.js';
import { formatTextSummary } from '../src/contract/reports/format-text.js';
import { formatMarkdown } from '../src/contract/reports/format-markdown.js';
import { formatJunit } from '../src/contract/reports/format-junit.js';
import { formatHtml } from '../src/contract/reports/format-html.js';
import { createMockServer } from '../src/mock/http/server.js';
import { failuresOf, verdictOf } from './support/verdict.js';
import { limitForRuns } from './support/run-budget.js';

// --read-only on a document with PUT, PATCH and DELETE (v1.1): in front of the mock, a target that answers every
// write with a 500 (server.no-5xx: the run would fail) and counts it. The run must send none, pass, and list every
// case it skipped, with the methods it would have sent, in every report form.
const KEY = 'read-only-key-45b';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

async function startWriteRefusingFront(upstream: string) {
  const writes: string[] = [];
  const server = createServer((req, res) => {
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? '')) {
      writes.push(`${req.method} ${req.url}`);
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ code: 'write', message: 'a read-only run wrote', status: 500 }));
    }
    void fetch(`${upstream}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(
      async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, writes, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('--read-only on a document with every write method', () => {
  it(
    'sends no POST, PUT, PATCH or DELETE, passes, and lists what it skipped in every report form',
    { timeout: limitForRuns(1) },
    async () => {
      const mock = await createMockServer({ apiKeys: [KEY], spec: v11 });
      const front = await startWriteRefusingFront(new URL(mock.url).origin);
      try {
        const report = await runContract({
          baseUrl: `${front.url}/v1`,
          apiKey: KEY,
          spec: v11,
          readOnly: true,
          seed: 4545,
          runs: 20,
        });
        expect(front.writes).toEqual([]);
        expect(failuresOf(report)).toEqual([]);
        expect(verdictOf(report).exit).toBe(0);
        const skipped = report.cases.filter((c) => c.status === 'skipped');
        const methods = new Set(
          skipped.flatMap((c) => /^read-only: this case sends an? (.*)$/.exec(c.reason ?? '')?.[1]?.split(', ') ?? []),
        );
        expect([...methods].sort()).toEqual(['DELETE', 'PATCH', 'POST', 'PUT']);
        for (const id of [
          'sequence/pets',
          'resource.delete-gone/pets',
          'auth.required/deletePet/no-header',
          'auth.required/updatePet/no-header',
        ])
          expect(skipped.map((c) => c.id)).toContain(id);
        const html = formatHtml(report, { document: { file: v11, title: 't', version: '1.1.0' }, operations: [] });
        for (const form of [
          formatTextSummary(report),
          formatMarkdown(report),
          formatJunit(report),
          html,
          JSON.stringify(report),
        ])
          expect(form).toContain('read-only: this case sends a POST, PUT, DELETE');
      } finally {
        await front.close();
        await mock.close();
      }
    },
  );
});
