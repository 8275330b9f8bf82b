import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-hostile-documents-'));

/** The 1 KB "billion laughs" of issue 45: nine levels of nine YAML aliases. It kept compat on one core for minutes. */
const laughs = [
  'openapi: 3.0.3',
  'info: {title: x, version: "1"}',
  'paths: {}',
  'x-lol:',
  '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...Array.from({ length: 8 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`),
].join('\n');
const laughsFile = join(dir, 'laughs.yaml');
writeFileSync(laughsFile, `${laughs}\n`);
const har = join(dir, 'empty.har');
writeFileSync(har, JSON.stringify({ log: { version: '1.2', entries: [] } }));

// Every command that reads a document reads it through the one bounded reader: exit 2 and one line, on its own
// (the reader refuses it before anything walks it, so nothing has to be killed).
describe('a hostile document stops every command in one line, exit 2', () => {
  it.each([
    ['mock', ['mock', '--spec', laughsFile, '--port', '0']],
    ['proxy', ['proxy', '--spec', laughsFile, '--upstream', 'http://127.0.0.1:9/v1', '--port', '0']],
    [
      'contract',
      ['contract', '--spec', laughsFile, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k-123456789012'],
    ],
    ['compat', ['compat', 'openapi.yaml', laughsFile]],
    ['fixtures', ['fixtures', '--from-har', har, '--spec', laughsFile]],
  ])('%s', async (_, args) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${laughsFile}: the document has more than 2,000,000 nodes`);
    expect(lines[0]).toContain('billion laughs');
  });

  it('mock --spec URL and contract --spec URL read it from a URL through the same reader', async () => {
    const server = createServer((_, res) => res.end(laughs));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/openapi.yaml`;
    try {
      for (const args of [
        ['mock', '--spec', url, '--port', '0'],
        ['contract', '--spec', url, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k-123456789012'],
      ]) {
        const result = await runCli(args);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(new RegExp(`^petstore-kit: ${url}: the document has more than 2,000,000 nodes`));
      }
    } finally {
      server.close();
    }
  });
});
