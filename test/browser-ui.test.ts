import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { describeBrowser, launchBrowser, openWatchedPage, serveStatic, type Browser } from './support/browser.js';

const KEY = 'ui-test-key-5b21';

// A pet-list screen as a frontend developer writes it: it shows "loading" while the list is on its way, the pets
// when it arrives, and the API's error message when it fails. `?prefer=` lets the test force a scenario, which the
// app forwards as the mock's Prefer header (the way a dev build wires a scenario switcher).
const appScript = `
const { api, key } = window.APP;
const prefer = new URLSearchParams(location.search).get('prefer');
const headers = { Authorization: 'Bearer ' + key, ...(prefer ? { Prefer: prefer } : {}) };
const status = document.getElementById('status');
async function load() {
  status.textContent = 'loading';
  const response = await fetch(api + '/pets?limit=100', { headers });
  const body = await response.json();
  if (!response.ok) { status.textContent = 'error ' + body.status + ' ' + body.code + ': ' + body.message; return; }
  document.getElementById('pets').replaceChildren(...body.map((pet) => Object.assign(document.createElement('li'), { textContent: pet.name })));
  status.textContent = 'loaded ' + body.length;
}
document.getElementById('add').addEventListener('click', async () => {
  const name = document.getElementById('name').value;
  await fetch(api + '/pets', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
  await load();
});
load();
`;

describeBrowser('a UI test suite using the admin API and scenarios, in Chromium', () => {
  let browser: Browser;
  let mock: MockServer;
  let app: Awaited<ReturnType<typeof serveStatic>>;

  beforeAll(async () => {
    [browser, mock] = await Promise.all([launchBrowser(), createMockServer({ apiKeys: [KEY] })]);
    const page = `<!doctype html><meta charset="utf-8"><title>Pets</title><link rel="icon" href="data:,">
<p id="status"></p><input id="name"><button id="add">Add</button><ul id="pets"></ul>
<script>window.APP = ${JSON.stringify({ api: mock.url, key: KEY })};</script><script type="module" src="/app.js"></script>`;
    app = await serveStatic({
      '/': { type: 'text/html', body: page },
      '/app.js': { type: 'text/javascript', body: appScript },
    });
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), mock?.close(), app?.close()]);
  });

  // What a Playwright suite's beforeEach does: put the mock back to its fixtures over the admin API.
  beforeEach(async () => {
    const response = await fetch(`${mock.origin}/__admin/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(200);
  });

  async function open(query = '') {
    const watch = await openWatchedPage(browser, [app.origin, mock.origin]);
    await watch.page.goto(`${app.origin}/${query}`);
    return watch;
  }

  it('adds a pet through the UI', async () => {
    const { page, errors } = await open();
    await page.waitForSelector('#status:text-matches("^loaded")');
    const before = await page.locator('#pets li').count();
    await page.fill('#name', 'Added In UI');
    await page.click('#add');
    await page.waitForSelector('#pets li:text("Added In UI")');
    expect(await page.locator('#pets li').count()).toBe(before + 1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('starts the next test from the fixtures again, thanks to the reset', async () => {
    const { page } = await open();
    await page.waitForSelector('#status:text-matches("^loaded")');
    expect(await page.locator('#pets li:text("Added In UI")').count()).toBe(0);
    expect(await page.textContent('#status')).toBe(`loaded ${await mock.mock.store.count()}`);
    await page.close();
  });

  it('shows the error screen when the scenario forces a 401', async () => {
    const { page } = await open('?prefer=code%3D401');
    await page.waitForSelector('#status:text-matches("^error")');
    expect(await page.textContent('#status')).toMatch(/^error 401 unauthorized: /);
    expect(await page.locator('#pets li').count()).toBe(0);
    await page.close();
  });

  it('shows the loading state while the scenario slows the answer down', async () => {
    mock.clearJournal();
    const { page } = await open('?prefer=delay%3D800');
    await page.waitForSelector('#status:text("loading")');
    // Ordered by events, not by a clock: while the page says "loading", the mock has not answered the list yet
    // (the journal records a request when its answer is ready).
    expect(mock.journal({ operation: 'listPets' })).toEqual([]);
    await page.waitForSelector('#status:text-matches("^loaded")', { timeout: 10_000 });
    expect(mock.journal({ operation: 'listPets' })).toMatchObject([
      { status: 200, query: { limit: expect.any(String) } },
    ]);
    await page.close();
  });
});
