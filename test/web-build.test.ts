import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { section } from './support/docs.js';
import type { PetstoreFetchOptions } from '../src/fetch/index.js';
import { PORTABLE_STORE_BYTES } from '../src/mock/base/store-bytes.js';

// The browser build is weighed in every build (scripts/build-web.mjs fails past its budget), and docs quote
// the budget and the weight; it refuses, by name, the options that need files or a server.
const root = fileURLToPath(new URL('../', import.meta.url));
const size = JSON.parse(readFileSync(`${root}dist/web/size.json`, 'utf8')) as {
  budgetKb: number;
  msw: { gzipBytes: number };
  fetch: { gzipBytes: number };
  webFormats: { gzipBytes: number };
  mswLoadedWhenNeeded: { gzipBytes: number };
  mswBodyReaders: { gzipBytes: number };
};
const web = (await import(`${root}dist/web/fetch.js`)) as typeof import('../src/web/fetch.js');

describe('the browser build', () => {
  it('weighs what docs say, within the budget the build script holds it to', () => {
    const budget = Number(
      /export const BUDGET_KB = (\d+);/.exec(readFileSync(`${root}scripts/build-web.mjs`, 'utf8'))![1],
    );
    expect(size.budgetKb).toBe(budget);
    expect(size.msw.gzipBytes).toBeLessThanOrEqual(budget * 1024);
    expect(size.fetch.gzipBytes).toBeLessThanOrEqual(budget * 1024);
    const text = section('## In the browser and in tests without a server').replace(/\s+/g, ' ');
    expect(text).toContain(`a budget of ${budget} KiB minified and gzipped`);
    expect(text).toContain(`it weighs ${(size.msw.gzipBytes / 1024).toFixed(1)} KiB`);
    // The checks of security schemes other than HTTP bearer, loaded only by a document that has one.
    expect(size.mswLoadedWhenNeeded.gzipBytes).toBeGreaterThan(0);
    expect(text).toContain(`loads their checks, ${(size.mswLoadedWhenNeeded.gzipBytes / 1024).toFixed(1)} KiB more`);
    // The readers of form, multipart and other non-JSON bodies, loaded only by a document that declares one.
    expect(size.mswBodyReaders.gzipBytes).toBeGreaterThan(0);
    expect(text).toContain(`loads their readers, ${(size.mswBodyReaders.gzipBytes / 1024).toFixed(1)} KiB more`);
    expect(text).toContain(`byte budget (\`maxStoreBytes\`) is ${PORTABLE_STORE_BYTES / 1024 / 1024} MiB unless given`);
    // petstore-kit/web-formats, which only a compiled document of a team's own loads, weighed apart.
    const another = section('### Another document in the browser').replace(/\s+/g, ' ');
    expect(another).toContain(
      `${(size.webFormats.gzipBytes / 1024).toFixed(1)} KiB gzipped, loaded only by a compiled module`,
    );
  });

  it("carries the resource model of the package's document, built when the package was built", async () => {
    const { resources } = (await import(`${root}dist/web/compiled-spec.js`)) as { resources: unknown };
    const { loadSpec } = await import('../src/openapi/load-spec.js');
    const spec = await loadSpec();
    // Each schema of the model is shipped as a reference to where it is written; the page resolves it again.
    const asShipped: unknown = JSON.parse(
      JSON.stringify(spec.resources, (key, value: unknown) =>
        key !== '' && typeof value === 'object' && value !== null && spec.pointerOf.has(value)
          ? { $ref: spec.pointerOf.get(value) }
          : value,
      ),
    );
    expect(resources).toEqual(asShipped);
  });

  it.for([
    [
      { spec: 'openapi.yaml' },
      /^spec: the browser build parses no OpenAPI document; compile yours with "petstore-kit compile-web"/,
    ],
    [
      { fixtures: 'fixtures/pets.json' },
      /^fixtures: the browser build reads no files; pass the Pet records themselves$/,
    ],
    [{ state: 'state.json' }, /^state: the browser build keeps its pets in memory/],
    [{ store: 'redis://127.0.0.1:6379' }, /^store: the browser build has the memory store only/],
  ] as [PetstoreFetchOptions, RegExp][])('refuses %o by name, and answers nothing', async ([options, message]) => {
    const petstoreFetch = web.createPetstoreFetch(options);
    await expect(petstoreFetch.ready).rejects.toThrow(message);
    await expect(
      petstoreFetch('http://127.0.0.1:4010/v1/pets', { headers: { Authorization: 'Bearer petstore-dev-key' } }),
    ).rejects.toThrow(message);
  });

  it("takes fixtures as records, checked against the Pet schema like the server's", async () => {
    const pets = [{ id: 7, name: 'Only', categoryId: 1 }];
    const petstoreFetch = web.createPetstoreFetch({ fixtures: pets });
    const answer = await petstoreFetch('http://127.0.0.1:4010/v1/pets', {
      headers: { Authorization: 'Bearer petstore-dev-key' },
    });
    expect(await answer.json()).toEqual(pets);
    const bad = web.createPetstoreFetch({ fixtures: [{ id: 1, name: 5, categoryId: 1 }] as never });
    await expect(bad.ready).rejects.toThrow('fixtures: record 0 (id 1): pet.name must be a string');
  });
});
