import { describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli, startCli } from './support/cli.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const tmp = mkdtempSync(join(tmpdir(), 'petstore-cli-'));

describe('petstore-kit CLI', () => {
  it('prints its version and help', async () => {
    expect((await runCli(['--version'])).stdout.trim()).toBe(pkg.version);
    const help = await runCli(['mock', '--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--port', '--host', '--api-key', '--spec', '--fixtures', '--body-limit', '--cors-origin'])
      expect(help.stdout).toContain(flag);
  });

  it.each([
    [['mock', '--bogus'], 2, "Unknown option '--bogus'"],
    [['mock', '--port', 'abc'], 2, '--port must be a whole number from 0 to 65535'],
    [['mock', '--port', '70000'], 2, '--port must be a whole number'],
    [['mock', '--api-key', ''], 2, '--api-key must not be empty'],
    [['fly'], 2, 'unknown command "fly"'],
    [['mock', '--spec', '/nonexistent.yaml', '--port', '0'], 2, '/nonexistent.yaml'],
  ])('fails %j with exit %i and one clear line', async (args, code, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names the file, record and field of a bad fixture', async () => {
    const file = join(tmp, 'bad-pets.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 1, name: 'ok', categoryId: 1 },
        { id: 2, name: 'bad', categoryId: 'x' },
      ]),
    );
    const result = await runCli(['mock', '--fixtures', file, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`petstore-kit: ${file}: record 1 (id 2): pet.categoryId must be an integer`);
  });

  it('says so when the port is in use', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['mock', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('the port is already in use');
    } finally {
      blocker.close();
    }
  });

  it('starts, prints the base URL and the development key, serves, and stops cleanly on SIGTERM', async () => {
    const { child, match, output } = await startCli(
      ['mock', '--port', '0'],
      /listening on (http:\/\/\S+)\n[\s\S]*API key: (\S+)/,
      { PETSTORE_API_KEYS: '' },
    );
    const [, url, key] = match;
    expect(url).toMatch(/\/v1$/);
    expect(key).toBe('petstore-dev-key');
    const response = await fetch(`${url}/pets?limit=2`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(2);
    child.kill('SIGTERM');
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
    expect(output()).toContain('stopped');
  });

  it('never prints configured keys', async () => {
    const { child, output } = await startCli(
      ['mock', '--port', '0', '--api-key', 'super-secret-1', '--api-key', 'super-secret-2'],
      /API keys: 2 configured/,
    );
    child.kill('SIGINT');
    await once(child, 'close');
    expect(output()).not.toContain('super-secret');
  });
});
