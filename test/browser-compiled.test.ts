import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import {
  describeBrowser,
  launchBrowser,
  openWatchedPage,
  serveStatic,
  type Browser,
  type PageWatch,
} from './support/browser.js';
import { freePort } from './support/free-port.js';
import { section } from './support/docs.js';
import { runCli } from './support/cli.js';

// docs/mock.md "Another document in the browser", run as written in a real Chromium: its compile-web command on the
// v1.1 document, then its page (bundled as an app's bundler would: `petstore-kit/…` through package.json's browser
// condition, the compiled module beside it), whose requests MSW's service worker answers from the compiled
// document. The page logs what the example says it logs; then the test drives PUT, PATCH, DELETE and a pet's photos
// through the same page, and the mock's journal, judged in the page, must hold every answer valid.
const root = fileURLToPath(new URL('../', import.meta.url));
const KEY = 'petstore-dev-key';
const example = section('### Another document in the browser');
const command = /```sh\nnpx petstore-kit (compile-web .*)\n```/.exec(example)![1]!;
const setup = /```ts\n([\s\S]*?)```/.exec(example)![1]!;

let dir: string;
let compiledFile: string;

/** The example's page, its API moved to a port nothing listens on (`api` in the page's query), and a handle. */
function page(): string {
  expect(setup).toContain("petstoreHandlers({ compiled, apiKeys: ['petstore-dev-key'] })");
  const moved = setup
    .replace('petstoreHandlers({ ', 'petstoreHandlers({ baseUrl: api, ')
    .replaceAll("'http://127.0.0.1:4010/v1/", "api + '/");
  return `const api = new URLSearchParams(location.search).get('api');
${moved}
async function call(method, path, body, contentType = 'application/json') {
  const headers = { Authorization: 'Bearer ${KEY}' };
  if (body !== undefined) headers['Content-Type'] = contentType;
  const response = await fetch(api + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
window.app = { call, handlers: petstore };
`;
}

