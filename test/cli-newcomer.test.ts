import { portRefuses } from './support/port-refuses.js';
import { afterAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliFile, runCli, startCli } from './support/cli.js';

// What a newcomer trips on in the first ten minutes, each a test that failed before.
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const tmp = mkdtempSync(join(tmpdir(), 'petstore-newcomer-'));
const READY = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/v\d+)/;
const noKeys = { PETSTORE_API_KEYS: '', PETSTORE_API_KEY: '' };

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('petstore-kit mock, as a newcomer calls it', () => {
  it('takes -p for --port and prints its version with mock --version and -v', async () => {
    const { child, match } = await startCli(['mock', '-p', '0'], READY, noKeys);
    child.kill('SIGTERM');
    await once(child, 'close');
    expect(Number(match[2])).toBeGreaterThan(0);
    for (const flag of ['--version', '-v']) {
      const result = await runCli(['mock', flag]);
      expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('takes the document as a positional argument, as `prism mock openapi.yaml` does', async () => {
    const document = join(tmp, 'v9.yaml');
    writeFileSync(
      document,
      readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8').replaceAll(
        '.example.com/v1',
        '.example.com/v9',
      ),
    );
    const { child, match } = await startCli(['mock', document, '--port', '0'], READY, noKeys);
    child.kill('SIGTERM');
    await once(child, 'close');
    expect(match[1]).toMatch(/\/v9$/);
  });

  it.each([
    [
      ['mock', 'a.yaml', 'b.yaml'],
      'petstore-kit: one document at most (got "a.yaml", "b.yaml"); see "petstore-kit mock --help"',
    ],
    [
      ['mock', 'a.yaml', '--spec', 'b.yaml'],
      'petstore-kit: give the document once: "a.yaml" or --spec b.yaml, not both',
    ],
    [['mock', '--prot', '4010'], 'petstore-kit: Unknown option \'--prot\'; see "petstore-kit mock --help"'],
    [
      ['contract', '--base', 'http://x/v1'],
      'petstore-kit: Unknown option \'--base\'; see "petstore-kit contract --help"',
    ],
    [
      ['mokc'],
      'petstore-kit: unknown command "mokc"; commands: mock, contract, proxy, fixtures, compat, compile-web (see "petstore-kit --help")',
    ],
  ])('answers %j with exit 2 and one line that says where to look', async (args, line) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('says what to do when the port is in use', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runCli(['mock', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `petstore-kit: the port is already in use (127.0.0.1:${port}); choose another with --port N (-p N), or --port 0 for a free one\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('notices the key variable of the other command, without printing its value', async () => {
    const contract = await runCli(['contract', '--base-url', 'http://127.0.0.1:9/v1'], {
      ...noKeys,
      PETSTORE_API_KEYS: 'secret-key-1,secret-key-2',
    });
    expect(contract.code).toBe(2);
    expect(contract.stderr).toContain(
      "PETSTORE_API_KEYS is set, but that is the mock's list of accepted keys; this command reads PETSTORE_API_KEY",
    );
    const { child, output } = await startCli(['mock', '--port', '0'], /API key: .*\n/, {
      ...noKeys,
      PETSTORE_API_KEY: 'secret-key-3',
    });
    child.kill('SIGTERM');
    await once(child, 'close');
    expect(output()).toContain('PETSTORE_API_KEY is set, but the mock reads PETSTORE_API_KEYS');
    expect(contract.stderr + output()).not.toContain('secret-key');
  });
});

describe('petstore-kit mock output', () => {
  it('keeps stdout JSON only with --log-format json: start-up and stop lines go to stderr', async () => {
    const { child, match, stdout, stderr } = await startCli(
      ['mock', '--port', '0', '--log-format', 'json'],
      READY,
      noKeys,
    );
    try {
      for (const path of ['/pets?limit=1', '/nope'])
        await (
          await fetch(`${match[1]}${path}`, { headers: { authorization: 'Bearer petstore-dev-key' } })
        ).arrayBuffer();
      await expect.poll(() => stdout().split('\n').filter(Boolean).length).toBe(2);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
    const lines = stdout().split('\n').filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual([200, 404]);
    expect(stderr()).toContain('petstore-kit mock listening on');
    expect(stderr()).toContain('petstore-kit mock stopped');
  });

  it("prints a try: line that a shell with failglob (zsh's nomatch) runs as written", async () => {
    const { child, output } = await startCli(['mock', '--port', '0'], /try: (.*)\n/, noKeys);
    child.kill('SIGTERM');
    await once(child, 'close');
    const tryLine = /try: (curl .*)\n/.exec(output())![1]!;
    const url = READY.exec(output())![1]!;
    // printf in curl's place shows the words the shell made; an unquoted `?` fails under failglob, as under zsh.
    const { stdout } = await run('bash', ['-O', 'failglob', '-c', tryLine.replace(/^curl /, "printf '%s\\n' ")], {
      cwd: tmp,
    });
    expect(stdout.split('\n')).toEqual(['-H', 'Authorization: Bearer petstore-dev-key', `${url}/pets?limit=2`, '']);
  });
});

describe('the trip-ups of a first hour', () => {
  it('https:// to the mock, which speaks http, says to use http:// instead of quoting OpenSSL', async () => {
    const { child, output } = await startCli(['mock', '--port', '0'], /listening on/, noKeys);
    try {
      const url = READY.exec(output())![1]!.replace('http://', 'https://');
      const result = await runCli(['contract', '--base-url', url, '--api-key', 'petstore-dev-key']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'the target speaks plain HTTP, not TLS: use http:// in --base-url (ERR_SSL_WRONG_VERSION_NUMBER)',
      );
      expect(result.stderr).not.toMatch(/ssl3_get_record|openssl/i);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it("names the OpenAPI document's URL in its banner, and a forced 401 claims nothing about which header was sent", async () => {
    const { child, output } = await startCli(['mock', '--port', '0'], /admin API/, noKeys);
    try {
      const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())![1]!;
      expect(output()).toContain(`docs: ${origin}/docs (the OpenAPI document: ${origin}/docs/openapi.json)`);
      expect((await fetch(`${origin}/docs/openapi.json`)).status).toBe(200);
      const forced = await fetch(`${origin}/v1/pets`, {
        headers: { Authorization: 'Bearer petstore-dev-key', Prefer: 'code=401' },
      });
      expect(forced.status).toBe(401);
      expect(((await forced.json()) as { message: string }).message).toBe('the API key is missing or invalid');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('stopping the mock', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
    'stops cleanly on %s, even sent the moment it is ready',
    async (signal) => {
      const { child, output } = await startCli(['mock', '--port', '0'], /listening on/, noKeys);
      child.kill(signal);
      const [code, killedBy] = await once(child, 'close');
      expect({ code, killedBy }).toEqual({ code: 0, killedBy: null });
      expect(output()).toContain('petstore-kit mock stopped');
    },
  );

  it('takes a Ctrl-C delivered twice at once (terminal and npm) as one', async () => {
    const { child, output } = await startCli(['mock', '--port', '0'], /admin API/, noKeys);
    child.kill('SIGINT');
    // npm's copy comes a moment after the terminal's; a few milliseconds is when it used to kill the mock.
    await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGINT');
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
    expect(output()).toContain('petstore-kit mock stopped');
  });

  it('under npm, stops when the process that started it exits (npm signals its `sh -c`, which dies and leaves the mock)', async () => {
    // What npx and npm run put in the environment of the `sh -c` they start.
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${cliFile}" mock --port 0 & echo "pid=$!"; wait`], {
      env: { ...process.env, ...noKeys, npm_command: 'exec' },
    });
    let output = '';
    shell.stdout.on('data', (chunk) => (output += chunk));
    shell.stderr.on('data', (chunk) => (output += chunk));
    await expect.poll(() => READY.test(output) && /pid=\d+/.test(output), { timeout: 20_000 }).toBe(true);
    const mockPid = Number(/pid=(\d+)/.exec(output)![1]);
    const port = Number(READY.exec(output)![2]);
    try {
      shell.kill('SIGTERM');
      await expect.poll(() => alive(mockPid), { timeout: 10_000, interval: 100 }).toBe(false);
      expect(await portRefuses(port)).toBe(true);
      expect(output).toMatch(/the process that started the mock \(pid \d+\) has exited; stopping/);
    } finally {
      if (alive(mockPid)) process.kill(mockPid, 'SIGKILL');
    }
  });

  // The usual CI pattern starts the mock in the background in one step and tests it in the next.
  it('started in the background by a shell, keeps running after that shell exits, and stops on SIGTERM', async () => {
    const env = Object.fromEntries(
      Object.entries({ ...process.env, ...noKeys }).filter(([name]) => !name.startsWith('npm_')),
    );
    const logFile = join(tmp, 'background.log');
    // As in the issue: start it in the background, wait until it answers, and let the shell end.
    const shell = spawn(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${cliFile}" mock --port 0 > "${logFile}" 2>&1 & echo "pid=$!"; until grep -q listening "${logFile}"; do sleep 0.1; done`,
      ],
      { env },
    );
    let output = '';
    shell.stdout.on('data', (chunk) => (output += chunk));
    await once(shell, 'close');
    const mockPid = Number(/pid=(\d+)/.exec(output)![1]);
    try {
      await expect.poll(() => READY.test(readFileSync(logFile, 'utf8')), { timeout: 20_000 }).toBe(true);
      const port = Number(READY.exec(readFileSync(logFile, 'utf8'))![2]);
      // Well past the parent watcher's interval: still alive, still answering.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(alive(mockPid)).toBe(true);
      const answer = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, {
        headers: { Authorization: 'Bearer petstore-dev-key' },
      });
      expect(answer.status).toBe(200);
      process.kill(mockPid, 'SIGTERM');
      await expect.poll(() => alive(mockPid), { timeout: 10_000, interval: 100 }).toBe(false);
      expect(await portRefuses(port)).toBe(true);
      expect(readFileSync(logFile, 'utf8')).not.toMatch(/has exited; stopping/);
    } finally {
      if (alive(mockPid)) process.kill(mockPid, 'SIGKILL');
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
