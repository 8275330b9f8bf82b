import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
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

// A real Chromium loads a page bundled with the package, MSW's service worker intercepts its
// fetch calls, and the page sees a pet it created come back in the list and by id, a wrong key refused with the
// Error body, and reset() take effect — with no mock server running. The page is bundled here as an app's bundler
// would: `petstore-kit/msw` resolved through package.json's "browser" condition (dist/web), msw from node_modules.
// The page's set-up is README's, as written.
const root = fileURLToPath(new URL('../', import.meta.url));
const KEY = 'petstore-dev-key';

/** README's browser set-up as written, its base URL moved to a port nothing listens on (`api` in the page's query). */
function readmeSetup(): string {
  const block = /```ts\n(import \{ setupWorker \}[\s\S]*?)```/.exec(section('### In the browser and in tests'))![1]!;
  expect(block).toContain("petstoreHandlers({ apiKeys: ['petstore-dev-key'] })");
  return block.replace(
    'petstoreHandlers({ ',
    "petstoreHandlers({ baseUrl: new URLSearchParams(location.search).get('api'), ",
  );
}

/** The app: README's set-up, then a client that knows nothing of MSW, and the handle for the test to call. */
const PAGE = `${readmeSetup()}
const baseUrl = new URLSearchParams(location.search).get('api');
async function call(method, path, { key = ${JSON.stringify(KEY)}, body } = {}) {
  const headers = key === null ? {} : { Authorization: 'Bearer ' + key };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), body: text ? JSON.parse(text) : null };
}
window.app = { call, handlers: petstore, started: petstore.ready.then(() => 'started') };
`;

/** The page bundled with the package as a page's bundler would (rolldown, the browser platform). */
async function bundlePage(): Promise<Record<string, { type: string; body: string }>> {
  // A module that lives (virtually) in test/: msw from node_modules, `petstore-kit/…` as package.json's exports
  // map it for a browser (what a page's bundler does for an installed package).
  const entry = `${root}test/browser-msw-page.js`;
  const exportsMap = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).exports as Record<
    string,
    { browser?: string }
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
          if (importer !== entry) return null;
          if (id.startsWith('petstore-kit/'))
            return `${root}${exportsMap[`./${id.slice('petstore-kit/'.length)}`]!.browser!}`;
          return this.resolve(id, fileURLToPath(import.meta.url), { skipSelf: true });
        },
        load: (id) => (id === entry ? PAGE : null),
      },
    ],
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  // The entry and the chunks it imports when it needs them (the checks of security schemes other than bearer).
  const chunks = output.filter((chunk) => chunk.type === 'chunk');
  const code = chunks.map((chunk) => chunk.code).join('\n');
  // The browser build, not the Node entry: it carries the compiled document, and no YAML parser or AJV compiler.
  // The browser build, not the Node entry: the compiled document, and no YAML parser, AJV compiler or Node module.
  const modules = [...code.matchAll(/^\/\/ (\S+)$/gm)].map((match) => match[1]!);
  expect(modules).toContain('dist/web/compiled-spec.js');
  expect(modules.filter((module) => /swagger-parser|^node_modules\/ajv\/|load-spec|create-mock/.test(module))).toEqual(
    [],
  );
  return Object.fromEntries(
    chunks.map((chunk) => [
      chunk.isEntry ? '/app.js' : `/${chunk.fileName}`,
      { type: 'text/javascript', body: chunk.code },
    ]),
  );
}

