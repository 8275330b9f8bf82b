import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync, symlinkSync, writeFileSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';

// The state file's use: pieces written as they come, mode 0600.
const writeFileAtomically = (file: string, pieces: Iterable<string>) => writeFileAtomic(file, pieces, 0o600);
import { resolveStatePath } from './state-path.js';
import { stateText } from './state-file.js';
import { tempDirs } from '../../../test/support/temp-dirs.js';

const tmp = tempDirs('petstore-atomic-');

describe('writeFileAtomically', () => {
  it('writes the pieces into a private file (0600) and leaves nothing else behind', async () => {
    const dir = tmp();
    const file = join(dir, 'state.json');
    await writeFileAtomically(file, ['{', '"a"', ':1}']);
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('uses an unpredictable temporary name: the old pid-based name planted as a symlink is never followed', async () => {
    const dir = tmp();
    const file = join(dir, 'state.json');
    const victim = join(dir, 'unrelated.txt');
    writeFileSync(victim, 'keep me');
    // What the old writer used: `<file>.<pid>.tmp`, which anyone could plant as a link to another file.
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    await writeFileAtomically(file, ['{}']);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('{}');
  });

  it('keeps the old content and leaves no temporary file when a piece fails', async () => {
    const dir = tmp();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old');
    function* failing() {
      yield 'x'.repeat(2 * 1024 * 1024);
      throw new Error('disk on fire');
    }
    await expect(writeFileAtomically(file, failing())).rejects.toThrow('disk on fire');
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('resolveStatePath', () => {
  it('follows a symbolic link to the real file, even one that does not exist yet', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real', 'state.json'), join(dir, 'link.json'));
    expect(await resolveStatePath(join(dir, 'link.json'))).toBe(join(dir, 'real', 'state.json'));
    symlinkSync('link.json', join(dir, 'link2.json'));
    expect(await resolveStatePath(join(dir, 'link2.json'))).toBe(join(dir, 'real', 'state.json'));
  });

  it('refuses what is not a regular file, and a loop of links', async () => {
    const dir = tmp();
    await expect(resolveStatePath(dir)).rejects.toThrow('must be a regular file');
    symlinkSync(join(dir, 'b'), join(dir, 'a'));
    symlinkSync(join(dir, 'a'), join(dir, 'b'));
    await expect(resolveStatePath(join(dir, 'a'))).rejects.toThrow('too many levels of symbolic links');
  });
});

describe('stateText', () => {
  it('yields the state a pet at a time, never one string of the whole state', () => {
    const name = 'n'.repeat(1024 * 1024);
    const pets = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, name, categoryId: 2n ** 63n - 1n }));
    const pieces = [...stateText({ pets: { items: pets, nextId: 9 } })];
    expect(pieces).toHaveLength(10);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(name.length + 100);
    const parsed = pieces.join('');
    expect(parsed).toContain('"categoryId":9223372036854775807}');
    expect(parsed.split('\n')).toHaveLength(14);
  });
});
