import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { parse, stringify } from 'yaml';
import { startApi, expectError, type Api } from './support/api.js';
import { startCli } from './support/cli.js';
import { defaultFixturesFile, defaultSpecFile } from '../src/paths.js';
import type { ReloadEvent } from '../src/index.js';

const PET = { name: 'Biscuit', categoryId: 6, status: 'available' };

let dir: string;
let specFile: string;
let fixturesFile: string;
let api: Api;
let events: ReloadEvent[];
let waiters: ((event: ReloadEvent) => void)[];

/** The next reload the watcher reports. */
function nextReload(): Promise<ReloadEvent> {
  return new Promise((resolve) => waiters.push(resolve));
}

function editSpec(edit: (document: any) => void): void {
  const document = parse(readFileSync(specFile, 'utf8'));
  edit(document);
  writeFileSync(specFile, stringify(document));
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-reload-'));
  specFile = join(dir, 'openapi.yaml');
  fixturesFile = join(dir, 'pets.json');
  copyFileSync(defaultSpecFile, specFile);
  copyFileSync(defaultFixturesFile, fixturesFile);
  events = [];
  waiters = [];
  api = await startApi({
    spec: specFile,
    fixtures: fixturesFile,
    watch: true,
    onReload: (event) => {
      events.push(event);
      waiters.shift()?.(event);
    },
  });
});
afterEach(() => api.close());

describe('--watch reloads the document and the fixtures', () => {
  it('applies a spec edit on the same port, keeping the pets when they still match', async () => {
    const { port } = api.server;
    const created = (await api.post('/pets', PET)).body;
    expect((await api.get('/pets?limit=60')).status).toBe(200);
    const reloaded = nextReload();
    editSpec((document) => (document.paths['/pets'].get.parameters[0].schema.maximum = 50));
    const event = await reloaded;
    expect(event).toEqual({
      ok: true,
      message: expect.stringMatching(/openapi\.yaml changed: reloaded; kept the 58 pets in the store$/),
    });
    expect(api.server.port).toBe(port);
    expectError(await api.get('/pets?limit=60'), 400, 'invalid_parameter', 'query.limit must be <= 50');
    expect((await api.get(`/pets/${created.id}`)).body).toEqual(created);
  });

  it('keeps the last good version running after an invalid edit, and says why in one line', async () => {
    const reloaded = nextReload();
    writeFileSync(specFile, 'openapi: 3.0.3\npaths: [not, a, map\n');
    const event = await reloaded;
    expect(event.ok).toBe(false);
    expect(event.message).toContain('openapi.yaml');
    expect(event.message).toMatch(/still serving the last good version$/);
    expect(event.message).not.toContain('\n');
    expect((await api.get('/pets?limit=1')).status).toBe(200);
    // An example that breaks its schema is refused as well.
    const refused = nextReload();
    copyFileSync(defaultSpecFile, specFile);
    editSpec(
      (document) =>
        (document.paths['/pets'].get.responses['200'].content['application/json'].examples.empty.value = [{ id: 1 }]),
    );
    expect((await refused).message).toContain('listPets response 200 example "empty" breaks its schema');
  });

  it('starts the store again from new fixtures, and refuses bad ones', async () => {
    await api.post('/pets', PET);
    const reloaded = nextReload();
    writeFileSync(fixturesFile, JSON.stringify([{ id: 7, name: 'Only', categoryId: 1 }]));
    expect((await reloaded).message).toMatch(
      /pets\.json changed: reloaded; the fixtures changed, so the store starts again from the 1 new fixtures$/,
    );
    expect((await api.get('/pets')).body).toEqual([{ id: 7, name: 'Only', categoryId: 1 }]);
    const refused = nextReload();
    writeFileSync(fixturesFile, JSON.stringify([{ id: 8, name: 'Bad', categoryId: 'x' }]));
    const event = await refused;
    expect(event.ok).toBe(false);
    expect(event.message).toContain('record 0 (id 8): pet.categoryId must be an integer');
    expect((await api.get('/pets')).body).toEqual([{ id: 7, name: 'Only', categoryId: 1 }]);
  });

  it('starts again from the fixtures when created pets break the new Pet schema', async () => {
    const created = (await api.post('/pets', { name: 'Big', categoryId: 1000 })).body;
    const reloaded = nextReload();
    editSpec((document) => (document.components.schemas.NewPet.properties.categoryId.maximum = 100));
    const event = await reloaded;
    expect(event.message).toContain(
      `record 57 (id ${created.id}): pet.categoryId must be <= 100, so the store starts again from the fixtures`,
    );
    expectError(await api.get(`/pets/${created.id}`), 404, 'not_found');
    expect((await api.server.snapshot()).pets).toHaveLength(57);
  });

  it('lets a request in flight finish on the document model it started on', async () => {
    // A create whose body has not arrived yet when the reload swaps the model: no clock involved, the body is
    // written only once the reload is done.
    const body = new PassThrough();
    const headers = { authorization: `Bearer ${api.server.mock.apiKeys[0]}`, 'content-type': 'application/json' };
    const inFlight = api.server.mock.dispatch({ method: 'POST', url: '/v1/pets', headers, body, mountPath: '' });
    editSpec((document) => {
      // createPet's body alone gets a tighter rule (the stored pets still match the Pet schema, so the store stays).
      const newPet = document.components.schemas.NewPet;
      document.paths['/pets'].post.requestBody.content['application/json'].schema = {
        ...newPet,
        properties: { ...newPet.properties, name: { type: 'string', maxLength: 3 } },
      };
    });
    expect(await api.server.reload()).toMatchObject({ ok: true });
    body.end(JSON.stringify(PET));
    const finished = await inFlight;
    expect(finished.status).toBe(201);
    expect(finished.body).toMatchObject({ name: 'Biscuit' });
    // The next request meets the new document.
    expectError(await api.post('/pets', PET), 400, 'invalid_body', 'body.name must NOT have more than 3 characters');
  });

  it('keeps the journal across reloads', async () => {
    await api.get('/pets?limit=3');
    expect((await api.server.reload()).ok).toBe(true);
    await api.get('/pets?limit=4');
    expect(api.server.journal().map((entry) => entry.query.limit)).toEqual(['4', '3']);
  });
});

describe('petstore-kit mock --watch', () => {
  it('prints one line for a reload that failed and one for a reload that worked', async () => {
    const { child, waitFor } = await startCli(
      ['mock', '--port', '0', '--spec', specFile, '--fixtures', fixturesFile, '--watch'],
      /watching/,
    );
    try {
      writeFileSync(specFile, 'openapi: [');
      const failed = await waitFor(/still serving the last good version/);
      expect(failed).toMatch(
        /petstore-kit: .*openapi\.yaml changed: .*openapi\.yaml: .*; still serving the last good version\n/,
      );
      copyFileSync(defaultSpecFile, specFile);
      expect(await waitFor(/reloaded; kept/)).toMatch(
        /petstore-kit: .*openapi\.yaml changed: reloaded; kept the 57 pets in the store\n/,
      );
    } finally {
      child.kill('SIGTERM');
    }
  });
});
