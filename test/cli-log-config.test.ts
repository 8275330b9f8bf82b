import { afterEach, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { runCli, startCli } from './support/cli.js';
import { createMockServer } from '../src/index.js';

const KEY = 'cli-log-key-5b1c';
const READY = /listening on (http:\/\/\S+)\n[\s\S]*docs: (\S+)[^\n]*\n[\s\S]*try: .*\n/;
const LOG_LINE = /^\d\d:\d\d:\d\d\.\d{3} (GET|POST) \S+ \d{3} \d+\.\d\dms( \w+)?$/;

// A test that fails half-way must not leave its mock running.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});

async function start(args: string[], { env = {}, cwd }: { env?: Record<string, string>; cwd?: string } = {}) {
  const started = await startCli(
    ['mock', '--port', '0', ...args],
    READY,
    { PETSTORE_API_KEYS: '', NO_COLOR: '', FORCE_COLOR: '', ...env },
    cwd,
  );
  running.add(started.child);
  return { ...started, url: started.match[1] as string, docs: started.match[2] as string };
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  const [code] = await once(child, 'close');
  expect(code).toBe(0);
}

const get = (url: string, key?: string) => fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });

function logLines(output: string): string[] {
  return output.split('\n').filter((line) => / (GET|POST) \/v1/.test(line));
}

describe('the request log of `petstore-kit mock`', () => {
  it('prints the docs URL, then one concise text line a request, never the key', async () => {
    const { child, url, docs, output } = await start(['--api-key', KEY]);
    expect(docs).toBe(`${new URL(url).origin}/docs`);
    expect((await get(`${url}/pets?limit=2`, KEY)).status).toBe(200);
    expect((await get(`${url}/pets?api_key=${KEY}`)).status).toBe(401);
    await expect.poll(() => logLines(output()).length).toBe(2);
    await stop(child);
    const lines = logLines(output());
    expect(lines.every((line) => LOG_LINE.test(line))).toBe(true);
    expect(lines[0]).toMatch(/ GET \/v1\/pets\?limit=2 200 /);
    expect(lines[1]).toMatch(/ GET \/v1\/pets\?api_key=\*\*\* 401 .* unauthorized$/);
    expect(output()).not.toContain(KEY);
    expect(output()).not.toContain('\x1b['); // not a terminal: no colour
  });

  it('colours the line when colour is forced (as on a terminal)', async () => {
    const { child, url, output } = await start(['--api-key', KEY], { env: { FORCE_COLOR: '1' } });
    await get(`${url}/pets`, KEY);
    await expect.poll(() => output()).toContain('\x1b[32m200\x1b[0m');
    await stop(child);
  });

  it('writes JSON Lines with --log-format json', async () => {
    const { child, url, output } = await start(['--api-key', KEY, '--log-format', 'json']);
    await get(`${url}/pets?limit=1&token=${KEY}`, KEY);
    await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"J","categoryId":1}',
    });
    await expect
      .poll(
        () =>
          output()
            .split('\n')
            .filter((line) => line.startsWith('{')).length,
      )
      .toBe(2);
    await stop(child);
    const entries = output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(entries.map((e) => [e.method, e.url, e.status, e.operationId])).toEqual([
      ['GET', '/v1/pets?limit=1&token=***', 200, 'listPets'],
      ['POST', '/v1/pets', 201, 'createPet'],
    ]);
    expect(entries.every((e) => typeof e.durationMs === 'number' && !Number.isNaN(Date.parse(e.time)))).toBe(true);
    expect(output()).not.toContain(KEY);
  });

  it('prints no request lines with --quiet, even once flushed at exit', async () => {
    const { child, url, output } = await start(['--api-key', KEY, '--quiet']);
    expect((await get(`${url}/pets`, KEY)).status).toBe(200);
    await stop(child);
    expect(output()).toContain('stopped');
    expect(logLines(output())).toEqual([]);
  });

  it('is described in --help', async () => {
    const help = await runCli(['mock', '--help']);
    for (const flag of ['--quiet', '--log-format', '--config FILE', '--no-config', 'petstore-kit.config.json'])
      expect(help.stdout).toContain(flag);
  });

  it('rejects an unknown --log-format', async () => {
    const result = await runCli(['mock', '--port', '0', '--log-format', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('petstore-kit: --log-format must be text or json (got "xml")');
  });
});

describe('the request log of createMockServer', () => {
  // The journal is always an observer; the log is one more only when asked for.
  const journalOnly = 1;

  it('is off unless asked for', async () => {
    const server = await createMockServer({ apiKeys: [KEY] });
    expect(server.mock.observers.size).toBe(journalOnly);
    await server.close();
  });

  it('writes where it is told, in the format asked, and flushes on close', async () => {
    let written = '';
    const stream = new Writable({ write: (chunk, _encoding, done) => ((written += String(chunk)), done()) });
    const server = await createMockServer({ apiKeys: [KEY], log: { format: 'json', stream } });
    expect(server.mock.observers.size).toBe(journalOnly + 1);
    await get(`${server.url}/pets?limit=3`, KEY);
    await server.close();
    expect(server.mock.observers.size).toBe(journalOnly);
    expect(JSON.parse(written)).toMatchObject({
      method: 'GET',
      url: '/v1/pets?limit=3',
      status: 200,
      operationId: 'listPets',
    });
  });
});

