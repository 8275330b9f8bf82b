import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_FILE, flagsTaking, loadConfig, type FlagTable } from './load-config.js';
import { UsageError } from '../input-errors.js';

const flags: FlagTable = {
  port: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  spec: { type: 'string' },
  quiet: { type: 'boolean' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
const options = { flags, exclude: ['help', 'config'], fileFlags: new Set(['spec']) };

function dirWith(text: string | undefined, name = CONFIG_FILE): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-config-'));
  if (text !== undefined) writeFileSync(join(dir, name), text);
  return dir;
}

describe('loadConfig', () => {
  it('reads the long flag names into parseArgs values: numbers as strings, one string or an array for repeatable flags', async () => {
    const cwd = dirWith(JSON.stringify({ port: 4011, 'api-key': ['a', 'b'], quiet: true }));
    expect(await loadConfig(undefined, { ...options, cwd })).toEqual({
      file: CONFIG_FILE,
      values: { port: '4011', 'api-key': ['a', 'b'], quiet: true },
    });
    const single = dirWith(JSON.stringify({ 'api-key': 'only' }));
    expect((await loadConfig(undefined, { ...options, cwd: single }))?.values).toEqual({ 'api-key': ['only'] });
  });

  it('is absent, not an error, when there is no file in the current directory', async () => {
    expect(await loadConfig(undefined, { ...options, cwd: dirWith(undefined) })).toBeUndefined();
  });

  it('resolves FILE flags relative to the config file, like tsconfig', async () => {
    const cwd = dirWith(undefined);
    mkdirSync(join(cwd, 'conf'));
    writeFileSync(join(cwd, 'conf', 'mock.json'), JSON.stringify({ spec: 'api/openapi.yaml', port: '0' }));
    const config = await loadConfig('conf/mock.json', { ...options, cwd });
    expect(config).toEqual({
      file: 'conf/mock.json',
      values: { spec: join(cwd, 'conf', 'api', 'openapi.yaml'), port: '0' },
    });
    writeFileSync(join(cwd, 'conf', 'abs.json'), JSON.stringify({ spec: '/srv/openapi.yaml' }));
    expect((await loadConfig('conf/abs.json', { ...options, cwd }))?.values.spec).toBe('/srv/openapi.yaml');
  });

  it.each([
    [
      'an unknown key',
      '{"prot": 4011}',
      `${CONFIG_FILE}: unknown key "prot"; keys are the long flag names: port, api-key, spec, quiet`,
    ],
    ['an excluded flag', '{"help": true}', `${CONFIG_FILE}: unknown key "help"`],
    [
      'a boolean for a string flag',
      '{"port": true}',
      `${CONFIG_FILE}: "port" must be a string or a number (got boolean true)`,
    ],
    [
      'an array for a single flag',
      '{"port": [1]}',
      `${CONFIG_FILE}: "port" must be a string or a number (got an array)`,
    ],
    ['a string for a boolean', '{"quiet": "yes"}', `${CONFIG_FILE}: "quiet" must be true or false (got string "yes")`],
    [
      'an object in a list',
      '{"api-key": ["a", {}]}',
      `${CONFIG_FILE}: "api-key" must be a string, a number or an array of them (got an array)`,
    ],
    ['null', '{"port": null}', `${CONFIG_FILE}: "port" must be a string or a number (got null)`],
    ['a JSON array', '[1]', `${CONFIG_FILE}: must hold a JSON object of flags`],
    ['broken JSON', '{"port": 1,}', `${CONFIG_FILE}: not valid JSON (`],
    ['an inherited name', '{"toString": "x"}', `${CONFIG_FILE}: unknown key "toString"`],
  ])('rejects %s with a UsageError naming the file and key', async (_, text, message) => {
    const error = await loadConfig(undefined, { ...options, cwd: dirWith(text) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });

  it("leaves another command's keys to it, still judging its own and refusing a key no command takes", async () => {
    const shared = { ...options, leftToOthers: ['upstream', 'strict', 'port'] };
    const cwd = dirWith(
      JSON.stringify({ port: 4011, upstream: 'https://staging.example/v1', strict: 'not judged here' }),
    );
    expect((await loadConfig(undefined, { ...shared, cwd }))?.values).toEqual({ port: '4011' });
    const ownKeyWrong = await loadConfig(undefined, {
      ...shared,
      cwd: dirWith('{"port": true, "upstream": "x"}'),
    }).catch((e: unknown) => e);
    expect((ownKeyWrong as Error).message).toBe(
      `${CONFIG_FILE}: "port" must be a string or a number (got boolean true)`,
    );
    const typo = await loadConfig(undefined, { ...shared, cwd: dirWith('{"upstraem": "x"}') }).catch((e: unknown) => e);
    expect(typo).toBeInstanceOf(UsageError);
    expect((typo as Error).message.startsWith(`${CONFIG_FILE}: unknown key "upstraem"`)).toBe(true);
  });

  it('insists on a file named with --config', async () => {
    const error = await loadConfig('missing.json', { ...options, cwd: dirWith(undefined) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('--config missing.json: no such file');
  });
});

describe('flagsTaking', () => {
  it('finds the flags a help text shows with a placeholder', () => {
    expect(
      flagsTaking('FILE', '  --spec FILE   the doc\n  --port N  port\n  --state FILE  kept\n  --files-dir DIR'),
    ).toEqual(new Set(['spec', 'state']));
  });
});
