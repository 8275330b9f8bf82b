import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Mock } from '../create-mock.js';
import { DEV_API_KEY } from '../create-mock.js';
import { apiError, type ApiError } from '../../errors.js';
import { bearerSchemeName, createDocsDocument } from './docs-document.js';
import { docsInitScript, docsPage } from './docs-page.js';

/** A request for something under the docs path, as the adapter hands it over. */
export interface DocsRequest {
  method: string;
  /** Below the docs path: `/`, `/openapi.json`, `/swagger-ui.css`. */
  path: string;
  /** Where the mock is mounted (`''`, or `/mock`). */
  mountPath: string;
  protocol: string;
  host: string | undefined;
  acceptEncoding: string | undefined;
}

/** A docs answer: raw bytes or text with its headers. */
export interface DocsReply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

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
 * The docs page for a mock: Swagger UI from the `swagger-ui-dist` package (no CDN, works offline) rendering the
 * mock's own document with the mock as its server. The page needs no key; "try it" requests do, like any other.
 * Assets are read and compressed once, on first use.
 */
export function createDocs(mock: Mock) {
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
      const scheme = mock.usingDevKey ? bearerSchemeName(mock.spec) : undefined;
      html = docsPage({ docsPath: mountPath + DOCS_PATH, version, devKey: scheme ? { scheme, key: DEV_API_KEY } : undefined });
      // Bounded: under a host app's parameterised mount the mount path comes from the client.
      if (pages.size < 16) pages.set(mountPath, html);
    }
    return html;
  }

  return async function handleDocs(request: DocsRequest): Promise<DocsReply> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorReply(apiError('method_not_allowed', `${request.method} is not allowed on the docs; use GET`, { Allow: 'GET, HEAD' }));
    }
    const name = request.path.replace(/^\/+/, '');
    if (name === '') {
      return { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Security-Policy': CSP, ...NOSNIFF }, body: page(request.mountPath) };
    }
    if (name === 'openapi.json') {
      const body = docsDocument(mock.spec, request.protocol, request.host, request.mountPath);
      return { status: 200, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', ...NOSNIFF }, body };
    }
    if (name === 'init.js') {
      return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400', ...NOSNIFF }, body: docsInitScript };
    }
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) return errorReply(apiError('not_found', `no docs file ${request.path}; the docs page is ${request.mountPath}${DOCS_PATH}`));
    const { raw, gzipped } = await asset(name);
    // RFC 9110 §12.5.3: honour Accept-Encoding; the bundle is 1.7 MB raw and about a quarter of that gzipped.
    const useGzip = /\bgzip\b/.test(request.acceptEncoding ?? '');
    const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400', Vary: 'Accept-Encoding', ...NOSNIFF };
    if (useGzip) headers['Content-Encoding'] = 'gzip';
    return { status: 200, headers, body: useGzip ? gzipped : raw };
  };
}

export type Docs = ReturnType<typeof createDocs>;

const NOSNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

function errorReply(failure: ApiError): DocsReply {
  return { status: failure.status, headers: { ...failure.headers, 'Content-Type': 'application/json', ...NOSNIFF }, body: JSON.stringify(failure.toBody()) };
}
