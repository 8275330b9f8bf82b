import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import type { ServedRequest } from '../src/mock/front-door/observers.js';
import {
  describeBrowser,
  launchBrowser,
  openWatchedPage,
  serveStatic,
  type Browser,
  type StaticFiles,
} from './support/browser.js';

const KEY = 'frontend-app-key-19c2';

// A small frontend app as a developer would write it against the mock: list pets, create one, read its Location,
// fetch it, and list again. Plain fetch with a bearer key and a JSON body, so the browser preflights the requests.
const appScript = `
const { api, key } = window.APP;
const headers = { Authorization: 'Bearer ' + key };
const show = (id, text) => { document.getElementById(id).textContent = text; };
function render(id, pets) {
  const list = document.getElementById(id);
  list.replaceChildren(...pets.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.id + ' ' + pet.name })));
}
async function json(response) {
  const body = await response.json();
  if (!response.ok) throw new Error(response.status + ' ' + body.code + ': ' + body.message);
  return body;
}
async function main() {
  render('pets', await json(await fetch(api + '/pets?limit=5', { headers })));
  const response = await fetch(api + '/pets', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Vite Pup', categoryId: 2, status: 'available' }),
  });
  const created = await json(response);
  const location = response.headers.get('Location');
  show('created', created.id + ' ' + created.name + ' at ' + location);
  const fetched = await fetch(new URL(location, api).href, { headers });
  show('fetched', (await json(fetched)).name + '; Deprecation: ' + fetched.headers.get('Deprecation'));
  render('after', await json(await fetch(api + '/pets?limit=100', { headers })));
}
main().then(() => { document.body.dataset.state = 'done'; }, (error) => { show('error', String(error)); document.body.dataset.state = 'failed'; });
`;

function appPage(api: string): string {
  return `<!doctype html><meta charset="utf-8"><title>Pets app</title><link rel="icon" href="data:,">
<ul id="pets"></ul><p id="created"></p><p id="fetched"></p><ul id="after"></ul><p id="error"></p>
<script>window.APP = ${JSON.stringify({ api, key: KEY })};</script>
<script type="module" src="/app.js"></script>`;
}

describeBrowser('a frontend app on another origin, in Chromium', () => {
  let browser: Browser;
  let open: MockServer;
  let strict: MockServer;
  let app: Awaited<ReturnType<typeof serveStatic>>;
  let appForStrict: Awaited<ReturnType<typeof serveStatic>>;
  const exchanges: ServedRequest[] = [];

  beforeAll(async () => {
    [browser, open] = await Promise.all([launchBrowser(), createMockServer({ apiKeys: [KEY] })]);
    app = await serveStatic({
      '/': { type: 'text/html', body: appPage(open.url) },
      '/app.js': { type: 'text/javascript', body: appScript },
    });
    // A mock allowing one origin only, as `--cors-origin` would configure it: the same app on the same origin works.
    const strictFiles: StaticFiles = { '/app.js': { type: 'text/javascript', body: appScript } };
    appForStrict = await serveStatic(strictFiles);
    strict = await createMockServer({ apiKeys: [KEY], cors: { origins: [appForStrict.origin] } });
    strictFiles['/'] = { type: 'text/html', body: appPage(strict.url) };
    // The first app's origin is not on the strict mock's list.
    app.files['/strict'] = { type: 'text/html', body: appPage(strict.url) };
    open.mock.observers.add((exchange) => exchanges.push(exchange));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), open?.close(), strict?.close(), app?.close(), appForStrict?.close()]);
  });

  async function runApp(appOrigin: string, mock: MockServer, pageUrl = `${appOrigin}/`) {
    const watch = await openWatchedPage(browser, [appOrigin, mock.origin]);
    await watch.page.goto(pageUrl);
    await watch.page.waitForSelector('body[data-state]');
    return watch;
  }

  it('lists pets and creates one with the bearer key through real CORS preflights', async () => {
    expect(new URL(app.origin).port).not.toBe(new URL(open.origin).port);
    const watch = await runApp(app.origin, open);
    const { page } = watch;
    expect(await page.locator('#error').innerText()).toBe('');
    expect(await page.locator('body').getAttribute('data-state')).toBe('done');
    const listed = await page.locator('#pets li').allInnerTexts();
    expect(listed).toEqual(
      (await open.mock.store.list({ limit: 5 })).map((pet) => `${String(pet.id)} ${String(pet.name)}`),
    );
    const created = (await open.mock.store.list({ limit: 100 })).find((pet) => pet.name === 'Vite Pup');
    expect(created).toBeDefined();
    const createdId = String(created!.id);
    expect(await page.locator('#created').innerText()).toBe(`${createdId} Vite Pup at /v1/pets/${createdId}`);
    expect(await page.locator('#fetched').innerText()).toMatch(/^Vite Pup; Deprecation: @\d+$/);
    expect(await page.locator('#after li').allInnerTexts()).toContain(`${createdId} Vite Pup`);

    // The browser asked first (OPTIONS without a key), then sent the key on the real requests.
    const preflights = exchanges.filter((e) => e.request.method === 'OPTIONS');
    expect(preflights.length).toBeGreaterThanOrEqual(1);
    expect(preflights.every((e) => e.reply.status === 204 && e.request.headers.authorization === undefined)).toBe(true);
    expect(preflights.some((e) => e.request.headers['access-control-request-method'] === 'POST')).toBe(true);
    const calls = exchanges.filter((e) => e.request.method !== 'OPTIONS');
    expect(calls.map((e) => [e.request.method, e.reply.status, e.request.headers.origin])).toEqual([
      ['GET', 200, app.origin],
      ['POST', 201, app.origin],
      ['GET', 200, app.origin],
      ['GET', 200, app.origin],
    ]);
    expect(calls.every((e) => e.request.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(watch.blocked).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it('works when the mock allows only that origin, and the browser refuses an origin it does not allow', async () => {
    const allowed = await runApp(appForStrict.origin, strict);
    expect(await allowed.page.locator('#error').innerText()).toBe('');
    expect(await allowed.page.locator('#pets li').count()).toBe(5);
    expect(allowed.errors).toEqual([]);
    await allowed.page.close();

    const before = await strict.mock.store.count();
    const refused = await runApp(app.origin, strict, `${app.origin}/strict`);
    expect(await refused.page.locator('body').getAttribute('data-state')).toBe('failed');
    expect(await refused.page.locator('#error').innerText()).toBe('TypeError: Failed to fetch');
    expect(refused.errors.join('\n')).toContain('blocked by CORS policy');
    expect(await strict.mock.store.count()).toBe(before);
    await refused.page.close();
  });
});