describe('petstore-kit.config.json', () => {
  function project(config: unknown, file = 'petstore-kit.config.json'): string {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-project-'));
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), typeof config === 'string' ? config : JSON.stringify(config));
    return dir;
  }

  it('is read from the current directory: its keys, port and log format apply', async () => {
    const cwd = project({ port: 0, 'api-key': ['cfg-key-a', 'cfg-key-b'], 'log-format': 'json' });
    const { child, url, output } = await start([], { cwd });
    expect(output()).toContain('config: petstore-kit.config.json');
    expect((await get(`${url}/pets`, 'cfg-key-b')).status).toBe(200);
    expect((await get(`${url}/pets`, 'petstore-dev-key')).status).toBe(401);
    await expect
      .poll(
        () =>
          output()
            .split('\n')
            .filter((line) => line.startsWith('{"time"')).length,
      )
      .toBe(2);
    await stop(child);
    expect(output()).not.toContain('cfg-key');
  });

  it('loses to flags, and is ignored with --no-config', async () => {
    const cwd = project({ 'api-key': ['cfg-key'], quiet: true });
    const flagged = await start(['--api-key', 'flag-key'], { cwd });
    expect((await get(`${flagged.url}/pets`, 'flag-key')).status).toBe(200);
    expect((await get(`${flagged.url}/pets`, 'cfg-key')).status).toBe(401);
    await stop(flagged.child);
    expect(logLines(flagged.output())).toEqual([]); // quiet still came from the file

    const ignored = await start(['--no-config'], { cwd });
    expect(ignored.output()).not.toContain('config:');
    expect((await get(`${ignored.url}/pets`, 'petstore-dev-key')).status).toBe(200);
    await expect.poll(() => logLines(ignored.output()).length).toBe(1);
    await stop(ignored.child);
  });

  it('is named with --config, and its file paths are relative to it', async () => {
    const cwd = project({ fixtures: 'seed.json', quiet: true }, 'conf/mock.json');
    writeFileSync(
      join(cwd, 'conf', 'seed.json'),
      JSON.stringify([{ id: 7, name: 'Only', categoryId: 1, status: 'sold' }]),
    );
    const { child, url, output } = await start(['--config', 'conf/mock.json'], { cwd });
    expect(output()).toContain('1 pets from the fixtures');
    expect(output()).toContain('config: conf/mock.json');
    expect(await (await get(`${url}/pets`, 'petstore-dev-key')).json()).toEqual([
      { id: 7, name: 'Only', categoryId: 1, status: 'sold' },
    ]);
    await stop(child);
  });

  it.concurrent.for([
    [
      'an unknown key',
      { prot: 4011 },
      [],
      'petstore-kit: petstore-kit.config.json: unknown key "prot"; keys are the long flag names: port, host, ',
    ],
    [
      'a wrong type',
      { quiet: 'yes' },
      [],
      'petstore-kit: petstore-kit.config.json: "quiet" must be true or false (got string "yes")',
    ],
    [
      'a bad port',
      { port: 'abc' },
      [],
      'petstore-kit: petstore-kit.config.json: "port" must be a whole number from 0 to 65535 (got "abc")',
    ],
    [
      'a bad log format',
      { 'log-format': 'xml' },
      [],
      'petstore-kit: petstore-kit.config.json: "log-format" must be text or json (got "xml")',
    ],
    ['a missing --config file', {}, ['--config', 'nope.json'], 'petstore-kit: --config nope.json: no such file'],
  ] as Array<[string, object, string[], string]>)(
    'stops on %s with exit 2 and one line naming the file and key',
    async ([, config, args, message], { expect }) => {
      const result = await runCli(['mock', ...args], {}, project(config));
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr.startsWith(message)).toBe(true);
    },
  );

  it("serves the mock and the proxy from one file, each taking its own keys and leaving the other's", async () => {
    const upstream = await createMockServer({ apiKeys: ['shared-key'] });
    try {
      const cwd = project({
        port: 0,
        quiet: true,
        'api-key': ['shared-key'],
        'max-pets': 1000,
        upstream: upstream.url,
        fallback: 'none',
      });
      const mock = await start([], { cwd });
      expect(mock.output()).toContain('config: petstore-kit.config.json');
      const fromMock = await get(`${mock.url}/pets/1`, 'shared-key');
      expect(fromMock.status).toBe(200);
      expect(fromMock.headers.get('petstore-kit-source')).toBeNull();
      await stop(mock.child);

      const proxy = await startCli(['proxy'], /listening on (http:\/\/\S+)/, { PETSTORE_API_KEYS: '' }, cwd);
      running.add(proxy.child);
      const fromUpstream = await get(`${proxy.match[1]}/pets/1`, 'shared-key');
      expect(fromUpstream.status).toBe(200);
      expect(fromUpstream.headers.get('petstore-kit-source')).toBe('upstream');
      expect(proxy.output()).toContain('config: petstore-kit.config.json');
      proxy.child.kill('SIGTERM');
      expect((await once(proxy.child, 'close'))[0]).toBe(0);

      // A key neither command takes is still a typo, for both.
      for (const command of ['mock', 'proxy']) {
        const typo = await runCli([command], {}, project({ upstream: upstream.url, 'max-pet': 1000 }));
        expect(typo.code).toBe(2);
        expect(
          typo.stderr.startsWith(
            'petstore-kit: petstore-kit.config.json: unknown key "max-pet"; keys are the long flag names: ',
          ),
        ).toBe(true);
      }
    } finally {
      await upstream.close();
    }
  });

  it('blames the flag, not the file, when a bad value was typed as a flag', async () => {
    const result = await runCli(['mock', '--port', 'abc'], {}, project({ port: 0 }));
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('petstore-kit: --port must be a whole number from 0 to 65535 (got "abc")');
  });
});