/** Whether anything accepts a connection on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describeBrowser("petstore-kit/msw in Chromium, through MSW's service worker", () => {
  let browser: Browser;
  let site: Awaited<ReturnType<typeof serveStatic>>;
  let watch: PageWatch;
  let api: string;
  let apiPort: number;

  beforeAll(async () => {
    const page = await bundlePage();
    site = await serveStatic({
      '/': {
        type: 'text/html',
        body: '<!doctype html><title>app</title><script type="module" src="/app.js"></script>',
      },
      ...page,
      '/mockServiceWorker.js': {
        type: 'text/javascript',
        body: readFileSync(`${root}node_modules/msw/lib/mockServiceWorker.js`, 'utf8'),
      },
    });
    // The API's address: a port nothing listens on, so only the worker can answer.
    apiPort = await freePort();
    api = `http://127.0.0.1:${apiPort}/v1`;
    browser = await launchBrowser();
    watch = await openWatchedPage(browser, [site.origin, `http://127.0.0.1:${apiPort}`]);
    await watch.page.goto(`${site.origin}/?api=${encodeURIComponent(api)}`);
    // README's set-up awaits the worker's start at the top level: the app exists once the worker is running.
    await watch.page.waitForFunction(() => (globalThis as unknown as { app?: unknown }).app !== undefined, undefined, {
      timeout: 30_000,
    });
    expect(
      await watch.page.evaluate(() => (globalThis as unknown as { app: { started: Promise<string> } }).app.started),
    ).toBe('started');
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  type Answer = { status: number; contentType: string | null; body: unknown };
  const call = (method: string, path: string, options: { key?: string | null; body?: unknown } = {}) =>
    watch.page.evaluate(
      ([m, p, o]) =>
        (globalThis as unknown as { app: { call(m: string, p: string, o: object): Promise<Answer> } }).app.call(
          m,
          p,
          o,
        ),
      [method, path, options] as const,
    );

  it('a pet created in the page comes back in the list and by id; a wrong key gets the Error body and stores nothing; reset() takes effect', async () => {
    expect(await listening(apiPort)).toBe(false);
    const seeded = await call('GET', '/pets?limit=100');
    expect(seeded.status).toBe(200);
    expect(seeded.body).toHaveLength(57);

    const created = await call('POST', '/pets', { body: { name: 'Pixel', categoryId: 4, status: 'pending' } });
    expect(created).toEqual({
      status: 201,
      contentType: 'application/json',
      body: { id: 58, name: 'Pixel', categoryId: 4, status: 'pending' },
    });
    const listed = (await call('GET', '/pets?limit=100&status=pending')).body as { id: number }[];
    expect(listed.at(-1)).toEqual({ id: 58, name: 'Pixel', categoryId: 4, status: 'pending' });
    expect(await call('GET', '/pets/58')).toEqual({
      status: 200,
      contentType: 'application/json',
      body: { id: 58, name: 'Pixel', categoryId: 4, status: 'pending' },
    });

    const refused = await call('POST', '/pets', { key: 'not-the-key', body: { name: 'Intruder', categoryId: 1 } });
    expect(refused).toEqual({
      status: 401,
      contentType: 'application/json',
      body: { code: 'unauthorized', message: 'the API key is not valid', status: 401 },
    });
    expect(await call('GET', '/pets', { key: null })).toMatchObject({
      status: 401,
      body: { code: 'unauthorized', status: 401 },
    });
    expect(((await call('GET', '/pets?limit=100')).body as unknown[]).length).toBe(58);

    const invalid = await call('GET', '/pets?limit=101');
    expect(invalid).toEqual({
      status: 400,
      contentType: 'application/json',
      body: { code: 'invalid_parameter', message: 'query.limit must be <= 100', status: 400 },
    });

    await watch.page.evaluate(() =>
      (globalThis as unknown as { app: { handlers: { reset(): Promise<void> } } }).app.handlers.reset(),
    );
    expect(await call('GET', '/pets/58')).toMatchObject({ status: 404, body: { code: 'not_found', status: 404 } });
    expect(((await call('GET', '/pets?limit=100')).body as unknown[]).length).toBe(57);

    // The mock in the page answered every call (its journal), and still nothing listens on the API's port.
    const journal = await watch.page.evaluate(() =>
      (
        globalThis as unknown as {
          app: {
            handlers: { journal(): Promise<{ method: string; status: number; validation: { valid: boolean } }[]> };
          };
        }
      ).app.handlers.journal(),
    );
    // Newest first; every answer judged against the document in the page, all valid.
    expect(journal.map((entry) => `${entry.method} ${entry.status}`)).toEqual([
      'GET 200',
      'GET 404',
      'GET 400',
      'GET 200',
      'GET 401',
      'POST 401',
      'GET 200',
      'GET 200',
      'POST 201',
      'GET 200',
    ]);
    expect(journal.every((entry) => entry.validation.valid)).toBe(true);
    expect(await listening(apiPort)).toBe(false);
    expect(
      watch.errors.filter((error) => !error.includes('401') && !error.includes('404') && !error.includes('400')),
    ).toEqual([]);
  }, 60_000);
});