/** The page bundled with the package and the compiled module, as a page's bundler would (rolldown, the browser). */
async function bundlePage(): Promise<Record<string, { type: string; body: string }>> {
  const entry = `${root}test/browser-compiled-page.js`;
  const exportsMap = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).exports as Record<
    string,
    { browser?: string; default: string }
  >;
  const bundle = await rolldown({
    input: entry,
    platform: 'browser',
    logLevel: 'silent',
    plugins: [
      {
        name: 'page',
        resolveId(id, importer) {
          if (id === entry) return id;
          if (id === './petstore.compiled.js' && importer === entry) return compiledFile;
          if (id.startsWith('petstore-kit/')) {
            const target = exportsMap[`./${id.slice('petstore-kit/'.length)}`]!;
            return `${root}${target.browser ?? target.default}`;
          }
          if (importer === entry || importer === compiledFile)
            return this.resolve(id, fileURLToPath(import.meta.url), { skipSelf: true });
          return null;
        },
        load: (id) => (id === entry ? page() : null),
      },
    ],
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  // The entry and the chunks it imports when it needs them (the checks of security schemes other than bearer).
  const chunks = output.filter((chunk) => chunk.type === 'chunk');
  const code = chunks.map((chunk) => chunk.code).join('\n');
  // The compiled v1.1 document, and no YAML parser, AJV compiler or model builder.
  const modules = [...code.matchAll(/^\/\/ (\S+)$/gm)].map((match) => match[1]!);
  expect(modules.some((module) => module.endsWith('petstore.compiled.js'))).toBe(true);
  expect(modules).toContain('dist/web/web-formats.js');
  expect(
    modules.filter((module) =>
      /swagger-parser|^node_modules\/ajv\/dist\/(core|compile)|load-spec|resource-model/.test(module),
    ),
  ).toEqual([]);
  return Object.fromEntries(
    chunks.map((chunk) => [
      chunk.isEntry ? '/app.js' : `/${chunk.fileName}`,
      { type: 'text/javascript', body: chunk.code },
    ]),
  );
}

describeBrowser('another document in Chromium: the compiled v1.1 module through MSW', () => {
  let browser: Browser;
  let site: Awaited<ReturnType<typeof serveStatic>>;
  let watch: PageWatch;
  const logs: string[] = [];

  beforeAll(async () => {
    // The page's command as written, its module written inside the package (petstore-kit/web-formats resolves).
    dir = mkdtempSync(join(root, 'test/.compile-web-'));
    const args = command.split(' ');
    const out = args.indexOf('--out') + 1;
    expect(basename(args[out]!)).toBe('petstore.compiled.js');
    compiledFile = join(dir, 'petstore.compiled.js');
    args[out] = compiledFile;
    const run = await runCli(args, {}, root);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    site = await serveStatic({
      '/': {
        type: 'text/html',
        body: '<!doctype html><title>app</title><script type="module" src="/app.js"></script>',
      },
      ...(await bundlePage()),
      '/mockServiceWorker.js': {
        type: 'text/javascript',
        body: readFileSync(`${root}node_modules/msw/lib/mockServiceWorker.js`, 'utf8'),
      },
    });
    const port = await freePort();
    browser = await launchBrowser();
    watch = await openWatchedPage(browser, [site.origin, `http://127.0.0.1:${port}`]);
    watch.page.on('console', (message) => {
      if (message.type() === 'log') logs.push(message.text());
    });
    await watch.page.goto(`${site.origin}/?api=${encodeURIComponent(`http://127.0.0.1:${port}/v1`)}`);
    await watch.page.waitForFunction(() => (globalThis as unknown as { app?: unknown }).app !== undefined, undefined, {
      timeout: 30_000,
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  type Answer = { status: number; body: any };
  const call = (method: string, path: string, body?: unknown, contentType?: string) =>
    watch.page.evaluate(
      ([m, p, b, c]) =>
        (
          globalThis as unknown as { app: { call(m: string, p: string, b: unknown, c?: string): Promise<Answer> } }
        ).app.call(m, p, b, c),
      [method, path, body, contentType] as const,
    );

  it('answers the example as the page says, then every role of the v1.1 document, each answer valid', async () => {
    const said = /console\.log\([^)]*\)\); \/\/ (.+)$/m.exec(setup)![1]!;
    // MSW logs its own start-up lines; the example's is the one that starts with a status.
    expect(logs.filter((line) => /^\d{3} /.test(line))).toEqual([said]);

    const pet = await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag: 'brown' });
    expect(pet).toEqual({ status: 201, body: { id: 58, name: 'Rex', categoryId: 1, tag: 'brown' } });
    expect((await call('GET', '/pets?tag=brown')).body).toEqual([pet.body]);
    expect(await call('PUT', '/pets/58', { name: 'Rex II', categoryId: 2 })).toEqual({
      status: 200,
      body: { id: 58, name: 'Rex II', categoryId: 2 },
    });
    expect(await call('PATCH', '/pets/58', { status: 'sold' }, 'application/merge-patch+json')).toEqual({
      status: 200,
      body: { id: 58, name: 'Rex II', categoryId: 2, status: 'sold' },
    });
    expect((await call('PATCH', '/pets/58', { tag: 'x'.repeat(41) }, 'application/merge-patch+json')).status).toBe(400);
    const photo = await call('POST', '/pets/58/photos', { url: 'https://img.example/rex.png' });
    expect(photo).toEqual({ status: 201, body: { id: 1, petId: 58, url: 'https://img.example/rex.png' } });
    expect((await call('GET', '/pets/58/photos')).body).toEqual([photo.body]);
    expect((await call('GET', '/store/orders?status=placed')).body).toEqual([]);
    expect((await call('GET', '/store/orders/1')).body).toMatchObject({ id: 1, petId: 1, quantity: 2 });
    expect((await call('DELETE', '/pets/58')).status).toBe(204);
    expect((await call('GET', '/pets/58')).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await call('GET', '/pets/58/photos')).status).toBe(404);
    expect(await call('GET', '/store/inventory')).toMatchObject({ status: 501, body: { code: 'not_implemented' } });

    const journal = await watch.page.evaluate(() =>
      (
        globalThis as unknown as {
          app: { handlers: { journal(): Promise<{ status: number; validation: { valid: boolean } | null }[]> } };
        }
      ).app.handlers.journal(),
    );
    // Every answer the document declares judged valid in the page (the 501 is the page's own, not the document's).
    expect(journal).toHaveLength(14);
    expect(journal.filter((entry) => entry.status !== 501 && entry.validation?.valid !== true)).toEqual([]);
    expect(watch.blocked).toEqual([]);
    // The browser reports the 4xx and 5xx answers it fetched; nothing else may be in the console.
    expect(watch.errors.filter((error) => !/status of (400|404|501)/.test(error))).toEqual([]);
  }, 60_000);
});
