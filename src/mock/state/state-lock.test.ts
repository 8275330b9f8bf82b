import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { acquireStateLock } from './state-lock.js';
import { tempDirs } from '../../../test/support/temp-dirs.js';

const tmp = tempDirs('petstore-lock-');

/** The pid of a process that has exited: a lock it held is stale. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('acquireStateLock', () => {
  it('refuses a second holder, naming the first (pid and host), until the first releases', async () => {
    const state = join(tmp(), 'state.json');
    const first = await acquireStateLock(state);
    expect(JSON.parse(readFileSync(`${state}.lock`, 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      since: expect.any(String),
    });
    const refused = acquireStateLock(state);
    await expect(refused).rejects.toThrow(`is in use by another mock (pid ${process.pid} on ${hostname()}`);
    await expect(refused).rejects.toThrow(`delete ${state}.lock`);
    await first.release();
    expect(existsSync(`${state}.lock`)).toBe(false);
    const second = await acquireStateLock(state);
    await second.release();
  });

  it('takes over a stale lock left by a process of this host that no longer runs', async () => {
    const dir = tmp();
    const state = join(dir, 'state.json');
    const pid = deadPid();
    writeFileSync(`${state}.lock`, JSON.stringify({ pid, host: hostname(), since: '2026-01-01T00:00:00.000Z' }));
    const lock = await acquireStateLock(state);
    expect(JSON.parse(readFileSync(`${state}.lock`, 'utf8')).pid).toBe(process.pid);
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('lets only one of two mocks starting at once take over a stale lock', async () => {
    const state = join(tmp(), 'state.json');
    writeFileSync(
      `${state}.lock`,
      JSON.stringify({ pid: deadPid(), host: hostname(), since: '2026-01-01T00:00:00.000Z' }),
    );
    const results = await Promise.allSettled([acquireStateLock(state), acquireStateLock(state)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    for (const result of results) if (result.status === 'fulfilled') await result.value.release();
  });

  it('refuses a lock held on another host, whose process it cannot see', async () => {
    const state = join(tmp(), 'state.json');
    writeFileSync(
      `${state}.lock`,
      JSON.stringify({ pid: deadPid(), host: 'elsewhere.example', since: '2026-01-01T00:00:00.000Z' }),
    );
    await expect(acquireStateLock(state)).rejects.toThrow(/in use by another mock \(pid \d+ on elsewhere\.example/);
  });

  it('never removes a lock that is no longer its own', async () => {
    const state = join(tmp(), 'state.json');
    const lock = await acquireStateLock(state);
    writeFileSync(`${state}.lock`, JSON.stringify({ pid: 1, host: 'other', since: 'x' }));
    await lock.release();
    expect(existsSync(`${state}.lock`)).toBe(true);
  });
});
