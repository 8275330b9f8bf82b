import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { defaultSpecFile } from '../src/paths.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';

const KEY = 'spec-flag-key-5d1e8b';
const dir = mkdtempSync(join(tmpdir(), 'petstore-contract-spec-'));
const v1 = readFileSync(defaultSpecFile, 'utf8');
// openapi.yaml with one edit the mock (serving the bundled document) does not follow: a Pet requires `tag`.
const tagged = v1.replace(
  /( {10}required: \[id\]\n {10}properties:\n)/,
  '          required: [id, tag]\n          properties:\n            tag: {type: string}\n',
);
const taggedFile = join(dir, 'tagged.yaml');
writeFileSync(taggedFile, tagged);
const report = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ContractReport;
const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(['contract', '--base-url', mock.url, '--time-budget', '0', ...args], { PETSTORE_API_KEY: KEY, ...env });

let mock: MockServer;
let documents: Server;
let documentsUrl: string;
beforeAll(async () => {
  mock = await createMockServer({ apiKeys: [KEY] });
  documents = createServer((_, res) => res.end(v1)).listen(0, '127.0.0.1');
  await once(documents, 'listening');
  documentsUrl = `http://127.0.0.1:${(documents.address() as { port: number }).port}/openapi.yaml`;
});
afterAll(async () => {
  await mock.close();
  documents.close();
});

describe('contract --spec: the document judged is the one named', () => {
  it('judges the mock against a document it does not follow, and fails it under schema.response', async () => {
    expect(tagged).not.toBe(v1);
    const json = join(dir, 'tagged.json');
    const html = join(dir, 'tagged.html');
    const result = await run(['--spec', taggedFile, '--json', json, '--html', html]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout.split('\n')[1]).toBe(`  judged against ${taggedFile}`);
    // The page names the document judged, not the bundled one.
    expect(readFileSync(html, 'utf8')).toContain('Petstore API 1.0.0 <span class="muted">(tagged.yaml)</span>');
    const found = report(json);
    expect(found.spec).toBe(taggedFile);
    expect(found.failedChecks).toEqual(['schema.response']);
    expect(found.groups[0]!.example.actual).toContain('.tag is required');
  });

  it.each([
    ['--config (relative to the file)', () => ['--config', configFile()], {}],
    ['CONTRACT_SPEC', () => [], { CONTRACT_SPEC: taggedFile }],
  ])('takes the document from %s too', async (_, args, env) => {
    const json = join(dir, `from-${Object.keys(env).length}.json`);
    const result = await run([...args(), '--json', json], env);
    expect(result.code, result.stderr).toBe(1);
    // An absolute path: from the config, the file beside it.
    expect(report(json).spec).toMatch(/^\/.*\/tagged\.yaml$/);
    expect(report(json).failedChecks).toEqual(['schema.response']);
  });

  it('reads it from a URL, and passes the mock on the document it serves; without --spec the report names the bundled one', async () => {
    const [fromUrl, bundled] = [join(dir, 'url.json'), join(dir, 'bundled.json')];
    const results = [await run(['--spec', documentsUrl, '--json', fromUrl]), await run(['--json', bundled])];
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(report(fromUrl).spec).toBe(documentsUrl);
    expect(report(bundled).spec).toBe('openapi.yaml (bundled)');
    expect(results[1]!.stdout).not.toContain('judged against');
  });

  it('stops with exit 2 and the reason for a document that is not OpenAPI 3, before asking the target anything', async () => {
    const swagger = join(dir, 'swagger.yaml');
    writeFileSync(swagger, 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n');
    const json = join(dir, 'swagger.json');
    const before = mock.mock.journal().length;
    const html = join(dir, 'swagger.html');
    const result = await run(['--spec', swagger, '--json', json, '--html', html]);
    expect(result.code).toBe(2);
    // The page names the document and why it was not read.
    expect(readFileSync(html, 'utf8')).toMatch(
      /\(\/\S+\/swagger\.yaml: not an OpenAPI 3 document: .* first\)\)\s+<span class="muted">\(swagger\.yaml\)<\/span>/,
    );
    expect(result.stderr).toBe(
      `petstore-kit: ${swagger}: not an OpenAPI 3 document: only OpenAPI 3 documents are supported (this is Swagger 2: convert it to OpenAPI 3 first)\n`,
    );
    expect(report(json)).toMatchObject({
      spec: swagger,
      stopped: expect.stringContaining('not an OpenAPI 3 document'),
    });
    expect(mock.mock.journal().length).toBe(before);
  });
});

function configFile(): string {
  const sub = mkdtempSync(join(dir, 'config-'));
  writeFileSync(join(sub, 'tagged.yaml'), tagged);
  writeFileSync(join(sub, 'petstore-kit.json'), JSON.stringify({ spec: 'tagged.yaml' }));
  return join(sub, 'petstore-kit.json');
}
