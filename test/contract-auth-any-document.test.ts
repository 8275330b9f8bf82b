import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession } from '../src/contract/base/session.js';
import { runCase } from '../src/contract/engine/run-case.js';
import { authCases } from '../src/contract/cases/auth-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';

/**
 * auth.required on any document: every operation that carries a security requirement is judged (v1.1's PUT, PATCH,
 * DELETE, orders and photos included), and one with `security: []` is not (OpenAPI 3.0 §4.7.8: an empty
 * requirement makes it optional). The document here is v1.1 with GET /store/inventory public.
 */
const KEY = 'auth-any-document-key-9e31';
const v11File = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));
const v11 = readFileSync(v11File, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'petstore-auth-any-'));
const publicInventory = v11.replace(
  '      operationId: getInventory\n',
  '      operationId: getInventory\n      security: []\n',
);
const publicFile = join(dir, 'public-inventory.yaml');
writeFileSync(publicFile, publicInventory);

let servingPublic: MockServer;
beforeAll(async () => {
  servingPublic = await createMockServer({ apiKeys: [KEY], spec: publicFile });
});
afterAll(() => servingPublic.close());

async function authVerdicts(file: string): Promise<Record<string, string>> {
  const session = await createSession({ baseUrl: servingPublic.url, apiKey: KEY, spec: await loadSpec(file) });
  try {
    const verdicts: Record<string, string> = {};
    for (const authCase of authCases(session.spec)) {
      const result = await runCase(session, authCase);
      verdicts[authCase.id] = result.status === 'failed' ? `failed: ${result.failures[0]!.actual}` : result.status;
    }
    return verdicts;
  } finally {
    await session.dispatcher.close();
  }
}

describe('auth.required on a document other than v1', () => {
  it('judges every secured operation of v1.1 and not the one with security: []', async () => {
    expect(publicInventory).not.toBe(v11);
    const operations = (file: string) =>
      loadSpec(file).then((spec) => [...new Set(authCases(spec).map((c) => c.operation))]);
    const secured = await operations(v11File);
    expect(secured).toHaveLength(15);
    expect(secured).toEqual(expect.arrayContaining(['replacePet', 'updatePet', 'deletePet', 'placeOrder']));
    expect(await operations(publicFile)).toEqual(secured.filter((id) => id !== 'getInventory'));
  });

  it('passes the mock serving that document: each secured operation refuses each wrong key with 401', async () => {
    const verdicts = await authVerdicts(publicFile);
    expect(Object.keys(verdicts)).toHaveLength(14 * 4);
    expect(Object.entries(verdicts).filter(([, verdict]) => verdict !== 'passed')).toEqual([]);
  });

  it('fails it judged by the document where GET /store/inventory needs a key: answered 200 without one', async () => {
    const verdicts = await authVerdicts(v11File);
    const failed = Object.keys(verdicts).filter((id) => verdicts[id] !== 'passed');
    expect(failed.sort()).toEqual(
      ['empty-token', 'invalid-token', 'no-header', 'wrong-scheme'].map((v) => `auth.required/getInventory/${v}`),
    );
    expect(verdicts['auth.required/getInventory/no-header']).toMatch(/^failed: 200 /);
  });
});
