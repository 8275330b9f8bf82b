import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, runProcess } from './support/cli.js';
import { judgedClient, type JudgedSend } from './support/judged-client.js';
import { loadSpec, type Spec } from '../src/openapi/load-spec.js';
import { specOfCompiled, type CompiledDocument } from '../src/mock/compiled-document.js';
import { withoutProse } from '../src/compile-web/compile-web-module.js';
import type { PetstoreFetch, PetstoreFetchOptions } from '../src/fetch/index.js';

/**
 * `petstore-kit compile-web`: a later version of the document (v1.1: a `tag` field and its filter, PUT, PATCH and
 * DELETE, `/store/orders`, photos under a pet) compiled by the command, then served by the browser entry
 * (dist/web/fetch.js, which runs in Node too) and by the Node entry given the same module. Every answer is judged
 * against the document, loaded here on its own (not from the module). The module is written inside the package, so
 * its `petstore-kit/web-formats` import resolves as in an app that installed the package (a self-reference).
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const v11 = join(root, 'test/fixtures/documents/petstore-v1.1.yaml');
const BASE = 'https://petstore.example.com/v1';
const KEY = 'compile-web-test-key';
const web = (await import(`${root}dist/web/fetch.js`)) as typeof import('../src/web/fetch.js');
const node = (await import(`${root}dist/fetch/index.js`)) as typeof import('../src/fetch/index.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(root, 'test/.compile-web-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A client of the mock whose every answer checkResponse must find valid against `spec`. */
function clientOf(petstoreFetch: PetstoreFetch, spec: Spec): JudgedSend {
  return judgedClient(petstoreFetch, BASE, KEY, () => spec);
}

/** Create, read, PUT, PATCH, DELETE and a filtered list on pets, orders and a pet's photos. */
async function exerciseEveryRole(call: JudgedSend): Promise<void> {
  // Pets: the package's fixtures seed them (57), as `petstore-kit mock --spec` would.
  expect((await call('GET', '/pets?limit=100')).body).toHaveLength(57);
  const created = await call('POST', '/pets', { name: 'Rex', categoryId: 1, tag: 'brown', extra: 'dropped' });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({ id: 58, name: 'Rex', categoryId: 1, tag: 'brown' });
  expect(created.headers.get('location')).toBe('/v1/pets/58');
  expect((await call('GET', '/pets/58')).body).toEqual(created.body);
  expect((await call('GET', '/pets?tag=brown')).body).toEqual([created.body]);
  const replaced = await call('PUT', '/pets/58', { name: 'Rex II', categoryId: 2, tag: 'black' });
  expect(replaced).toMatchObject({ status: 200, body: { id: 58, name: 'Rex II', categoryId: 2, tag: 'black' } });
  expect((await call('GET', '/pets?tag=brown')).body).toEqual([]);
  const patched = await call('PATCH', '/pets/58', { tag: null, status: 'sold' }, 'application/merge-patch+json');
  expect(patched).toMatchObject({ status: 200, body: { id: 58, name: 'Rex II', categoryId: 2, status: 'sold' } });
  expect((await call('GET', '/pets/58')).body).toEqual({ id: 58, name: 'Rex II', categoryId: 2, status: 'sold' });
  // A validator the v1.1 document adds (maxLength: AJV's ucs2length helper, from petstore-kit/web-formats).
  const tooLong = await call('PATCH', '/pets/58', { tag: 'x'.repeat(41) }, 'application/merge-patch+json');
  expect(tooLong.status).toBe(400);
  expect(tooLong.body).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('body.tag') });
  expect((await call('PUT', '/pets/999', { name: 'Nobody', categoryId: 1 })).status).toBe(404);

  // Photos under pet 58: their own ids, listed only under their pet; a bad URL refused (format uri).
  const photo = await call('POST', '/pets/58/photos', { url: 'https://img.example/rex.png', caption: 'Rex' });
  expect(photo).toMatchObject({ status: 201, body: { id: 1, petId: 58, url: 'https://img.example/rex.png' } });
  expect((await call('POST', '/pets/58/photos', { url: 'not a uri' })).status).toBe(400);
  expect((await call('GET', '/pets/58/photos')).body).toEqual([photo.body]);
  expect((await call('GET', '/pets/1/photos')).body).toEqual([]);
  expect((await call('GET', '/pets/58/photos/1')).body).toEqual(photo.body);
  expect((await call('DELETE', '/pets/58/photos/1')).status).toBe(204);
  expect((await call('GET', '/pets/58/photos/1')).status).toBe(404);

  // Orders: a second collection with its own ids, a readOnly placedAt filled in, a status filter.
  const order = await call('POST', '/store/orders', { petId: 58, quantity: 2, status: 'placed' });
  expect(order.status).toBe(201);
  expect(order.body).toEqual({ id: 1, petId: 58, quantity: 2, status: 'placed', placedAt: expect.any(String) });
  expect(order.headers.get('location')).toBe('/v1/store/orders/1');
  await call('POST', '/store/orders', { petId: 1, quantity: 1, status: 'approved' });
  expect((await call('GET', '/store/orders?status=approved')).body).toMatchObject([{ id: 2, petId: 1 }]);
  expect((await call('GET', '/store/orders/1')).body).toEqual(order.body);
  expect((await call('POST', '/store/orders', { petId: 1, quantity: 0 })).status).toBe(400);
  expect((await call('DELETE', '/store/orders/1')).status).toBe(204);
  expect((await call('GET', '/store/orders')).body).toMatchObject([{ id: 2 }]);

  // DELETE a pet: gone, with its photos; its id never handed out again.
  await call('POST', '/pets/58/photos', { url: 'https://img.example/rex2.png' });
  expect((await call('DELETE', '/pets/58')).status).toBe(204);
  expect((await call('GET', '/pets/58')).status).toBe(404);
  expect((await call('GET', '/pets/58/photos')).status).toBe(404);
  expect((await call('DELETE', '/pets/58')).status).toBe(404);
  expect((await call('POST', '/pets', { name: 'Next', categoryId: 1 })).body).toMatchObject({ id: 59 });
}

