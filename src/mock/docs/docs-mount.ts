import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Spec } from '../../openapi/load-spec.js';
import type { Action, Call, Mount } from '../front-door/route-table.js';
import type { Reply } from '../base/reply.js';
import { DOCS } from '../front-door/route-table.js';
import { DEV_API_KEY } from '../runtime.js';
import { createDocsDocument, devKeySchemes } from './docs-document.js';
import { docsInitScript, docsPage } from './docs-page.js';

/** The segment the docs live under, beside the API's base path. */
export const DOCS_PATH = '/docs';

// Everything the page may load comes from this origin; try-it requests go to the same origin (the document's
// server URL is built from the Host the browser used). Swagger UI styles elements inline and uses data: images.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const gzipAsync = promisify(gzip);

interface Asset {
  raw: Buffer;
  gzipped: Buffer;
}

/**
 * The docs page for a mock, as routes of the one route table: Swagger UI from the `swagger-ui-dist` package (no
 * CDN, works offline) rendering the mock's own document with the mock as its server. The page needs no key; "try
 * it" requests do, like any other. Assets are read and compressed once, on first use. Replies carry bytes, so the
 * front door's one finishing step writes them like any other reply.
 */
export function docsMount(spec: Spec, usingDevKey: boolean): Mount {
  const require = createRequire(import.meta.url);
  const packageFile = require.resolve('swagger-ui-dist/package.json');
  const dist = dirname(packageFile);
  const version = (JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string }).version;
  const docsDocument = createDocsDocument();
  const assets = new Map<string, Promise<Asset>>();
  const pages = new Map<string, string>();

  function asset(name: string): Promise<Asset> {
    let loading = assets.get(name);
    if (!loading) {
      loading = readFile(join(dist, name)).then(async (raw) => ({ raw, gzipped: await gzipAsync(raw) }));
      // A failed read is not remembered: the next request tries again.
      loading.catch(() => assets.delete(name));
      assets.set(name, loading);
    }
    return loading;
  }

  function page(mountPath: string): string {
    let html = pages.get(mountPath);
    if (!html) {
      const schemes = usingDevKey ? devKeySchemes(spec) : undefined;
      const devKey = schemes && (schemes.scheme || schemes.basic) ? { ...schemes, key: DEV_API_KEY } : undefined;
      html = docsPage({ docsPath: mountPath + DOCS_PATH, version, devKey });
      // Bounded: under a host app's parameterised mount the mount path comes from the client.
      if (pages.size < 16) pages.set(mountPath, html);
    }
    return html;
  }

  const get = (run: (call: Call) => Reply | Promise<Reply>) => new Map<string, Action>([['GET', { run }]]);
  const paths = new Map<string, Map<string, Action>>([
    ['/', get(({ request }) => ({ status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': CSP }, bytes: page(request.mountPath) }))],
    [
      '/openapi.json',
      get(({ request }) => ({
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' },
        bytes: docsDocument(spec, request.protocol ?? 'http', request.headers.host, request.mountPath),
      })),
    ],
    ['/init.js', get(() => ({ status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' }, bytes: docsInitScript }))],
  ]);
  for (const [name, type] of Object.entries(ASSETS)) {
    paths.set(
      `/${name}`,
      get(async ({ request }) => {
        const { raw, gzipped } = await asset(name);
        // RFC 9110 §12.5.3: honour Accept-Encoding; the bundle is 1.7 MB raw and about a quarter of that gzipped.
        const useGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
        const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', Vary: 'Accept-Encoding' };
        if (useGzip) headers['Content-Encoding'] = 'gzip';
        return { status: 200, headers, bytes: useGzip ? gzipped : raw };
      }),
    );
  }
  return {
    prefix: DOCS_PATH,
    area: DOCS,
    paths,
    missing: (_method, path) => `no docs file ${path}; the docs page is ${DOCS_PATH}`,
  };
}
