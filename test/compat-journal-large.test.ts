import { afterAll, describe, expect, it } from 'vitest';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { defaultSpecFile } from '../src/paths.js';
import { runCli } from './support/cli.js';
import type { CompatReport } from '../src/compat/report/compat-report.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-compat-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENTRIES = 300_000;

/** A saved journal of 300,000 requests (about 50 MB), newest first as journal() saves it: list, get and create in turn. */
async function writeJournal(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write('{"capacity":300000,"count":300000,"entries":[');
  for (let seq = ENTRIES; seq >= 1; seq -= 1) {
    const kind = seq % 3;
    const entry = {
      seq,
      time: '2026-11-26T00:00:00.000Z',
      method: kind === 0 ? 'post' : 'get',
      path: kind === 1 ? `/v1/pets/${(seq % 50) + 1}` : '/v1/pets',
      query: kind === 2 ? { limit: String((seq % 100) + 1) } : {},
      status: kind === 0 ? 201 : 200,
      durationMs: 1,
      operationId: ['createPet', 'getPet', 'listPets'][kind],
      requestHeaders: { authorization: 'Bearer [redacted]' },
      ...(kind === 0 ? { requestBody: { name: `Rex ${seq}`, categoryId: seq % 7 } } : {}),
    };
    if (!out.write(`${seq === ENTRIES ? '' : ','}${JSON.stringify(entry)}`)) await once(out, 'drain');
  }
  out.end(']}');
  await once(out, 'finish');
}

describe('compat --journal with a journal of 300,000 requests', () => {
  it('judges it streamed, in a 64 MB heap, and reports one finding per operation and change with a count', async () => {
    const journal = join(dir, 'journal.json');
    await writeJournal(journal);
    expect(statSync(journal).size).toBeGreaterThan(40e6);
    // The new document: getPet removed (before its sunset) and listPets' limit narrowed to 50.
    const document = YAML.parse(readFileSync(defaultSpecFile, 'utf8'));
    delete document.paths['/pets/{petId}'];
    document.paths['/pets'].get.parameters[0].schema.maximum = 50;
    const next = join(dir, 'new.yaml');
    writeFileSync(next, YAML.stringify(document));
    const json = join(dir, 'report.json');
    // Read whole, 50 MB of JSON and 300,000 findings need several times this heap (it ran out at 64 MB before).
    const { code, stdout, stderr } = await runCli(
      ['compat', defaultSpecFile, next, '--date', '2026-11-27', '--journal', journal, '--json', json],
      { NODE_OPTIONS: '--max-old-space-size=64' },
    );
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toContain(`journal ${journal}: ${ENTRIES} recorded exchanges, ${ENTRIES} replayed`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as CompatReport;
    const findings = report.journal!.findings;
    // listPets with limit 51 to 100: half of its 100,000 calls, one reason.
    expect(findings.map((f) => [f.check, f.operation, f.count])).toEqual([
      ['journal.operation-removed', 'GET /pets/{petId} (getPet)', 100_000],
      ['journal.request-refused', 'GET /pets (listPets)', 50_000],
    ]);
    // The oldest requests of each, oldest first, whatever the file's order.
    expect(findings.map((f) => f.examples!.map((r) => r.seq))).toEqual([
      [1, 4, 7],
      [50, 53, 56],
    ]);
    expect(findings[1]!.message).toMatch(
      /^request #50 GET \/v1\/pets\?limit=51 would be refused by .*limit must be <= 50/,
    );
    // The text is one line (and its count) per finding, not one per request.
    expect(stdout.split('\n').length).toBeLessThan(200);
    expect(stdout).toContain('100,000 requests like it: #1, #4, #7, …');
  }, 180_000);
});
