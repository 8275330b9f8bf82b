import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { listBounds } from '../src/contract/engine/pets.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { defaultSpecFile } from '../src/paths.js';

/**
 * The fixed list cases take listPets' `limit` bounds and default from the document judged, not from v1: on a
 * document whose listPets allows 1..50 with default 10, the mock serving that document passes them and the mock
 * serving v1 (default 20) fails list.default-limit.
 */
const KEY = 'list-bounds-key-41d0';
const dir = mkdtempSync(join(tmpdir(), 'petstore-list-bounds-'));
const v1 = readFileSync(defaultSpecFile, 'utf8');
const narrowed = v1.replace(/maximum: 100\n( +)default: 20/, 'maximum: 50\n$1default: 10');
const narrowedFile = join(dir, 'narrowed.yaml');
writeFileSync(narrowedFile, narrowed);

let onNarrowed: MockServer;
let onV1: MockServer;
beforeAll(async () => {
  onNarrowed = await createMockServer({ apiKeys: [KEY], spec: narrowedFile });
  onV1 = await createMockServer({ apiKeys: [KEY], spec: defaultSpecFile });
});
afterAll(async () => {
  await onNarrowed.close();
  await onV1.close();
});

/** The list cases' verdicts on `url`, judged against the narrowed document. */
async function listVerdicts(url: string): Promise<Record<string, string>> {
  const session = await createSession({ baseUrl: url, apiKey: KEY, spec: await loadSpec(narrowedFile) });
  try {
    const verdicts: Record<string, string> = {};
    const cases = contractCases(session.spec).filter((c) => c.check.startsWith('list.') || c.check === 'create.echo');
    for (const listCase of cases) {
      const result = await runCase(session, listCase);
      verdicts[listCase.id] = result.status === 'failed' ? `failed: ${result.failures[0]!.check}` : result.status;
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
  }
}

describe("listPets' limit from the document", () => {
  it('reads 1, 50 and 10 from the narrowed document, and 1, 100 and 20 from v1', async () => {
    expect(narrowed).not.toBe(v1);
    expect(listBounds(await loadSpec(narrowedFile))).toEqual({ minimum: 1, maximum: 50, default: 10 });
    expect(listBounds(await loadSpec())).toEqual({ minimum: 1, maximum: 100, default: 20 });
    const ids = contractCases(await loadSpec(narrowedFile)).map((c) => c.id);
    expect(ids.filter((id) => id.startsWith('list.limit/'))).toEqual([
      'list.limit/listPets/sample',
      'list.limit/listPets/limit-1',
      'list.limit/listPets/limit-7',
      'list.limit/listPets/limit-50',
    ]);
  });

  it('passes the mock serving that document, and fails the one serving v1 under list.default-limit', async () => {
    const passing = await listVerdicts(onNarrowed.url);
    expect(Object.values(passing).every((v) => v === 'passed')).toBe(true);
    const failing = await listVerdicts(onV1.url);
    expect(failing['list.default-limit/listPets']).toBe('failed: list.default-limit');
  });
});