describe('petstore-kit compile-web on a v1.1 document', () => {
  let compiled: CompiledDocument;
  let spec: Spec;

  beforeAll(async () => {
    const out = join(dir, 'petstore-v1.1.compiled.js');
    const run = await runCli(['compile-web', '--spec', v11, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^compiled .*petstore-v1\.1\.yaml into .*petstore-v1\.1\.compiled\.js \(\d+\.\d KiB; seeds: pets 57, store\/orders 0\)$/m,
    );
    // What a page cannot answer is named when it is compiled.
    expect(run.stdout).toContain('answered 501 in a page');
    expect(run.stdout).toContain('  GET /store/inventory (getInventory)\n');
    const code = readFileSync(out, 'utf8');
    expect(code).toMatch(/^import \{ int64Format, fullFormats, ucs2length \} from "petstore-kit\/web-formats";$/m);
    expect(code).not.toMatch(/\brequire\(|from "node:/);
    compiled = (await import(out)) as CompiledDocument;
    spec = await loadSpec(v11);
  });

  it('writes the document with its references and without its prose, the resource model as data, and the seeds of every collection', () => {
    expect(Object.keys(compiled).sort()).toEqual(['dialect', 'document', 'format', 'resources', 'seeds', 'validators']);
    expect(compiled.document).toEqual(withoutProse(spec.normalized));
    expect(JSON.stringify(compiled.document)).not.toMatch(/"(description|summary)":"/);
    expect(compiled.dialect).toEqual({ version: '3.0', otherDialect: undefined });
    // Each schema of the model is written as a reference to where it is in the document, and a page resolves it.
    expect(compiled.resources.collections[0]!.itemSchema).toEqual({
      $ref: spec.pointerOf.get(spec.resources.collections[0]!.itemSchema!),
    });
    expect(withoutProse(specOfCompiled(compiled).resources)).toEqual(withoutProse(spec.resources));
    const fixtures = JSON.parse(readFileSync(join(root, 'fixtures/pets.json'), 'utf8')) as unknown[];
    expect(compiled.seeds).toEqual({ pets: fixtures, 'store/orders': [] });
  });

  it.for([
    ['the browser entry (dist/web/fetch.js)', (options: PetstoreFetchOptions) => web.createPetstoreFetch(options)],
    ['the Node entry (dist/fetch/index.js)', (options: PetstoreFetchOptions) => node.createPetstoreFetch(options)],
  ] as const)('%s serves every role of it, each answer valid', async ([, create]) => {
    const petstoreFetch = create({ compiled, apiKeys: [KEY], baseUrl: BASE });
    try {
      await exerciseEveryRole(clientOf(petstoreFetch, spec));
      // What fits no role has no prism-http here: a 501 in the Error shape that names the operation and why.
      const inventory = await petstoreFetch(`${BASE}/store/inventory`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect(inventory.status).toBe(501);
      expect(await inventory.json()).toEqual({
        code: 'not_implemented',
        message: expect.stringMatching(/^getInventory fits no resource role \(.+\): only the server mock answers it/),
        status: 501,
      });
      // Back to the compiled seeds.
      await petstoreFetch.reset();
      expect((await petstoreFetch.snapshot()).collections?.['store/orders']?.items).toEqual([]);
    } finally {
      await petstoreFetch.close();
    }
  });

  it('takes fixtures as records for the first collection, checked against its schema', async () => {
    const only = [{ id: 7, name: 'Only', categoryId: 1, tag: 'one' }];
    const petstoreFetch = web.createPetstoreFetch({ compiled, fixtures: only, apiKeys: [KEY], baseUrl: BASE });
    expect(await (await clientOf(petstoreFetch, spec)('GET', '/pets')).body).toEqual(only);
    await petstoreFetch.close();
    const bad = web.createPetstoreFetch({
      compiled,
      fixtures: [{ id: 1, name: 'X', categoryId: 1, tag: 'x'.repeat(41) }],
      apiKeys: [KEY],
      baseUrl: BASE,
    });
    await expect(bad.ready).rejects.toThrow('fixtures: record 0 (id 1): pet.tag must NOT have more than 40 characters');
  });

  it('writes declarations beside it: a TypeScript app passes it as compiled, strict, without allowJs', async () => {
    const app = join(dir, 'app.ts');
    writeFileSync(
      app,
      `import * as compiled from './petstore-v1.1.compiled.js';
import { createPetstoreFetch } from 'petstore-kit/fetch';
import { petstoreHandlers } from 'petstore-kit/msw';

export const ready: Promise<void> = createPetstoreFetch({ compiled }).ready;
export const handlers = petstoreHandlers({ compiled, apiKeys: ['k'] });
`,
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck'];
    const checked = await runProcess(process.execPath, [tsc, ...flags, '--types', 'node', app], { env: process.env });
    expect(checked.stdout).toBe('');
    expect(checked.code).toBe(0);
    // A hang detector for one tsc run on a busy machine, not a measure of its speed.
  }, 120_000);

  it('refuses a module of another shape, and spec beside compiled, by name', async () => {
    const old = web.createPetstoreFetch({ compiled: { ...compiled, format: 0 }, baseUrl: BASE });
    await expect(old.ready).rejects.toThrow(/^compiled: not a module of this release's "petstore-kit compile-web"/);
    const both = node.createPetstoreFetch({ compiled, spec: v11, baseUrl: BASE });
    await expect(both.ready).rejects.toThrow(
      'spec: the compiled module is the document; pass spec or compiled, not both',
    );
  });
});

/**
 * A document unlike the Petstore's: the item schema only inline in the list answer (no read, a create without a
 * body), string UUID ids, `uniqueItems` of objects (AJV's `equal` helper), and no `Error` schema of its own (the interface's
 * shape, which the journal judges errors by). Each needs a validator the module must carry.
 */
const notes = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1.0.0' },
  servers: [{ url: 'https://notes.example.com/api' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        responses: {
          '200': {
            description: 'The notes.',
            content: {
              'application/json': {
                schema: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id', 'text'],
                    properties: {
                      id: { type: 'string', format: 'uuid', readOnly: true },
                      text: { type: 'string' },
                      links: {
                        type: 'array',
                        uniqueItems: true,
                        items: { type: 'object', properties: { href: { type: 'string' } } },
                      },
                    },
                  },
                },
              },
            },
          },
          '401': { description: 'No key.' },
        },
      },
      post: {
        operationId: 'addNote',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['text'],
                properties: {
                  text: { type: 'string' },
                  links: {
                    type: 'array',
                    uniqueItems: true,
                    items: { type: 'object', properties: { href: { type: 'string' } } },
                  },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'Added.' }, '400': { description: 'Refused.' } },
      },
    },
  },
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
};

it('compiles what a document unlike the Petstore needs: inline item schemas, uniqueItems, the built-in Error shape', async () => {
  const file = join(dir, 'notes.json');
  writeFileSync(file, JSON.stringify(notes));
  const out = join(dir, 'notes.compiled.js');
  // Seeds checked against the item schema, which only the list answer gives.
  const seeded = [{ id: '9b2f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', text: 'seeded', links: [{ href: '/a' }] }];
  mkdirSync(join(dir, 'seed'), { recursive: true });
  writeFileSync(join(dir, 'seed/notes.json'), JSON.stringify(seeded));
  const run = await runCli(['compile-web', '--spec', file, '--fixtures', join(dir, 'seed/notes.json'), '--out', out]);
  expect(run.stderr).toBe('');
  expect(readFileSync(out, 'utf8')).toMatch(/^import \{ fullFormats, equal \} from "petstore-kit\/web-formats";$/m);
  const compiled = (await import(out)) as CompiledDocument;
  const base = 'https://notes.example.com/api';
  const petstoreFetch = web.createPetstoreFetch({ compiled, apiKeys: [KEY], baseUrl: base });
  try {
    const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const listed = await petstoreFetch(`${base}/notes`, { headers });
    expect(await listed.json()).toEqual(seeded);
    const twice = await petstoreFetch(`${base}/notes`, {
      method: 'POST',
      headers,
      body: '{"text":"x","links":[{"href":"/a"},{"href":"/a"}]}',
    });
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ code: 'invalid_body', message: expect.stringContaining('duplicate') });
    const added = await petstoreFetch(`${base}/notes`, {
      method: 'POST',
      headers,
      body: '{"text":"x","links":[{"href":"/a"}]}',
    });
    expect(added.status).toBe(201);
    expect(((await (await petstoreFetch(`${base}/notes`, { headers })).json()) as unknown[]).length).toBe(2);
    expect((await petstoreFetch(`${base}/notes`)).status).toBe(401);
    // The mock judged each answer in the journal, the 401's Error body by the interface's shape.
    const journal = await petstoreFetch.journal();
    expect(journal.map((entry) => `${entry.status} ${entry.validation?.valid}`)).toEqual([
      '401 true',
      '200 true',
      '201 true',
      '400 true',
      '200 true',
    ]);
  } finally {
    await petstoreFetch.close();
  }
  // Records given in the page are checked by the item schema, which only the list answer declares.
  const given = web.createPetstoreFetch({ compiled, fixtures: [{ id: 'not-a-uuid', text: 'x' }], baseUrl: base });
  await expect(given.ready).rejects.toThrow('fixtures: record 0 (id not-a-uuid): note.id must match format "uuid"');
});

