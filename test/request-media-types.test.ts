import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import type { CompiledDocument } from '../src/mock/compiled-document.js';
import { runCli } from './support/cli.js';
import { createProxyServer } from '../src/proxy/create-proxy-server.js';
import { sendJson, startScriptedUpstream } from './support/upstreams.js';

// Issue 52: the mock reads every media type an operation declares for its request body (OAS 3.0.3 §4.7.13,
// §4.7.14): a form or multipart body as the JSON object it stands for, other types as bytes; a type the operation
// does not declare is a 415 in the document's words; a header parameter named Authorization is ignored (§4.7.12).
const KEY = 'media-types-test-key';
const DOCUMENT = fileURLToPath(new URL('./fixtures/documents/request-media-types.yaml', import.meta.url));
const FORM = 'application/x-www-form-urlencoded';

let server: MockServer;
beforeAll(async () => {
  server = await createMockServer({ spec: DOCUMENT, apiKeys: [KEY], bodyLimit: 4096 });
});
afterAll(() => server.close());

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: RequestInit['body']) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...headers },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

const plants = async () => (await send('GET', '/plants')).body as { id: number; name: string }[];

/** A refusal: its status, the document's Problem naming what is wrong, and nothing stored. */
async function expectRefused(answer: Promise<Awaited<ReturnType<typeof send>>>, status: number, message: RegExp) {
  const before = await plants();
  const { status: got, type, body } = await answer;
  expect(got).toBe(status);
  expect(type).toMatch(/^application\/json/);
  expect(Object.keys(body as object)).toEqual(['error']);
  expect((body as { error: string }).error).toMatch(message);
  expect(await plants()).toEqual(before);
}

