import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { checkWritable, writeFileAtomic } from './write-file-atomic.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces an earlier file whole and leaves no temp file', async () => {
    const file = join(dir, 'reports/report.json');
    await writeFileAtomic(file, 'old');
    await writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(join(dir, 'reports'))).toEqual(['report.json']);
  });

  it('replaces a symlink instead of writing through it', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const link = join(dir, 'link.xml');
    symlinkSync(victim, link);
    await writeFileAtomic(link, 'report');
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(readFileSync(link, 'utf8')).toBe('report');
  });
});

describe('checkWritable', () => {
  it('leaves an existing file as it was', async () => {
    const file = join(dir, 'existing.xml');
    writeFileSync(file, 'earlier run');
    await checkWritable(file);
    expect(readFileSync(file, 'utf8')).toBe('earlier run');
    expect(readdirSync(dir).filter((name) => name.includes('.probe'))).toEqual([]);
  });
});
