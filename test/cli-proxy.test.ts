import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { runCli, startCli } from './support/cli.js';
import { startIndependentPetstore, type IndependentPetstore } from './targets/independent-petstore.js';
import { loadFixtures } from '../src/mock/document/load-fixtures.js';
import { loadSpec } from '../src/openapi/load-spec.js';

const KEY = 'ci-staging-key-4e1b';

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('close', (code) => resolve(code)),
  );
}

describe('petstore-kit proxy in a CI job', () => {
  let dir: string;
  let faulty: IndependentPetstore;
  let correct: IndependentPetstore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-cli-proxy-'));
    [faulty, correct] = await Promise.all([
      startIndependentPetstore({ key: KEY, fault: 'getPet-id-as-string' }),
      startIndependentPetstore({ key: KEY }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([faulty.close(), correct.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the summary on SIGTERM and exits 1 with --fail-on-violation when the upstream broke the contract', async () => {
    const har = join(dir, 'ci.har');
    const cli = await startCli(
      [
        'proxy',
        '--upstream',
        faulty.url,
        '--port',
        '0',
        '--fail-on-violation',
        '--no-config',
        '--quiet',
        '--record',
        har,
      ],
      /listening on (http\S+)/,
      { PETSTORE_API_KEYS: KEY },
    );
    try {
      const base = cli.match[1]!;
      const auth = { authorization: `Bearer ${KEY}` };
      const list = await fetch(`${base}/pets?limit=2`, { headers: auth });
      expect(list.status).toBe(200);
      const [first] = (await list.json()) as { id: number }[];
      const got = await fetch(`${base}/pets/${first!.id}`, { headers: auth });
      expect(got.headers.get('petstore-kit-violations')).toBe('1; schema.response');
      await cli.waitFor(/violation schema\.response on getPet/);
      cli.child.kill('SIGTERM');
      expect(await exited(cli.child)).toBe(1);
      expect(cli.stdout()).toContain(
        'petstore-kit proxy: 2 exchanges, 1 violation\n  schema.response: 1\n  served by the embedded mock: 0 (0.0 %)',
      );
      expect(cli.stdout()).toContain('failing (--fail-on-violation)');
      expect(cli.output()).not.toContain(KEY);
      const recorded = JSON.parse(await readFile(har, 'utf8'));
      expect(recorded.log.entries).toHaveLength(2);

      const out = join(dir, 'pets.json');
      const converted = await runCli(['fixtures', '--from-har', har, '--out', out]);
      expect(converted.code).toBe(0);
      expect(converted.stderr).toMatch(
        /^petstore-kit: 2 pets from 1 of 2 recorded exchanges written to .*pets\.json; 1 object with an id broke the Pet schema and was left out\n$/,
      );
      const fixtures = await loadFixtures(out, await loadSpec());
      // The list's two pets; the getPet answer (id as a string) broke the Pet schema and is left out.
      const listed = (JSON.parse(recorded.log.entries[0].response.content.text) as { id: number }[]).map(
        (pet) => pet.id,
      );
      expect(fixtures.map((pet) => pet.id)).toEqual(listed.sort((a, b) => a - b));
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it('exits 0 with --fail-on-violation when every exchange kept the contract', async () => {
    const cli = await startCli(
      ['proxy', '--upstream', correct.url, '--port', '0', '--fail-on-violation', '--no-config', '--quiet'],
      /listening on (http\S+)/,
      { PETSTORE_API_KEYS: KEY },
    );
    try {
      const response = await fetch(`${cli.match[1]}/pets/1000`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(response.status).toBe(200);
      cli.child.kill('SIGINT');
      expect(await exited(cli.child)).toBe(0);
      expect(cli.stdout()).toContain(
        'petstore-kit proxy: 1 exchange, 0 violations\n  served by the embedded mock: 0 (0.0 %)',
      );
    } finally {
      cli.child.kill('SIGKILL');
    }
  });

  it.for([
    [[], 1],
    [['--allow-invalid-requests'], 0],
  ] as Array<[string[], number]>)(
    'counts an invalid request sent by the client (flags %j): exit %i',
    async ([flags, code]) => {
      const cli = await startCli(
        ['proxy', '--upstream', correct.url, '--port', '0', '--fail-on-violation', ...flags, '--no-config', '--quiet'],
        /listening on (http\S+)/,
        { PETSTORE_API_KEYS: KEY },
      );
      try {
        // A negative test of an e2e suite: the upstream's 400 keeps the contract, the request did not.
        const response = await fetch(`${cli.match[1]}/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: '{"name":5,"categoryId":1}',
        });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.headers.get('petstore-kit-violations')).toBe('1; request.body');
        cli.child.kill('SIGTERM');
        expect(await exited(cli.child)).toBe(code);
        expect(cli.stdout()).toContain(
          'petstore-kit proxy: 1 exchange, 1 violation (1 in requests, 0 in answers)\n  request.body: 1\n',
        );
        if (code === 1) expect(cli.stdout()).toContain('failing (--fail-on-violation): 1 violation\n');
        else expect(cli.stdout()).not.toContain('failing');
      } finally {
        cli.child.kill('SIGKILL');
      }
    },
  );

  it("keeps the embedded mock's pets in --state across restarts, while the upstream is away", async () => {
    const state = join(dir, 'fallback-state.json');
    const args = [
      'proxy',
      '--upstream',
      'http://127.0.0.1:1/v1',
      '--port',
      '0',
      '--state',
      state,
      '--max-pets',
      '500',
      '--no-config',
      '--quiet',
    ];
    const first = await startCli(args, /listening on (http\S+)/, { PETSTORE_API_KEYS: KEY });
    let id: number;
    try {
      const created = await fetch(`${first.match[1]}/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: '{"name":"Offline Olive","categoryId":3}',
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('petstore-kit-source')).toBe('mock');
      id = ((await created.json()) as { id: number }).id;
      expect(first.stdout()).toContain(`the embedded mock's pets: kept in ${state}`);
      first.child.kill('SIGTERM');
      expect(await exited(first.child)).toBe(0);
    } finally {
      first.child.kill('SIGKILL');
    }
    const second = await startCli(args, /listening on (http\S+)/, { PETSTORE_API_KEYS: KEY });
    try {
      const again = await fetch(`${second.match[1]}/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ id, name: 'Offline Olive', categoryId: 3 });
      second.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
    } finally {
      second.child.kill('SIGKILL');
    }
  });

  // An upstream URL without its base path answered 404 to everything, with 0 violations and exit 0.
  it("says so at start when the upstream does not serve the document's paths, and counts its 404s as violations", async () => {
    const withoutBase = correct.url.replace(/\/v1$/, '');
    const cli = await startCli(
      ['proxy', '--upstream', withoutBase, '--port', '0', '--no-config', '--quiet'],
      /listening on (http\S+)/,
      { PETSTORE_API_KEYS: KEY },
    );
    try {
      await expect
        .poll(() => cli.stdout(), { timeout: 10_000 })
        .toMatch(
          /warning: upstream http:\/\/127\.0\.0\.1:\d+ answered 404 for GET \/pets, a path of the document that always exists: .*does --upstream lack the base path \/v1\?/,
        );
      const list = await fetch(`${cli.match[1]}/pets?limit=2`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(list.status).toBe(404);
      expect(list.headers.get('petstore-kit-violations')).toBe('1; status.documented');
      cli.child.kill('SIGINT');
      expect(await exited(cli.child)).toBe(0);
      expect(cli.stdout()).toContain('1 exchange, 1 violation');
    } finally {
      cli.child.kill('SIGKILL');
    }
    const refused = await runCli(
      ['proxy', '--upstream', withoutBase, '--port', '0', '--fail-on-violation', '--no-config', '--quiet'],
      { PETSTORE_API_KEYS: KEY },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/answered 404 for GET \/pets.*; not starting \(--fail-on-violation\)/);
    // The right URL: the probe says the path is served.
    const right = await startCli(
      ['proxy', '--upstream', correct.url, '--port', '0', '--no-config', '--quiet'],
      /listening on (http\S+)/,
      { PETSTORE_API_KEYS: KEY },
    );
    try {
      await expect
        .poll(() => right.stdout(), { timeout: 10_000 })
        .toMatch(/upstream: answers GET \/v1\/pets \(401 without a key\)/);
    } finally {
      right.child.kill('SIGKILL');
    }
  });

  it('refuses a missing or malformed --upstream with exit 2 and a message naming the flag', async () => {
    const missing = await runCli(['proxy', '--no-config']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('proxy needs --upstream URL');
    const bad = await runCli(['proxy', '--no-config', '--upstream', 'ftp://x/v1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--upstream must be an http:// or https:// URL (got ftp:)');
    const fallback = await runCli([
      'proxy',
      '--no-config',
      '--upstream',
      'http://127.0.0.1:1/v1',
      '--fallback',
      'sometimes',
    ]);
    expect(fallback.code).toBe(2);
    expect(fallback.stderr).toContain('--fallback must be mock or none (got "sometimes")');
  });
});

describe('README on the proxy', () => {
  it("lists exactly the proxy's flags in its options table", async () => {
    const { section } = await import('./support/docs.js');
    const table = section('`npx petstore-kit proxy --upstream URL [options]`');
    const help = await runCli(['proxy', '--help']);
    const helpFlags = [...help.stdout.matchAll(/^ {2}(?:(-[a-zA-Z]), )?(--[a-z-]+)/gm)]
      .flatMap((m) => (m[1] ? [m[1], m[2]!] : [m[2]!]))
      .sort();
    const tableFlags = [
      ...new Set(
        [...table.replaceAll('\\|', '/').matchAll(/^\| ([^|]*`-[^|]*) \|/gm)].flatMap((row) =>
          [...row[1]!.matchAll(/`(--?[a-zA-Z][a-z-]*)/g)].map((m) => m[1]!),
        ),
      ),
    ].sort();
    expect(tableFlags).toEqual(helpFlags);
  });
});