it("compiles a document without pets with no --fixtures: the package's pets seed no other collection", async () => {
  const document = JSON.parse(JSON.stringify((await loadSpec(v11)).source)) as { paths: Record<string, unknown> };
  for (const path of Object.keys(document.paths)) if (path.startsWith('/pets')) delete document.paths[path];
  const file = join(dir, 'orders-only.json');
  writeFileSync(file, JSON.stringify(document));
  const out = join(dir, 'orders-only.compiled.js');
  const run = await runCli(['compile-web', '--spec', file, '--out', out]);
  expect(run.code, run.stderr).toBe(0);
  const compiled = (await import(out)) as CompiledDocument;
  expect(Object.keys(compiled.seeds)).toEqual(['store/orders']);
  const petstoreFetch = web.createPetstoreFetch({ compiled, apiKeys: [KEY], baseUrl: BASE });
  try {
    const listed = await petstoreFetch(`${BASE}/store/orders`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(listed.status).toBe(200);
  } finally {
    await petstoreFetch.close();
  }
});

it('keeps an int64 seed beyond 2^53 exact, from the fixtures file to the answer', async () => {
  const folder = join(dir, 'big-ids');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'pets.json'), '[{"id":9007199254740993,"name":"Big","categoryId":1}]');
  const out = join(folder, 'big.compiled.js');
  const run = await runCli(['compile-web', '--spec', v11, '--fixtures', join(folder, 'pets.json'), '--out', out]);
  expect(run.code).toBe(0);
  const petstoreFetch = web.createPetstoreFetch({
    compiled: (await import(out)) as CompiledDocument,
    apiKeys: [KEY],
    baseUrl: BASE,
  });
  const answer = await petstoreFetch(`${BASE}/pets/9007199254740993`, { headers: { Authorization: `Bearer ${KEY}` } });
  expect(await answer.text()).toBe('{"id":9007199254740993,"name":"Big","categoryId":1}');
  // The next id is one above it, exact too.
  const created = await petstoreFetch(`${BASE}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: '{"name":"Next","categoryId":1}',
  });
  expect(await created.text()).toBe('{"id":9007199254740994,"name":"Next","categoryId":1}');
  await petstoreFetch.close();
});

describe('petstore-kit compile-web refuses what it cannot compile: exit 2, one line, nothing written', () => {
  it('a document that is not valid OpenAPI', async () => {
    const bad = join(dir, 'not-openapi.yaml');
    writeFileSync(bad, 'openapi: 3.0.3\ninfo: { title: x }\npaths: {}\n');
    const out = join(dir, 'not-written.js');
    const run = await runCli(['compile-web', '--spec', bad, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^petstore-kit: .*not-openapi\.yaml: .*version.*\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('a fixture that breaks its schema: the file, the record and the rule', async () => {
    const fixtures = join(dir, 'bad-fixtures', 'pets.json');
    mkdirSync(join(dir, 'bad-fixtures'), { recursive: true });
    writeFileSync(
      fixtures,
      JSON.stringify([
        { id: 1, name: 'Ok', categoryId: 1 },
        { id: 2, name: 'Long', categoryId: 1, tag: 'x'.repeat(41) },
      ]),
    );
    const out = join(dir, 'not-written.js');
    const run = await runCli(['compile-web', '--spec', v11, '--fixtures', fixtures, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `petstore-kit: ${fixtures}: record 1 (id 2): pet.tag must NOT have more than 40 characters\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a seed of another collection (store/orders.json beside the fixtures) that breaks its schema', async () => {
    const folder = join(dir, 'bad-orders');
    mkdirSync(join(folder, 'store'), { recursive: true });
    writeFileSync(join(folder, 'pets.json'), '[]');
    writeFileSync(
      join(folder, 'store/orders.json'),
      JSON.stringify([{ id: 1, petId: 1, quantity: 0, placedAt: '2026-01-01T00:00:00Z' }]),
    );
    const run = await runCli([
      'compile-web',
      '--spec',
      v11,
      '--fixtures',
      join(folder, 'pets.json'),
      '--out',
      join(dir, 'x.js'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `petstore-kit: ${join(folder, 'store/orders.json')}: record 0 (id 1): order.quantity must be >= 1\n`,
    );
  });

  it('--help: the usage, every option, the exit codes; the top-level help lists the command', async () => {
    const help = await runCli(['compile-web', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: petstore-kit compile-web --spec FILE --out FILE\.js \[--fixtures FILE\]\n/);
    for (const flag of ['--spec FILE', '--fixtures FILE', '--out FILE', '-h, --help'])
      expect(help.stdout).toContain(`\n  ${flag} `);
    expect(help.stdout).toContain('Exit 0: written; 2: the document is not valid OpenAPI, a seed breaks its schema');
    const top = await runCli(['--help']);
    expect(top.stdout).toMatch(/^ {2}compile-web {2}compile-web --spec FILE --out FILE\.js: /m);
  });

  it('no --out, and an unknown flag', async () => {
    const noOut = await runCli(['compile-web', '--spec', v11]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toBe(
      'petstore-kit: compile-web needs --out FILE.js (where to write the module); see "petstore-kit compile-web --help"\n',
    );
    const unknown = await runCli(['compile-web', '--sepc', v11]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^petstore-kit: Unknown option '--sepc'; see "petstore-kit compile-web --help"\n$/);
  });
});