describe('request bodies by media type', () => {
  it('creates from a form body as from the equivalent JSON object, and reads it back', async () => {
    const form = 'name=Big+Fern&height=30&indoor=true&colours=green,red&care%5Bwater%5D=2&care%5Blight%5D=low';
    const created = await send('POST', '/plants', { 'content-type': FORM }, form);
    expect(created.status).toBe(201);
    const json = {
      name: 'Big Fern',
      height: 30,
      indoor: true,
      colours: ['green', 'red'],
      care: { water: 2, light: 'low' },
    };
    const { id, ...fields } = created.body as { id: number };
    expect(fields).toEqual(json);
    expect((await send('GET', `/plants/${id}`)).body).toEqual({ id, ...json });
    const fromJson = await send('POST', '/plants', { 'content-type': 'application/json' }, JSON.stringify(json));
    expect({ ...(fromJson.body as object), id }).toEqual(created.body);
  });

  it('creates from a multipart body, a file part kept as text', async () => {
    const form = new FormData();
    form.append('name', 'Ivy');
    form.append('height', '4');
    form.append('colours', 'red');
    form.append('colours', 'yellow');
    form.append('care', new Blob(['{"water":1}'], { type: 'application/json' }));
    form.append('leaflet', new Blob(['water weekly'], { type: 'text/plain' }), 'leaflet.txt');
    const created = await send('POST', '/plants', {}, form);
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    expect((await send('GET', `/plants/${id}`)).body).toEqual({
      id,
      name: 'Ivy',
      height: 4,
      colours: ['red', 'yellow'],
      care: { water: 1 },
      leaflet: 'water weekly',
    });
  });

  it.each<[string, string, RegExp]>([
    ['a field of the wrong type', 'name=Fern&height=tall', /^body\.height must be an integer$/],
    [
      'a field out of its enum',
      'name=Fern&height=3&colours=blue',
      /^body\.colours\/0 must be one of "green", "red", "yellow"$|^body\.colours\[0\] must be one of/,
    ],
    ['a required field missing', 'height=3', /^body\.name is required$/],
    ['a field given twice', 'name=a&name=b&height=3', /^body\.name must be given once \(got 2 values\)$/],
    ['bad percent-encoding', 'name=F%zzern&height=3', /^the form body's field "name=F%zzern" is not percent-encoded/],
  ])('refuses a form body with %s: 400 naming it, nothing stored', async (_, form, message) => {
    await expectRefused(send('POST', '/plants', { 'content-type': FORM }, form), 400, message);
  });

  it('refuses a truncated multipart body: 400 naming what is wrong, nothing stored', async () => {
    const body =
      '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nFern\r\n--b\r\nContent-Disposition: form-da';
    await expectRefused(
      send('POST', '/plants', { 'content-type': 'multipart/form-data; boundary=b' }, body),
      400,
      /^the multipart body is not well formed: part 2 ends before the closing delimiter "--b--"/,
    );
  });

  it('refuses a form body past the body limit (413) and in a charset other than UTF-8 (415)', async () => {
    const big = `name=${'x'.repeat(5000)}&height=3`;
    expect((await send('POST', '/plants', { 'content-type': FORM }, big)).status).toBe(413);
    await expectRefused(
      send('POST', '/plants', { 'content-type': `${FORM}; charset=latin1` }, 'name=x&height=3'),
      415,
      /form bodies must be UTF-8/,
    );
  });

  it('answers a type the operation does not declare with 415 in its own words', async () => {
    await expectRefused(
      send('POST', '/plants', { 'content-type': 'text/plain' }, 'Fern'),
      415,
      /^Content-Type must be application\/json or application\/x-www-form-urlencoded or multipart\/form-data or application\/xml \(got text\/plain\)$/,
    );
    await expectRefused(
      send('PUT', '/plants/1/photo', { 'content-type': 'application/json' }, '{}'),
      415,
      /^Content-Type must be application\/octet-stream or image\/\* \(got application\/json\)$/,
    );
  });

  it('refuses a declared type it cannot make an item of (XML) with 415, saying so', async () => {
    await expectRefused(
      send('POST', '/plants', { 'content-type': 'application/xml' }, '<plant/>'),
      415,
      /^the mock makes a stored item of a JSON, form or multipart body, not of application\/xml: send application\/json or application\/x-www-form-urlencoded or multipart\/form-data$/,
    );
  });

  it('takes bytes of application/octet-stream and of a declared range (image/*)', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff]);
    expect((await send('PUT', '/plants/1/photo', { 'content-type': 'application/octet-stream' }, png)).status).toBe(
      204,
    );
    expect((await send('PUT', '/plants/1/photo', { 'content-type': 'image/png' }, png)).status).toBe(204);
  });

  it('ignores a header parameter named Authorization (OAS 3.0.3 §4.7.12); the security scheme governs it', async () => {
    // The parameter requires "Token …"; the bearer scheme's credential is what is sent.
    expect((await send('PUT', '/plants/1/photo', { 'content-type': 'application/octet-stream' }, 'x')).status).toBe(
      204,
    );
    const anonymous = await fetch(`${server.url}/plants/1/photo`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', authorization: 'Token abc' },
      body: 'x',
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('docs/mock.md, Request bodies by media type', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const page = readFileSync(join(root, 'docs/mock.md'), 'utf8');
  const text = page.slice(
    page.indexOf('### Request bodies by media type'),
    page.indexOf('\n## Your document, your resources'),
  );

  it('answers every command of its example as the page says', async () => {
    const spec = /npx petstore-kit mock --spec (\S+)/.exec(text)![1]!;
    const mock = await createMockServer({ spec: join(root, spec), apiKeys: [KEY] });
    try {
      const lines = /then, with[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)![1]!.trim().split('\n');
      for (let i = 0; i < lines.length; i += 2) {
        const command = lines[i]!;
        const [, status, body = ''] = /^# (\d{3}) ?(.*)$/.exec(lines[i + 1]!)!;
        // Not execFileSync: the mock answers in this process, so its event loop must keep running.
        const { stdout } = await promisify(execFile)(
          'bash',
          ['-c', `K='${KEY}'; B='${mock.url}'; ${command} -w '\\n%{http_code}'`],
          { encoding: 'utf8', cwd: root },
        );
        const answer = stdout.split('\n');
        expect(answer.at(-1), command).toBe(status);
        expect(answer.slice(0, -1).join('\n'), command).toBe(body);
      }
      expect(lines.length / 2).toBe(5);
    } finally {
      await mock.close();
    }
  });
});

describe('in a page (the browser build, a document compiled by compile-web)', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(root, 'test/.compile-web-media-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads form and multipart bodies with the same core, its readers loaded for this document', async () => {
    const out = join(dir, 'plants.compiled.js');
    const run = await runCli(['compile-web', '--spec', DOCUMENT, '--out', out]);
    expect(run.code).toBe(0);
    const compiled = (await import(out)) as CompiledDocument;
    const web = (await import(`${root}dist/web/fetch.js`)) as typeof import('../src/web/fetch.js');
    const base = 'https://plants.example.com/v1';
    const pageFetch = web.createPetstoreFetch({ compiled, apiKeys: [KEY], baseUrl: base });
    const headers = { Authorization: `Bearer ${KEY}` };
    const post = async (body: RequestInit['body'], type?: string) => {
      const response = await pageFetch(`${base}/plants`, {
        method: 'POST',
        headers: type ? { ...headers, 'Content-Type': type } : headers,
        body,
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await post('name=Fern&height=30&care[water]=2', FORM)).toEqual({
      status: 201,
      body: { id: 1, name: 'Fern', height: 30, care: { water: 2 } },
    });
    expect(await post('name=Fern&height=x', FORM)).toEqual({
      status: 400,
      body: { error: 'body.height must be an integer' },
    });
    const form = new FormData();
    form.append('name', 'Ivy');
    form.append('height', '3');
    expect(await post(form)).toEqual({ status: 201, body: { id: 2, name: 'Ivy', height: 3 } });
    expect((await post('Fern', 'text/plain')).status).toBe(415);
  }, 60_000);
});

describe('behind the proxy (--strict): the same readers judge what is forwarded', () => {
  it('forwards a valid form body as it was sent and refuses a broken one, forwarding nothing', async () => {
    const upstream = await startScriptedUpstream((_, res) => sendJson(res, 201, { id: 7, name: 'Fern', height: 30 }));
    const proxy = await createProxyServer({
      upstream: upstream.url,
      spec: DOCUMENT,
      apiKeys: [KEY],
      strict: true,
      onLog: () => undefined,
    });
    try {
      const post = (body: string) =>
        fetch(`${proxy.url}/plants`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': FORM },
          body,
        });
      expect((await post('name=Fern&height=30')).status).toBe(201);
      expect(upstream.received.map((r) => r.body)).toEqual(['name=Fern&height=30']);
      const refused = await post('name=Fern&height=tall');
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: 'body.height must be an integer' });
      expect(upstream.received).toHaveLength(1);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
