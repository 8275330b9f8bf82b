import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import YAML from 'yaml';
import { petstoreHandlers } from '../src/msw/index.js';
import { defaultSpecFile } from '../src/paths.js';
import { loadDocument, type LoadedDocument } from '../src/compat/load-document.js';
import { compareDocuments } from '../src/compat/compare-documents.js';
import { readJournal } from '../src/compat/read-journal.js';
import { replayJournal } from '../src/compat/replay-journal.js';
import { runCli } from './support/cli.js';
import { section } from './support/docs.js';

// A frontend's own test suite, as README's "In vitest or jest" sets it up: the app's calls answered by the MSW
// handlers in-process. At the end it saves the journal (as docs/mock.md shows), and `compat --journal` replays it
// against a new document: here, openapi.yaml without getPet, whose removal the interface dates 5 December 2030.

const API = 'http://127.0.0.1:4010/v1';
const headers = { Authorization: 'Bearer test-key', 'Content-Type': 'application/json' };

/** The frontend under test: three screens' worth of calls. */
async function loadAvailablePets(): Promise<{ id: number; name: string }[]> {
  return (await (await fetch(`${API}/pets?status=available&limit=100`, { headers })).json()) as {
    id: number;
    name: string;
  }[];
}
async function showPet(id: number): Promise<{ id: number; name: string } | undefined> {
  const res = await fetch(`${API}/pets/${id}`, { headers });
  return res.ok ? ((await res.json()) as { id: number; name: string }) : undefined;
}
async function addPet(name: string, categoryId: number): Promise<{ id: number }> {
  return (await (
    await fetch(`${API}/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId }) })
  ).json()) as { id: number };
}

// One directory for the whole file: the journal the first suite saves is what the second replays.
const workDir = mkdtempSync(join(tmpdir(), 'petstore-compat-'));
const journalFile = join(workDir, 'journal.json');
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("a frontend's test suite on the MSW handlers", () => {
  const petstore = petstoreHandlers({ apiKeys: ['test-key'] });
  const server = setupServer(...petstore);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => petstore.reset());
  afterAll(async () => {
    // As docs/mock.md shows: the journal saved once the suite is done.
    writeFileSync(journalFile, JSON.stringify(await petstore.journal()));
    server.close();
    await petstore.close();
  });

  it('lists the available pets', async () => {
    expect((await loadAvailablePets()).length).toBeGreaterThan(0);
  });

  it('shows a pet, and a missing one', async () => {
    expect((await showPet(1))?.id).toBe(1);
    expect(await showPet(999)).toBeUndefined();
  });

  it('adds a pet and shows it', async () => {
    const { id } = await addPet('Rex', 1);
    expect((await showPet(id))?.name).toBe('Rex');
  });
});

describe('compat --journal on the saved journal', () => {
  let old: LoadedDocument;
  beforeAll(async () => {
    old = await loadDocument({ path: defaultSpecFile });
  });

  it('docs/mock.md saves the journal the way this suite does', () => {
    expect(section('### Saving the journal for compat')).toContain(
      'writeFileSync(journalFile, JSON.stringify(await petstore.journal()))',
    );
  });

  it('against openapi.yaml without getPet, names each request that used getPet with its removal date (one CLI run)', async () => {
    const document = YAML.parse(readFileSync(defaultSpecFile, 'utf8'));
    delete document.paths['/pets/{petId}'];
    const newFile = join(workDir, 'new.yaml');
    writeFileSync(newFile, YAML.stringify(document));
    const reports = { json: join(workDir, 'compat.json'), junit: join(workDir, 'compat.xml') };
    const { code, stdout, stderr } = await runCli([
      'compat',
      defaultSpecFile,
      newFile,
      '--journal',
      journalFile,
      '--json',
      reports.json,
      '--junit',
      reports.junit,
    ]);
    expect(code, stdout + stderr).toBe(1);
    const getPetCalls = readJournal(readFileSync(journalFile, 'utf8'), journalFile).filter(
      (entry) => entry.operationId === 'getPet',
    );
    expect(getPetCalls.map((entry) => entry.path)).toEqual(['/v1/pets/1', '/v1/pets/999', '/v1/pets/58']);
    // One finding for the three calls: the first in full, then how many and which (not one line per request).
    const [first] = getPetCalls;
    expect(stdout).toContain(
      `BREAKING journal.operation-removed  request #${first!.seq} GET ${first!.path} used GET /pets/{petId} (getPet), which the new document no longer has; its removal date is 2030-12-05 (x-sunset), and its replacement is listPets\n         3 requests like it: ${getPetCalls.map((call) => `#${call.seq}`).join(', ')}\n`,
    );
    expect(stdout.match(/journal\.operation-removed/g)).toHaveLength(1);
    // docs/compat.md shows the first of them as printed.
    const shown = /^BREAKING journal\.operation-removed .*$/m.exec(section('## Which calls of ours: the journal'))![0];
    expect(stdout.split('\n')).toContain(shown);
    const report = JSON.parse(readFileSync(reports.json, 'utf8'));
    expect(report.journal).toMatchObject({ entries: 5, replayed: 5 });
    expect(report.journal.findings).toEqual([
      expect.objectContaining({
        check: 'journal.operation-removed',
        request: expect.objectContaining({ seq: first!.seq }),
        count: 3,
        examples: getPetCalls.map((call) => expect.objectContaining({ seq: call.seq, path: call.path })),
      }),
    ]);
    expect(report.findings.map((f: { check: string }) => f.check)).toEqual(['operation.removed-before-sunset']);
    expect(readFileSync(reports.junit, 'utf8')).toContain(
      `<testcase classname="journal.operation-removed" name="breaking: request #${getPetCalls[0]!.seq} GET /v1/pets/1"`,
    );
  });

  /** The saved journal replayed in-process against openapi.yaml with one edit (made on the parsed document, as YAML allows). */

  async function replayAgainst(edit: (document: any) => void) {
    const edited = structuredClone(old.bundled) as Parameters<typeof edit>[0];
    edit(edited);
    const current = await loadDocument({ label: 'new', value: edited });
    const differences = compareDocuments(old, current, { date: new Date('2026-11-26T00:00:00Z'), minNoticeDays: 180 });
    return replayJournal(
      journalFile,
      readJournal(readFileSync(journalFile, 'utf8'), journalFile),
      old,
      current,
      differences,
    ).findings;
  }

  it('against the same document, reports the calls of the deprecated getPet with its sunset, as one warning', async () => {
    const findings = await replayAgainst(() => undefined);
    expect(findings.map((f) => [f.check, f.count, f.examples?.map((r) => r.path)])).toEqual([
      ['journal.deprecated-call', 3, ['/v1/pets/1', '/v1/pets/999', '/v1/pets/58']],
    ]);
    expect(findings[0]!.message).toMatch(
      /^request #\d+ GET \/v1\/pets\/1 calls GET \/pets\/\{petId\} \(getPet\), deprecated until 2030-12-05 \(x-sunset\), then it is removed; its replacement is listPets$/,
    );
  });

  it('names the recorded request a narrower limit refuses, with the rule', async () => {
    const findings = await replayAgainst((d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 50));
    const refused = findings.filter((f) => f.check === 'journal.request-refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.request).toMatchObject({
      method: 'GET',
      path: '/v1/pets',
      query: { status: 'available', limit: '100' },
      status: 200,
    });
    expect(refused[0]!.message).toContain('query.limit must be <= 50');
  });

  it('names the recorded body a new required property refuses', async () => {
    const findings = await replayAgainst((d) => {
      d.components.schemas.NewPet.properties.ownerId = { type: 'integer' };
      d.components.schemas.NewPet.required.push('ownerId');
    });
    const refused = findings.filter((f) => f.check === 'journal.request-refused');
    expect(refused.map((f) => f.request?.body)).toEqual([{ name: 'Rex', categoryId: 1 }]);
    expect(refused[0]!.message).toContain('body.ownerId is required');
  });

  it('names the recorded answers whose property the new document no longer promises', async () => {
    const findings = await replayAgainst((d) => {
      delete d.components.schemas.Pet.allOf[1].properties.id;
      delete d.components.schemas.Pet.allOf[1].required;
    });
    const unpromised = findings.filter((f) => f.check === 'journal.answer-not-promised');
    // The list, the created pet and the two pets shown (one finding): every 2xx answer carried a Pet; the 404 did not.
    expect(unpromised.map((f) => [f.count, ...f.examples!.map((r) => `${r.method} ${r.path} ${r.status}`)])).toEqual([
      [1, 'GET /v1/pets 200'],
      [2, 'GET /v1/pets/1 200', 'GET /v1/pets/58 200'],
      [1, 'POST /v1/pets 201'],
    ]);
    expect(unpromised[0]!.message).toContain('response 200 body[].id is no longer in the response');
  });

  it('names every recorded request when the base path moves', async () => {
    const findings = await replayAgainst(
      (d) => (d.servers[0].variables.base_url.default = 'https://petstore.example.com/v2'),
    );
    // One finding per operation the client called, with how many calls: listPets, getPet (3), createPet.
    expect(findings.map((f) => [f.check, f.operation, f.count])).toEqual([
      ['journal.operation-removed', 'GET /pets (listPets)', 1],
      ['journal.operation-removed', 'GET /pets/{petId} (getPet)', 3],
      ['journal.operation-removed', 'POST /pets (createPet)', 1],
    ]);
    expect(findings[0]!.message).toMatch(
      /^request #1 GET \/v1\/pets\?status=available&limit=100 used GET \/pets \(listPets\), which the new document serves under the base path \/v2 instead/,
    );
  });

  it('names the recorded answer whose status is no longer documented', async () => {
    const findings = await replayAgainst((d) => delete d.paths['/pets/{petId}'].get.responses['404']);
    const unpromised = findings.filter((f) => f.check === 'journal.answer-not-promised');
    expect(unpromised.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^request #\d+ GET \/v1\/pets\/999 got status 404, which GET \/pets\/\{petId\} \(getPet\) no longer documents$/,
      ),
    ]);
  });
});
