import { describe, expect, it } from 'vitest';
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  readlinkSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { startApi } from './support/api.js';
import { runCli, startCli } from './support/cli.js';
import { tempDirs } from './support/temp-dirs.js';

// Data loss: two mocks on one state file, a planted temporary file, a symlinked --state path.
const tmp = tempDirs('petstore-state-safety-');
const PET = { name: 'Biscuit', categoryId: 6 };

describe('one state file, one mock', () => {
  it('stops a second mock on the same --state with exit 1, naming the holder, and the first keeps its pets', async () => {
    const dir = tmp();
    const state = join(dir, 'state.json');
    const first = await startCli(
      ['mock', '--port', '0', '--quiet', '--state', state, '--api-key', 'k1'],
      /listening on (\S+)/,
    );
    try {
      const second = await runCli(['mock', '--port', '0', '--quiet', '--state', state, '--api-key', 'k1']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is in use by another mock (pid ${first.child.pid} on ${hostname()}`);
      expect(second.stdout).not.toContain('listening');
      const url = first.match[1]!;
      const created = await fetch(`${url}/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer k1', 'content-type': 'application/json' },
        body: JSON.stringify(PET),
      });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { id: number }).id).toBe(58);
    } finally {
      first.child.kill('SIGTERM');
      await once(first.child, 'close');
    }
    // A clean stop frees the lock; the state has the first mock's pet.
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect((JSON.parse(readFileSync(state, 'utf8')) as { pets: unknown[] }).pets).toHaveLength(58);
  });

  it('takes over the lock of a mock that was killed, and keeps its state', async () => {
    const dir = tmp();
    const state = join(dir, 'state.json');
    const first = await startCli(
      ['mock', '--port', '0', '--quiet', '--state', state, '--api-key', 'k1'],
      /listening on (\S+)/,
    );
    const created = await fetch(`${first.match[1]}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer k1', 'content-type': 'application/json' },
      body: JSON.stringify(PET),
    });
    // The 201 means the create is on disk (in the journal beside the file): kill at once, without a chance to clean up.
    expect(created.status).toBe(201);
    first.child.kill('SIGKILL');
    await once(first.child, 'close');
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.journal', 'state.json.lock']);
    const api = await startApi({ state });
    try {
      expect((await api.get('/pets/58')).body).toMatchObject(PET);
    } finally {
      await api.close();
    }
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('refuses a lock held by a live process in-process too (createMockServer)', async () => {
    const state = join(tmp(), 'state.json');
    const api = await startApi({ state });
    try {
      await expect(startApi({ state })).rejects.toThrow(`pid ${process.pid} on ${hostname()}`);
    } finally {
      await api.close();
    }
  });
});

describe('a symlinked --state path', () => {
  it('is followed: the real file gets the state, and the link stays a link', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'real'));
    const real = join(dir, 'real', 'state.json');
    const link = join(dir, 'state.json');
    symlinkSync(real, link);
    const api = await startApi({ state: link });
    try {
      await api.post('/pets', PET);
      await api.server.mock.flush();
    } finally {
      await api.close();
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect((JSON.parse(readFileSync(real, 'utf8')) as { pets: unknown[] }).pets).toHaveLength(58);
    expect(readdirSync(join(dir, 'real'))).toEqual(['state.json']);
  });
});

describe('the temporary file', () => {
  it('never follows a link planted at the old predictable name, so an unrelated file is never overwritten', async () => {
    const dir = tmp();
    const state = join(dir, 'state.json');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    // The old writer's name for it: `<file>.<pid>.tmp`; plant links for every pid this test's process could be.
    symlinkSync(victim, `${state}.${process.pid}.tmp`);
    const api = await startApi({ state });
    try {
      await api.post('/pets', PET);
      await api.server.mock.flush();
    } finally {
      await api.close();
    }
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(state).isFile()).toBe(true);
    expect(lstatSync(state).mode & 0o777).toBe(0o600);
  });
});

describe('a damaged journal or state file', () => {
  /** A state file with three journal lines, as a mock killed after three creates leaves it. */
  function journalOfThree(dir: string): { state: string; journal: string } {
    const state = join(dir, 'state.json');
    writeFileSync(state, '{\n  "nextId": 1,\n  "pets": []\n}\n');
    const line = (id: number) => `{"nextId":${id + 1},"pets":[{"id":${id},"name":"pet ${id}","categoryId":1}]}\n`;
    writeFileSync(`${state}.journal`, line(1) + line(2) + line(3));
    return { state, journal: `${state}.journal` };
  }

  it('stops the start with one line naming the journal, the line and what is wrong, and keeps the journal as it is', async () => {
    const dir = tmp();
    const { state, journal } = journalOfThree(dir);
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"name"', '"nome"');
    writeFileSync(journal, lines.join('\n'));
    const before = readFileSync(journal);
    const run = await runCli(['mock', '--port', '0', '--quiet', '--state', state, '--api-key', 'k1']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`${journal.replace(/[.]/g, '\\.')}: line 2: .*name.*did not start`));
    // Never truncated, and a copy put aside before anything else could happen to it.
    expect(readFileSync(journal)).toEqual(before);
    const copies = readdirSync(dir).filter((name) => name.startsWith('state.json.journal.damaged-'));
    expect(copies).toHaveLength(1);
    expect(readFileSync(join(dir, copies[0]!))).toEqual(before);
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });

  it('names the line of a state file that is not valid JSON, and changes nothing', async () => {
    const dir = tmp();
    const { state, journal } = journalOfThree(dir);
    writeFileSync(state, '{\n  "nextId": 1,\n  "pets": [\n    {"id":1,"name":"cut\n');
    const run = await runCli(['mock', '--port', '0', '--quiet', '--state', state, '--api-key', 'k1']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/state\.json: line 4: is not valid JSON/);
    expect(readFileSync(state, 'utf8')).toBe('{\n  "nextId": 1,\n  "pets": [\n    {"id":1,"name":"cut\n');
    expect(readFileSync(journal, 'utf8').split('\n')).toHaveLength(4);
  });

  it('drops a torn last line (never acknowledged) and starts with every whole line', async () => {
    const dir = tmp();
    const { state, journal } = journalOfThree(dir);
    writeFileSync(journal, `${readFileSync(journal, 'utf8')}{"nextId":5,"pets":[{"id":4,"na`);
    const api = await startApi({ state });
    try {
      expect((await api.get('/pets/3')).status).toBe(200);
      expect((await api.get('/pets/4')).status).toBe(404);
    } finally {
      await api.close();
    }
  });

  it('reports a symbolic link at FILE.journal as such', async () => {
    const dir = tmp();
    const { state, journal } = journalOfThree(dir);
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, readFileSync(journal));
    rmSync(journal);
    symlinkSync(elsewhere, journal);
    const run = await runCli(['mock', '--port', '0', '--quiet', '--state', state, '--api-key', 'k1']);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `petstore-kit: ${journal}: is a symbolic link; the journal must be a regular file beside the state file (remove the link to start)`,
    );
  });
});
