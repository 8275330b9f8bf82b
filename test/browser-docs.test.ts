import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import type { ServedRequest } from '../src/mock/front-door/observers.js';
import { describeBrowser, launchBrowser, openWatchedPage, type Browser, type PageWatch } from './support/browser.js';

const KEY = 'browser-test-key-7f3a';

describeBrowser('the docs page in Chromium', () => {
  let browser: Browser;
  let server: MockServer;
  let devServer: MockServer;
  const exchanges: ServedRequest[] = [];

  beforeAll(async () => {
    [browser, server, devServer] = await Promise.all([
      launchBrowser(),
      createMockServer({ apiKeys: [KEY] }),
      createMockServer({ apiKeys: [] }),
    ]);
    server.mock.observers.add((exchange) => exchanges.push(exchange));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close(), devServer?.close()]);
  });

  async function openDocs(target: MockServer): Promise<PageWatch> {
    const watch = await openWatchedPage(browser, [target.origin]);
    await watch.page.goto(target.docsUrl);
    await watch.page.locator('.opblock').first().waitFor();
    return watch;
  }

  function operation(watch: PageWatch, id: string) {
    return watch.page.locator(`#operations-animals-${id}`);
  }

  it('loads offline from the mock alone and shows the three operations with the mock as server', async () => {
    const watch = await openDocs(server);
    const { page } = watch;
    expect(await page.title()).toBe('Petstore API · petstore-kit mock');
    const blocks = await page.locator('.opblock').evaluateAll((elements) => elements.map((element) => element.id));
    expect(blocks).toEqual([
      'operations-animals-listPets',
      'operations-animals-createPet',
      'operations-animals-getPet',
    ]);
    await expect.poll(() => operation(watch, 'listPets').locator('.opblock-summary-path').innerText()).toBe('/pets');
    expect(await operation(watch, 'createPet').locator('.opblock-summary-method').innerText()).toBe('POST');
    expect(await operation(watch, 'getPet').getAttribute('class')).toContain('opblock-deprecated');
    expect(await page.locator('.servers select').inputValue()).toBe(server.url);
    expect(watch.blocked).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
  });

  it('tries listPets: 401 before authorizing, 200 with the pets after authorizing with the key', async () => {
    const watch = await openDocs(server);
    const { page } = watch;
    const listPets = operation(watch, 'listPets');
    await listPets.locator('.opblock-summary').click();
    await listPets.locator('.try-out__btn').click();
    await listPets.locator('input[placeholder="limit"]').fill('2');
    const status = listPets.locator('.live-responses-table .response .response-col_status');

    await listPets.locator('.execute').click();
    await expect.poll(() => status.innerText()).toBe('401');
    expect(await listPets.locator('.live-responses-table .response .response-col_description').innerText()).toContain(
      'unauthorized',
    );

    await page.locator('.scheme-container .btn.authorize').click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(KEY);
    await page.locator('.modal-ux .auth-btn-wrapper .authorize').click();
    await page.locator('.modal-ux .btn-done').click();

    exchanges.length = 0;
    await listPets.locator('.execute').click();
    await expect.poll(() => status.innerText()).toBe('200');
    const shown = await listPets.locator('.live-responses-table .response .response-col_description').innerText();
    for (const pet of await server.mock.store.list({ limit: 2 }))
      expect(shown).toContain(`"name": "${String(pet.name)}"`);
    // It was the mock that answered, to a request carrying the key the developer typed.
    expect(
      exchanges.map((e) => [e.request.method, e.request.url, e.request.headers.authorization, e.reply.status]),
    ).toEqual([['GET', '/v1/pets?limit=2', `Bearer ${KEY}`, 200]]);
    expect(watch.blocked).toEqual([]);
    await page.close();
  });

  it('comes pre-authorized with the public development key, and creates a pet from the page', async () => {
    const watch = await openDocs(devServer);
    const createPet = operation(watch, 'createPet');
    await createPet.locator('.opblock-summary').click();
    await createPet.locator('.try-out__btn').click();
    await createPet
      .locator('textarea.body-param__text')
      .fill(JSON.stringify({ name: 'Docsy', categoryId: 4, status: 'pending' }));
    const before = await devServer.mock.store.count();
    await createPet.locator('.execute').click();
    await expect
      .poll(() => createPet.locator('.live-responses-table .response .response-col_status').innerText())
      .toBe('201');
    expect(await devServer.mock.store.count()).toBe(before + 1);
    expect(await createPet.locator('.live-responses-table .response .response-col_description').innerText()).toContain(
      '"name": "Docsy"',
    );
    expect(watch.blocked).toEqual([]);
    expect(watch.errors).toEqual([]);
    await watch.page.close();
  });

  it("stops requests to elsewhere twice: by the page's CSP, and by the guard these tests rely on", async () => {
    const cdn = 'https://cdn.jsdelivr.net/npm/swagger-ui-dist/swagger-ui.css';
    const fetchCdn = (url: string) =>
      fetch(url).then(
        () => 'loaded',
        () => 'failed',
      );
    const docs = await openDocs(server);
    expect(await docs.page.evaluate(fetchCdn, cdn)).toBe('failed');
    expect(docs.blocked).toEqual([]);
    expect(docs.errors.join('\n')).toContain('Content Security Policy');
    await docs.page.close();

    // The document itself carries no CSP: there the guard is what stops the request, and it records it.
    const plain = await openWatchedPage(browser, [server.origin]);
    await plain.page.goto(`${server.docsUrl}/openapi.json`);
    expect(await plain.page.evaluate(fetchCdn, cdn)).toBe('failed');
    expect(plain.blocked).toEqual([cdn]);
    await plain.page.close();
  });
});
