import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { defaultSpecFile } from '../paths.js';
import { runCompat } from './compat.js';

// The command in-process: its output captured, its exit code returned.
const dir = mkdtempSync(join(tmpdir(), 'petstore-compat-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let out = '';
let err = '';
beforeAll(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
});
afterEach(() => {
  out = '';
  err = '';
});
afterAll(() => vi.restoreAllMocks());

describe('petstore-kit compat: could not judge is exit 2, said on stderr and in every report', () => {
  it.each([
    ['one document', [defaultSpecFile], /^petstore-kit: compat needs two documents, OLD and NEW \(got 1\)/],
    [
      'both from standard input',
      ['-', '-'],
      /^petstore-kit: compat: only one of OLD and NEW can be read from standard input/,
    ],
    [
      'a --fail-on that is no level',
      [defaultSpecFile, defaultSpecFile, '--fail-on', 'error'],
      /^petstore-kit: --fail-on must be breaking or warning \(got "error"\)/,
    ],
    [
      'a --date that is no day',
      [defaultSpecFile, defaultSpecFile, '--date', '5 December'],
      /^petstore-kit: --date must be a day as YYYY-MM-DD/,
    ],
    [
      'a --min-notice that is no number',
      [defaultSpecFile, defaultSpecFile, '--min-notice', 'ten'],
      /^petstore-kit: --min-notice must be a whole number from 0 to 36500/,
    ],
    [
      'a document that is not there',
      [defaultSpecFile, join(dir, 'missing.yaml')],
      /^petstore-kit: .*missing\.yaml: .*ENOENT/,
    ],
    [
      'a journal that is not there',
      [defaultSpecFile, defaultSpecFile, '--journal', join(dir, 'nope.json')],
      /^petstore-kit: --journal .*nope\.json: cannot be read \(ENOENT\)/,
    ],
  ])('%s', async (_, args, message) => {
    const json = join(dir, 'report.json');
    writeFileSync(json, 'an earlier run');
    expect(await runCompat([...args, '--json', json])).toBe(2);
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(out).toMatch(/not judged: .* \(exit 2\)\n$/);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({
      exitCode: 2,
      error: expect.any(String),
      findings: [],
    });
  });

  it('a $ref that does not resolve: exit 2, naming the reference, JUnit with an error', async () => {
    const broken = readFileSync(defaultSpecFile, 'utf8').replace(
      "$ref: '#/components/schemas/Pets'",
      "$ref: '#/components/schemas/Animals'",
    );
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, broken);
    const junit = join(dir, 'report.xml');
    expect(await runCompat([defaultSpecFile, file, '--junit', junit])).toBe(2);
    expect(err).toContain('#/components/schemas/Animals');
    expect(readFileSync(junit, 'utf8')).toContain('errors="1"');
  });

  it('a journal the new document model cannot replay: exit 2, the documents’ findings kept in the report', async () => {
    // A requirement naming a scheme the document does not define: the document model refuses it (security.ts).
    const apiKey = readFileSync(defaultSpecFile, 'utf8').replace(
      'security:\n  - bearerAuth: []',
      'security:\n  - nowhere: []',
    );
    const file = join(dir, 'api-key.yaml');
    writeFileSync(file, apiKey);
    const journal = join(dir, 'calls.json');
    writeFileSync(journal, '[]');
    const json = join(dir, 'report.json');
    expect(await runCompat([defaultSpecFile, file, '--journal', journal, '--json', json])).toBe(2);
    expect(err).toMatch(
      /^petstore-kit: cannot replay the journal against .*api-key\.yaml: operation listPets: security scheme "nowhere" is not defined/,
    );
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ exitCode: 2, error: expect.stringContaining('cannot replay the journal') });
    expect(new Set(report.findings.map((f: { check: string }) => f.check))).toEqual(
      new Set(['security.requirement-changed']),
    );
    expect(out).toMatch(
      /BREAKING security\.requirement-changed[\s\S]*3 breaking, 0 warnings, 0 info; not judged: cannot replay/,
    );
  });

  it('a journal that is not a journal: exit 2, naming the entry and the field', async () => {
    const file = join(dir, 'journal.json');
    writeFileSync(file, JSON.stringify({ entries: [{ seq: 1, method: 'GET', path: 'pets', status: 200 }] }));
    expect(await runCompat([defaultSpecFile, defaultSpecFile, '--journal', file])).toBe(2);
    expect(err).toContain('journal.json: entries[0].path must be a path starting with /');
  });
});

describe('petstore-kit compat: reading the documents', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const text = readFileSync(defaultSpecFile, 'utf8');
    server = createServer((req, res) => {
      if (req.url === '/missing.yaml') return void res.writeHead(404).end('no such document');
      res.writeHead(200, { 'Content-Type': 'application/yaml' });
      res.end(req.url === '/new.yaml' ? text.replace('maximum: 100', 'maximum: 50') : text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('from http URLs, with --fail-on warning and --markdown', async () => {
    const markdown = join(dir, 'summary.md');
    expect(await runCompat([`${url}/openapi.yaml`, `${url}/new.yaml`, '--markdown', markdown]), err).toBe(1);
    expect(out).toContain(
      'BREAKING request.maximum-decreased  GET /pets (listPets): query.limit has maximum 50 (it was 100)',
    );
    expect(readFileSync(markdown, 'utf8')).toMatch(
      /^### Petstore compat: ❌ not compatible \(`request.maximum-decreased`\)/,
    );
  });

  it('a URL that answers 404, or refuses the connection: exit 2, saying so', async () => {
    expect(await runCompat([`${url}/openapi.yaml`, `${url}/missing.yaml`])).toBe(2);
    expect(err).toBe(`petstore-kit: ${url}/missing.yaml: HTTP 404 Not Found\n`);
    err = '';
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await runCompat([`http://127.0.0.1:${port}/openapi.yaml`, defaultSpecFile])).toBe(2);
    expect(err).toBe(`petstore-kit: http://127.0.0.1:${port}/openapi.yaml: cannot be fetched (ECONNREFUSED)\n`);
  });

  it('exit 0 for the same document, whatever --fail-on', async () => {
    expect(await runCompat([defaultSpecFile, defaultSpecFile, '--fail-on', 'warning'])).toBe(0);
    expect(out).toContain('0 breaking, 0 warnings, 0 info: compatible');
  });
});
