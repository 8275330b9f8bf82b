import { describe, expect, it } from 'vitest';
import { importsOf } from './support/imports-of.js';

// The built entries, as users import them (npm test builds first).
const entry = new URL('../dist/index.js', import.meta.url);
const contractEntry = new URL('../dist/contract/index.js', import.meta.url);

const isTestRunner = (url: string) => /[/\\]node_modules[/\\](vitest|vite|@vitest)[/\\]/.test(url);
const isPrism = (url: string) => /[/\\]node_modules[/\\]@stoplight[/\\]prism-http[/\\]/.test(url);

describe("import 'petstore-kit'", () => {
  it('loads no test runner: neither vitest nor vite', async () => {
    const loaded = await importsOf(entry);
    expect(loaded.some((url) => url.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter(isTestRunner)).toEqual([]);
  });

  it('is seen to load vitest where it does: the contract engine (so the check above has teeth)', async () => {
    const loaded = await importsOf(contractEntry);
    expect(loaded.filter(isTestRunner).length).toBeGreaterThan(0);
  });

  it('loads prism-http only for a document with an operation no handler serves, when one is first asked', async () => {
    const plain = await importsOf(entry, 'const mock = await lib.createMock(); await mock.close();');
    expect(plain.filter(isTestRunner)).toEqual([]);
    expect(plain.filter(isPrism)).toEqual([]);
    const withOrders = await importsOf(
      entry,
      `const { parse } = await import('yaml');
       const { readFileSync } = await import('node:fs');
       const document = parse(readFileSync('openapi.yaml', 'utf8'));
       document.paths['/store/orders'] = { get: { operationId: 'listOrders', responses: { 200: { description: 'orders', content: { 'application/json': { schema: { type: 'array', items: { type: 'integer' } } } } } } } };
       const mock = await lib.createMock({ spec: document });
       await mock.close();`,
    );
    // Not at start: prism-http is a second of CPU and 100 MB a document whose every operation has a handler, or a
    // run that never asks such an operation, does without (docs/mock.md, "What fits no role").
    expect(withOrders.filter(isPrism)).toEqual([]);
    const askedOrders = await importsOf(
      entry,
      `const { parse } = await import('yaml');
       const { readFileSync } = await import('node:fs');
       const { Readable } = await import('node:stream');
       const document = parse(readFileSync('openapi.yaml', 'utf8'));
       document.paths['/store/orders'] = { get: { operationId: 'listOrders', responses: { 200: { description: 'orders', content: { 'application/json': { schema: { type: 'array', items: { type: 'integer' } } } } } } } };
       const mock = await lib.createMock({ spec: document, apiKeys: ['library-entry-key'] });
       const reply = await mock.dispatch({ method: 'GET', url: '/v1/store/orders', headers: { authorization: 'Bearer library-entry-key' }, body: Readable.from([]), mountPath: '' });
       if (reply.status !== 200) throw new Error('listOrders answered ' + reply.status);
       await mock.close();`,
    );
    expect(askedOrders.filter(isPrism).length).toBeGreaterThan(0);
  });
});
