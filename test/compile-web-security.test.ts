import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runCli } from './support/cli.js';
import { writeSecurityDocument } from './fixtures/security-documents.js';
import type { CompiledDocument } from '../src/mock/compiled-document.js';

/**
 * The browser build on a document with schemes other than HTTP bearer: the checks it loads only then (a dynamic
 * import, weighed apart by scripts/build-web.mjs) are there when the mock starts, and answer as the server's do.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const web = (await import(`${root}dist/web/fetch.js`)) as typeof import('../src/web/fetch.js');
// Inside the package, as compile-web.test.ts's: the module imports petstore-kit/web-formats by the package's name.
const dir = mkdtempSync(join(root, 'test/.compile-web-security-'));
const KEY = 'web-security-key-0123456789';
let close: (() => Promise<void>) | undefined;
afterAll(async () => {
  await close?.();
  rmSync(dir, { recursive: true, force: true });
});

it('checks an apiKey header and a cookie together, and a bearer token with an apiKey in the query', async () => {
  const out = join(dir, 'combination.compiled.js');
  const run = await runCli(['compile-web', '--spec', writeSecurityDocument('combination'), '--out', out]);
  expect(run.stderr).toBe('');
  const compiled = (await import(out)) as CompiledDocument;
  const base = 'https://notes.example.com/v1';
  const petstoreFetch = web.createPetstoreFetch({ compiled, apiKeys: [KEY], baseUrl: base });
  close = () => petstoreFetch.close();
  const post = (headers: Record<string, string>) =>
    petstoreFetch(`${base}/notes`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: '{"text":"page"}',
    });
  expect((await post({ 'X-API-Key': KEY, Cookie: `sid=${KEY}` })).status).toBe(201);
  const half = await post({ 'X-API-Key': KEY });
  expect(half.status).toBe(401);
  expect(half.headers.get('www-authenticate')).toBe(
    'ApiKey realm="petstore", in="header", name="X-API-Key", ApiKey realm="petstore", in="cookie", name="sid"',
  );
  expect(await half.json()).toEqual({
    code: 'unauthorized',
    message: 'the cookie sid is missing; send "Cookie: sid=<API key>"',
    status: 401,
  });
  const bearer = { Authorization: `Bearer ${KEY}` };
  expect((await petstoreFetch(`${base}/notes?appid=${KEY}`, { headers: bearer })).status).toBe(200);
  expect((await petstoreFetch(`${base}/notes`, { headers: bearer })).status).toBe(401);
});
