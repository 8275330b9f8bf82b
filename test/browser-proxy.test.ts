import { afterAll, beforeAll, expect, it } from 'vitest';
import { createProxyServer, type ProxyServer } from '../src/proxy/create-proxy-server.js';
import type { ServedRequest } from '../src/mock/front-door/observers.js';
import { startIndependentPetstore, type IndependentPetstore } from './targets/independent-petstore.js';
import { describeBrowser, launchBrowser, openWatchedPage, serveStatic, type Browser } from './support/browser.js';

const KEY = 'staging-browser-key-0c7e';

// A frontend app pointed at the proxy instead of staging: list, create, read back, and show what the proxy says
// about each answer. Bearer key and JSON body, so the browser preflights.
const appScript = `
const { api, key } = window.APP;
const headers = { Authorization: 'Bearer ' + key };
const seen = [];
async function call(path, init) {
  const response = await fetch(api + path, { ...init, headers: { ...headers, ...(init && init.headers) } });
  const body = await response.json();
  seen.push([response.status, response.headers.get('Petstore-Kit-Source'), response.headers.get('Petstore-Kit-Violations')].join(' '));
  return body;
}
async function main() {
  const pets = await call('/pets?limit=3');
  const created = await call('/pets', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Browser Pup', categoryId: 2 }) });
  const fetched = await call('/pets/' + created.id);
  document.getElementById('result').textContent = pets.length + ' listed; created ' + created.name + '; fetched ' + fetched.name;
  document.getElementById('seen').textContent = seen.join(' | ');
}
main().then(() => { document.body.dataset.state = 'done'; }, (error) => { document.getElementById('error').textContent = String(error); document.body.dataset.state = 'failed'; });
`;

describeBrowser('a frontend app on another origin, through the proxy, in Chromium', () => {
  let browser: Browser;
  let upstream: IndependentPetstore;
  let proxy: ProxyServer;
  let app: Awaited<ReturnType<typeof serveStatic>>;
  const exchanges: ServedRequest[] = [];

  beforeAll(async () => {
    // The upstream answers getPet with the id as a string: the app still works, and can read the violation header.
    [browser, upstream] = await Promise.all([
      launchBrowser(),
      startIndependentPetstore({ key: KEY, fault: 'getPet-id-as-string' }),
    ]);
    proxy = await createProxyServer({ upstream: upstream.url, apiKeys: [KEY], onLog: () => undefined });
    proxy.mock.observers.add((served) => exchanges.push(served));
    app = await serveStatic({
      '/': {
        type: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><title>app</title><link rel="icon" href="data:,"><p id="result"></p><p id="seen"></p><p id="error"></p><script>window.APP = ${JSON.stringify({ api: proxy.url, key: KEY })};</script><script type="module" src="/app.js"></script>`,
      },
      '/app.js': { type: 'text/javascript', body: appScript },
    });
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), proxy?.close(), upstream?.close(), app?.close()]);
  });

  it('works through real preflights, and the app can read the source and violation headers', async () => {
    const watch = await openWatchedPage(browser, [app.origin, proxy.origin]);
    await watch.page.goto(`${app.origin}/`);
    await watch.page.waitForSelector('body[data-state]');
    expect(await watch.page.locator('#error').innerText()).toBe('');
    expect(await watch.page.locator('#result').innerText()).toBe('3 listed; created Browser Pup; fetched Browser Pup');
    expect(await watch.page.locator('#seen').innerText()).toBe(
      '200 upstream | 201 upstream | 200 upstream 1; schema.response',
    );
    const preflights = exchanges.filter((e) => e.request.method === 'OPTIONS');
    expect(preflights.length).toBeGreaterThanOrEqual(1);
    expect(preflights.every((e) => e.reply.status === 204 && e.request.headers.authorization === undefined)).toBe(true);
    // Preflights are answered by the proxy, never forwarded: the upstream saw the three calls only.
    expect(upstream.requests.filter((r) => r.startsWith('OPTIONS'))).toEqual([]);
    expect(upstream.requests).toHaveLength(3);
    expect(watch.blocked).toEqual([]);
    expect(watch.errors).toEqual([]);
    await watch.page.close();
  });
});
