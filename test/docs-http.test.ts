import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import express from 'express';
import { createMock, createMockRouter, createMockServer, type MockServer } from '../src/index.js';
import { docs } from './support/docs.js';

const KEY = 'docs-http-key-41aa';
const swaggerUi = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${name}`));

/** A raw GET, so that the Host and Accept-Encoding headers are exactly what the test says. */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let server: MockServer;
beforeAll(async () => {
  server = await createMockServer({ apiKeys: [KEY] });
});
afterAll(() => server.close());

describe('the docs page over HTTP', () => {
  it('serves the page without a key, with a CSP that allows this origin only', async () => {
    const page = await get(server.docsUrl);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    const html = page.body.toString();
    expect(html).toContain('<script src="/docs/swagger-ui-bundle.js?v=');
    expect(html).toContain('data-spec="/docs/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//); // nothing from elsewhere
    expect(html).not.toContain('data-dev-key'); // keys were configured: nothing to pre-fill
    expect((await get(`${server.docsUrl}/`)).body.toString()).toBe(html);
  });

  it('serves the document with the mock as its server, for the Host the browser used', async () => {
    const viaIp = JSON.parse((await get(`${server.docsUrl}/openapi.json`)).body.toString());
    expect(viaIp.servers).toEqual([{ url: server.url, description: 'this petstore-kit mock' }]);
    const viaName = JSON.parse(
      (await get(`${server.docsUrl}/openapi.json`, { host: `localhost:${server.port}` })).body.toString(),
    );
    expect(viaName.servers[0].url).toBe(`http://localhost:${server.port}/v1`);
    expect(Object.keys(viaName.paths)).toEqual(Object.keys(server.mock.spec.document.paths));
  });

  it('serves Swagger UI from the installed package, compressed when the browser accepts it', async () => {
    const plain = await get(`${server.docsUrl}/swagger-ui-bundle.js?v=1`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.body.equals(swaggerUi('swagger-ui-bundle.js'))).toBe(true);
    const zipped = await get(`${server.docsUrl}/swagger-ui.css`, { 'accept-encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.body).equals(swaggerUi('swagger-ui.css'))).toBe(true);
    expect(zipped.body.length).toBeLessThan(swaggerUi('swagger-ui.css').length / 3);
  });

  it('sends the Swagger UI bundle as large as docs say, and smaller compressed', async () => {
    const stated = /the ([\d.]+) MB bundle travels as ([\d.]+) MB/.exec(docs)!;
    const zipped = await get(`${server.docsUrl}/swagger-ui-bundle.js?v=1`, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect((swaggerUi('swagger-ui-bundle.js').length / 1e6).toFixed(1)).toBe(stated[1]);
    expect((zipped.body.length / 1e6).toFixed(2)).toBe(stated[2]);
  });

  it('answers HEAD without a body', async () => {
    const head = await get(server.docsUrl, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  it.each([
    ['GET', '/docs/nope.js', 404, 'not_found'],
    ['GET', '/docs/index.html', 404, 'not_found'],
    ['GET', '/docs/../package.json', 404, 'not_found'],
    ['GET', '/docs/%2e%2e%2fpackage.json', 404, 'not_found'],
    ['POST', '/docs', 405, 'method_not_allowed'],
    ['DELETE', '/docs/openapi.json', 405, 'method_not_allowed'],
  ])('answers %s %s with %i and an Error body', async (method, path, status, code) => {
    const response = await get(server.origin + path, {}, method);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body.toString())).toEqual({ code, message: expect.any(String), status });
    if (status === 405) expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('leaves the API alone: its operations still need the key', async () => {
    expect((await get(`${server.url}/pets`)).status).toBe(401);
    expect((await get(`${server.url}/pets`, { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });
});

describe('the docs of a mock mounted in another app', () => {
  let host: Server;
  let origin: string;
  beforeAll(async () => {
    const app = express();
    app.use('/mock', createMockRouter(await createMock({ apiKeys: [] })));
    host = createServer(app);
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

  it('live under the mount path, point at the mounted API, and pre-fill the public development key', async () => {
    const html = (await get(`${origin}/mock/docs`)).body.toString();
    expect(html).toContain('<script src="/mock/docs/swagger-ui-bundle.js?v=');
    expect(html).toContain('data-spec="/mock/docs/openapi.json"');
    expect(html).toContain('data-dev-key-scheme="bearerAuth" data-dev-key="petstore-dev-key"');
    const document = JSON.parse((await get(`${origin}/mock/docs/openapi.json`)).body.toString());
    expect(document.servers[0].url).toBe(`${origin}/mock/v1`);
    expect((await get(`${origin}/mock/v1/pets`, { authorization: 'Bearer petstore-dev-key' })).status).toBe(200);
  });
});
