import { describeNeeding } from './describe-needing.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); never a downloaded browser. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const missing = existsSync(chromiumPath)
  ? undefined
  : `Chromium not found at ${chromiumPath}; install it with "apt-get install -y chromium" (or set CHROMIUM_PATH)`;
/** `describe` for tests that need Chromium (see describe-needing.ts). */
export function describeBrowser(name: string, body: () => void): void {
  describeNeeding('Chromium to run in', missing, name, body);
}

// Headless, and quiet on the network: no QUIC, no first-run pages, no background updates or sync. No host name
// resolves except localhost (and 127.0.0.1), so a request to a CDN fails at once instead of reaching it (tests run offline too).
const FLAGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile (its own `--user-data-dir`), removed again on close. */
export async function launchBrowser(): Promise<Browser> {
  if (missing) throw new Error(missing);
  const profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a page did that a test wants to see empty: requests to other origins, errors and console errors. */
export interface PageWatch {
  page: Page;
  /** Requests to any origin not allowed; none can succeed (no host name resolves; see FLAGS). */
  blocked: string[];
  /** Uncaught exceptions and console errors (CSP violations and failed loads included). */
  errors: string[];
}

/**
 * A new page whose requests to anything but `origins` (a CDN, a font host, a telemetry endpoint) are recorded,
 * so a test proves the page works offline and sends nothing elsewhere. Requests are watched, not intercepted:
 * with interception on, Playwright answers CORS preflights itself, and the CORS tests would prove nothing.
 */
export async function openWatchedPage(browser: Browser, origins: string[]): Promise<PageWatch> {
  const page = await browser.context.newPage();
  const watch: PageWatch = { page, blocked: [], errors: [] };
  page.on('request', (request) => {
    const url = request.url();
    if (!origins.some((origin) => url.startsWith(`${origin}/`) || url === origin)) watch.blocked.push(url);
  });
  page.on('pageerror', (error) => watch.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(`console: ${message.text()}`);
  });
  return watch;
}

export type StaticFiles = Record<string, { type: string; body: string }>;

/**
 * A tiny static site on its own port (its own origin), as a dev server like Vite would serve an app. `files` is
 * read on every request, so a test may add pages once it knows the URLs they need.
 */
export async function serveStatic(
  files: StaticFiles,
): Promise<{ origin: string; files: StaticFiles; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = Object.hasOwn(files, path) ? files[path] : undefined;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    files,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
