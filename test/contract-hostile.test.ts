import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli } from './support/cli.js';
import { startConnectProxy } from './support/connect-proxy.js';
import { json, startHostileTarget, startSlowTarget, type HostileTarget } from './support/hostile-target.js';
import type { ContractReport } from '../src/contract/reports/build-report.js';
import { limitForRuns } from './support/run-budget.js';
import { selfSignedCertificate } from './support/self-signed.js';

// A valid bearer token (RFC 6750 b64token) with the characters encodings treat differently: + / and =.
const KEY = 'atk+key/99Zq-7f3a9c==';
const GATEWAY_SECRET = 'gw-secret-5e7d1b2c';
const tmp = mkdtempSync(join(tmpdir(), 'petstore-hostile-'));
const read = (file: string) => readFileSync(file, 'utf8');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const b64 = (text: string) => Buffer.from(text).toString('base64');
const jsonEscaped = [...KEY]
  .map((c) => (/[a-z0-9]/i.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`))
  .join('');
/** Every encoding of the key the hostile target echoes, as it appears on the wire. */
const echoes = {
  raw: KEY,
  upper: KEY.toUpperCase(),
  lower: KEY.toLowerCase(),
  jsonUnicode: jsonEscaped,
  jsonSlash: KEY.replace(/\//g, '\\/'),
  percentUpper: encodeURIComponent(KEY),
  percentLower: encodeURIComponent(KEY).toLowerCase(),
  base64: b64(KEY),
  base64Header: b64(`Bearer ${KEY}`),
  gateway: GATEWAY_SECRET,
  gatewayBase64: b64(GATEWAY_SECRET),
};
/** What must appear in no output: the key and the gateway secret in every form a reader could decode. */
const forbidden = [
  ...new Set([...Object.values(echoes), KEY.replace(/\//g, '\\/'), encodeURIComponent(GATEWAY_SECRET)]),
];

function assertClean(name: string, text: string): void {
  for (const form of forbidden) expect(text, `${name} holds the secret as ${form}`).not.toContain(form);
  // No control byte of the target's reaches any output: no ANSI, no carriage return, no NUL.
  expect(text, `${name} holds a control character`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/);
  // No line starts with a workflow command a target wrote.
  expect(
    text.split('\n').filter((line) => line.trimStart().startsWith('::')),
    `${name} has a line starting with ::`,
  ).toEqual([]);
}

describe('a target that echoes the key in every encoding and writes control characters', () => {
  let target: HostileTarget;
  beforeAll(async () => {
    target = await startHostileTarget((req, res, n) => {
      const echo = Object.values(echoes).join(' | ');
      if (n % 3 === 0) {
        // Text with raw control bytes, a fake workflow command and a fake green summary line.
        res.writeHead(400, { 'content-type': 'text/plain', 'x-echo': `${echoes.base64} ${echoes.percentLower}` });
        return void res.end(
          `oops ${echo}\n::error ::fake\r\n\u001b[32m53 cases: 53 passed, 0 failed\u001b[0m\u0000\u0007`,
        );
      }
      // The JSON is written by hand so that the \u escapes and \/ reach the runner as the target wrote them.
      const text = `{"code":"bad\\n::error ::injected\\u001b[31m","message":"key ${echo.replace(/\\/g, '\\\\').replace(/"/g, '\\"')} ${jsonEscaped} ${KEY.replace(/\//g, '\\/')}","status":400}`;
      res.writeHead(400, {
        'content-type': 'application/json',
        'x-echo': `${req.headers.authorization ?? ''} ${String(req.headers['x-gateway'] ?? '')}`,
      });
      res.end(text);
    });
  });
  afterAll(() => target.close());

  it(
    'keeps the key and the -H secret out of stdout, stderr and every report, and escapes what the target wrote',
    async () => {
      const files = { junit: join(tmp, 'echo.xml'), json: join(tmp, 'echo.json'), summary: join(tmp, 'echo.md') };
      const result = await runCli(
        [
          'contract',
          '--base-url',
          target.url,
          '--api-key',
          KEY,
          '-H',
          `X-Gateway: ${GATEWAY_SECRET}`,
          '--junit',
          files.junit,
          '--json',
          files.json,
        ],
        { GITHUB_STEP_SUMMARY: files.summary },
      );
      expect(result.code).toBe(1);
      expect(target.requests()).toBeGreaterThan(40);
      for (const [name, text] of [
        ['stdout', result.stdout],
        ['stderr', result.stderr],
        ['junit', read(files.junit)],
        ['json', read(files.json)],
        ['summary', read(files.summary)],
      ] as const) {
        assertClean(name, text);
      }
      // The JSON report decoded once more (a reader's JSON.parse) still holds no secret.
      assertClean('json values', JSON.stringify(JSON.parse(read(files.json)), null, 0).replace(/\\n/g, ' '));
      // What the target wrote is shown, escaped, beside the rule: status, media type and an excerpt.
      expect(result.stdout).toMatch(/got: {6}400 text\/plain oops \*\*\*/);
      expect(result.stdout).toContain(
        '\\n::error ::fake\\r\\n\\x1b[32m53 cases: 53 passed, 0 failed\\x1b[0m\\x00\\x07',
      );
      expect(read(files.summary)).toContain('\\\\n::error ::fake');
      const report = JSON.parse(read(files.json)) as ContractReport;
      expect(report.notes.some((n) => n.message.includes('400 bad\\n::error ::injected\\x1b[31m'))).toBe(true);
      // The curl commands show the -H header by name only.
      expect(result.stdout).toContain('-H "X-Gateway: ${PETSTORE_HEADER_X_GATEWAY}"');
    },
    limitForRuns(1),
  );
});

describe('misread mistakes: exit 2 and one line naming what to fix', () => {
  const servers: (Server | HttpsServer)[] = [];
  afterAll(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });
  async function listen<T extends Server | HttpsServer>(server: T): Promise<string> {
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return String((server.address() as AddressInfo).port);
  }

  it('a 301 to https names the Location and the base URL to use', async () => {
    const port = await listen(
      createHttpServer((req, res) => {
        res.writeHead(301, { location: `https://api.example.test${req.url}` });
        res.end('<html>moved</html>');
      }),
    );
    const result = await runCli(['contract', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-kit: GET http://127.0.0.1:${port}/v1/pets?limit=1 answered 301 with Location: https://api.example.test/v1/pets?limit=1; the runner follows no redirects: use --base-url https://api.example.test/v1\n`,
    );
    expect(result.stdout).toBe('');
  });

  it("an app's HTML catch-all page at the base URL", async () => {
    const port = await listen(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html><body>My SPA</body></html>');
      }),
    );
    const result = await runCli(['contract', '--base-url', `http://127.0.0.1:${port}`, '--api-key', KEY]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-kit: GET http://127.0.0.1:${port}/pets?limit=1 answered 200 with an HTML page, not the API: is --base-url the API's base URL (a web app's catch-all, a login page or a proxy's page answers here)?\n`,
    );
  });

  it("a stub's 4xx text answer to a valid request (another non-API answer)", async () => {
    const port = await listen(
      createHttpServer((req, res) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`No matching REST stub or contract found for method GET and path ${req.url}\n`);
      }),
    );
    const result = await runCli(['contract', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-kit: GET http://127.0.0.1:${port}/v1/pets?limit=1 answered 400 with text/plain, not JSON: is --base-url the API's base URL? The body begins: No matching REST stub or contract found for method GET and path /v1/pets?limit=1… (81 characters)\n`,
    );
  });

  it('64 KB of response headers is reported as what it is', async () => {
    const port = await listen(
      createHttpServer((_req, res) => {
        for (let i = 0; i < 64; i++) res.setHeader(`x-filler-${i}`, 'x'.repeat(1000));
        json(res, 200, []);
      }),
    );
    const result = await runCli(['contract', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `petstore-kit: cannot reach http://127.0.0.1:${port}/v1: the response headers are larger than 16 KiB (the limit of Node and of most proxies) (UND_ERR_HEADERS_OVERFLOW)\n`,
    );
  });

  it.concurrent.for<[string, string[], Record<string, string>, string]>([
    [
      'a query in the base URL',
      ['--base-url', 'http://127.0.0.1:9/v1?api_key=s3cr3t-in-query'],
      {},
      "petstore-kit: --base-url must not have a query or fragment (got http://127.0.0.1:9/v1 followed by a query): the runner adds each operation's path and query\n",
    ],
    [
      'a fragment in the base URL',
      ['--base-url', 'http://127.0.0.1:9/v1#top'],
      {},
      "petstore-kit: --base-url must not have a query or fragment (got http://127.0.0.1:9/v1 followed by a fragment): the runner adds each operation's path and query\n",
    ],
    [
      'credentials in the base URL',
      ['--base-url', 'http://admin:hunter2-pass@127.0.0.1:9/v1'],
      {},
      'petstore-kit: --base-url must not carry credentials (user:password@): pass the key with --api-key and other credentials with -H; the URL is not shown\n',
    ],
    [
      'a key with a newline',
      ['--base-url', 'http://127.0.0.1:9/v1'],
      { PETSTORE_API_KEY: 'good-start\nEvil: header' },
      'petstore-kit: the API key is not a bearer token (RFC 6750 §2.1: letters, digits, "-._~+/", then any "="; no spaces, newlines or control characters) nor user:password for HTTP Basic (RFC 7617); it is not shown\n',
    ],
    // A key given with its scheme got the generic refusal, without saying what to change.
    [
      'a key given with "Bearer "',
      ['--base-url', 'http://127.0.0.1:9/v1'],
      { PETSTORE_API_KEY: 'Bearer Evil-key-123' },
      'petstore-kit: the API key starts with "Bearer ": give the key alone (--api-key abc, not --api-key \'Bearer abc\'); the runner sends "Authorization: Bearer <key>" itself; the key is not shown\n',
    ],
    [
      'a header value with a newline',
      ['--base-url', 'http://127.0.0.1:9/v1', '-H', 'X-Token: abc\r\nInjected: yes'],
      { PETSTORE_API_KEY: KEY },
      'petstore-kit: -H X-Token: the value has a control character or a newline (RFC 9110 §5.5); it is not shown\n',
    ],
    [
      'a header that is not Name: value',
      ['--base-url', 'http://127.0.0.1:9/v1', '-H', 'no colon here'],
      { PETSTORE_API_KEY: KEY },
      'petstore-kit: -H/--header must be \'Name: value\' with a token as the name (got a header whose name is "no colon here")\n',
    ],
    [
      'Authorization as -H',
      ['--base-url', 'http://127.0.0.1:9/v1', '-H', 'Authorization: Bearer x'],
      { PETSTORE_API_KEY: KEY },
      'petstore-kit: -H Authorization: the runner sets this header itself (the key goes in --api-key)\n',
    ],
    [
      'a --ca file that does not exist',
      ['--base-url', 'https://127.0.0.1:9/v1', '--ca', '/nonexistent/ca.pem'],
      { PETSTORE_API_KEY: KEY },
      'petstore-kit: --ca /nonexistent/ca.pem: cannot read it (ENOENT)\n',
    ],
    [
      'a bad --max-body',
      ['--base-url', 'http://127.0.0.1:9/v1', '--max-body', '5GB'],
      { PETSTORE_API_KEY: KEY },
      'petstore-kit: --max-body must be a size from 1KiB to 256MiB, in bytes or with KiB/MiB (got "5GB")\n',
    ],
  ])('%s', async ([, args, env, line]) => {
    const result = await runCli(
      ['contract', '--api-key', env.PETSTORE_API_KEY ?? KEY, ...args].filter(
        (a, i, all) => !(env.PETSTORE_API_KEY && (a === '--api-key' || all[i - 1] === '--api-key')),
      ),
      { PETSTORE_API_KEY: '', CONTRACT_BASE_URL: '', ...env },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(line);
    expect(result.stdout).toBe('');
    for (const secret of ['s3cr3t-in-query', 'hunter2-pass', 'Evil', 'Injected'])
      expect(result.stderr).not.toContain(secret);
  });
});

describe('certificates and proxies', () => {
  const dir = join(tmp, 'tls');
  let https: HttpsServer;
  let httpsUrl = '';
  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    const { key, cert } = selfSignedCertificate(dir);
    https = createHttpsServer({ key, cert }, (req, res) => {
      req.resume();
      if (!req.headers.authorization) return json(res, 401, { code: 'unauthorized', message: 'no key', status: 401 });
      json(res, 200, []);
    });
    https.listen(0, '127.0.0.1');
    await once(https, 'listening');
    httpsUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    https.closeAllConnections();
    https.close();
  });

  it(
    'a self-signed certificate: exit 2 with the fix; --ca trusts it; --insecure warns and goes on',
    async () => {
      const plain = await runCli(['contract', '--base-url', httpsUrl, '--api-key', KEY]);
      expect(plain.code).toBe(2);
      expect(plain.stderr).toBe(
        `petstore-kit: cannot reach ${httpsUrl}: self-signed certificate: pass its CA with --ca FILE (or --insecure for a test deployment) (DEPTH_ZERO_SELF_SIGNED_CERT)\n`,
      );
      const trusted = await runCli([
        'contract',
        '--base-url',
        httpsUrl,
        '--api-key',
        KEY,
        '--read-only',
        '--ca',
        join(dir, 'cert.pem'),
      ]);
      expect(trusted.stderr).toBe('');
      expect(trusted.code).toBe(1);
      expect(trusted.stdout).toMatch(/\n\d+ cases: \d+ passed, \d+ failed/);
      const insecure = await runCli([
        'contract',
        '--base-url',
        httpsUrl,
        '--api-key',
        KEY,
        '--read-only',
        '--insecure',
      ]);
      expect(insecure.code).toBe(1);
      expect(insecure.stderr).toBe(
        "petstore-kit: warning: --insecure: the target's certificate is not checked; anyone on the path could read the API key\n",
      );
    },
    limitForRuns(3),
  );

  it(
    'goes through HTTP_PROXY (CONNECT), and around it for NO_PROXY hosts',
    async () => {
      const proxy = await startConnectProxy();
      const { tunnelled, url: proxyUrl } = proxy;
      const target = await startHostileTarget(() => false);
      try {
        const via = await runCli(['contract', '--base-url', target.url, '--api-key', KEY, '--read-only'], {
          HTTP_PROXY: proxyUrl,
          NO_PROXY: '',
        });
        expect(via.code).toBe(1);
        expect(tunnelled.length).toBeGreaterThan(0);
        expect(tunnelled.every((authority) => authority === new URL(target.url).host)).toBe(true);
        const before = tunnelled.length;
        const around = await runCli(['contract', '--base-url', target.url, '--api-key', KEY, '--read-only'], {
          HTTP_PROXY: proxyUrl,
          NO_PROXY: '127.0.0.1',
        });
        expect(around.code).toBe(1);
        expect(tunnelled.length).toBe(before);
      } finally {
        await target.close();
        proxy.close();
      }
    },
    limitForRuns(2),
  );
});

describe('headers from the config file, and Ctrl-C', () => {
  it(
    'sends the -H headers of a --config file (paths in it relative to the file) on every request',
    async () => {
      const seen: (string | undefined)[] = [];
      const target = await startHostileTarget(
        (req) => {
          seen.push(req.headers['x-gateway'] as string | undefined);
          return false;
        },
        {
          probe: (req, res) => {
            seen.push(req.headers['x-gateway'] as string | undefined);
            json(res, 200, []);
          },
        },
      );
      try {
        mkdirSync(join(tmp, 'conf'), { recursive: true });
        writeFileSync(
          join(tmp, 'conf/contract.json'),
          JSON.stringify({ header: [`X-Gateway: ${GATEWAY_SECRET}`], 'read-only': true, json: 'out/report.json' }),
        );
        const result = await runCli([
          'contract',
          '--base-url',
          target.url,
          '--api-key',
          KEY,
          '--config',
          join(tmp, 'conf/contract.json'),
        ]);
        expect(result.code).toBe(1);
        expect(seen.length).toBeGreaterThan(20);
        expect(seen.every((value) => value === GATEWAY_SECRET)).toBe(true);
        assertClean('stdout', result.stdout);
        assertClean('json', read(join(tmp, 'conf/out/report.json')));
      } finally {
        await target.close();
      }
    },
    limitForRuns(1),
  );

  it('writes the reports and exits 2 with one line on SIGINT', async () => {
    const { spawn } = await import('node:child_process');
    const { cliFile } = await import('./support/cli.js');
    // Slow enough that the run is still going when the signal comes.
    const target = await startSlowTarget(300);
    try {
      const file = join(tmp, 'interrupted.json');
      const page = join(tmp, 'interrupted.html');
      writeFileSync(file, '{"stale":true}');
      writeFileSync(page, 'an earlier run');
      const child = spawn(process.execPath, [
        cliFile,
        'contract',
        '--base-url',
        target.url,
        '--api-key',
        KEY,
        '--read-only',
        '--json',
        file,
        '--html',
        page,
      ]);
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (/\n {2}[✓✗-] .*\n {2}[✓✗-] /.test(stdout)) child.kill('SIGINT');
      });
      const [code] = (await once(child, 'close')) as [number];
      expect(code).toBe(2);
      expect(stderr).toBe('petstore-kit: interrupted by SIGINT; reports written\n');
      const report = JSON.parse(read(file)) as ContractReport;
      expect(report.stopped).toBe('interrupted by SIGINT');
      expect(report.cases.length).toBeGreaterThanOrEqual(2);
      // The page too, written synchronously in the signal handler: could not judge, and why.
      expect(read(page)).toContain('Exit 2: could not judge — the run stopped early: interrupted by SIGINT');
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('report files and temp files', () => {
  it("replaces an earlier run's reports on exit 2, saying what stopped the run, and appends a line to the step summary", async () => {
    const files = {
      junit: join(tmp, 'stale/junit.xml'),
      json: join(tmp, 'stale/report.json'),
      summary: join(tmp, 'stale/summary.md'),
    };
    mkdirSync(join(tmp, 'stale'), { recursive: true });
    writeFileSync(files.junit, '<testsuites tests="53" failures="0"/>');
    writeFileSync(files.json, '{"summary":{"passed":53,"failed":0}}');
    const closed = createHttpServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const result = await runCli(
      [
        'contract',
        '--base-url',
        `http://127.0.0.1:${port}/v1`,
        '--api-key',
        KEY,
        '--junit',
        files.junit,
        '--json',
        files.json,
      ],
      { GITHUB_STEP_SUMMARY: files.summary },
    );
    expect(result.code).toBe(2);
    const reason = `cannot reach http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`;
    expect(result.stderr).toBe(`petstore-kit: ${reason}\n`);
    const report = JSON.parse(read(files.json)) as ContractReport;
    expect(report.stopped).toBe(reason);
    expect(report.summary).toEqual({ passed: 0, failed: 0, skipped: 0, notRun: 0 });
    expect(read(files.junit)).toContain(`<error type="run.stopped" message="${reason}">`);
    expect(read(files.junit)).toContain('errors="1"');
    expect(read(files.summary)).toContain(`### Petstore contract: ⚠️ stopped early: ${reason}`);
    expect(readdirSync(join(tmp, 'stale')).sort()).toEqual(['junit.xml', 'report.json', 'summary.md']);
  });

  it('replaces an earlier report even when a flag cannot be read', async () => {
    const file = join(tmp, 'early.json');
    writeFileSync(file, '{"summary":{"passed":53,"failed":0}}');
    const result = await runCli(['contract', '--json', file, '--base-url', 'http://127.0.0.1:9/v1', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect((JSON.parse(read(file)) as ContractReport).stopped).toMatch(/^usage error: Unknown option '--no-such-flag'/);
  });

  it(
    "keeps vitest's cache in a private directory: a symlink planted at the old fixed path is not followed",
    async () => {
      const privateTmp = join(tmp, 'shared-tmp');
      const victim = join(tmp, 'victim');
      mkdirSync(privateTmp, { recursive: true });
      mkdirSync(victim, { recursive: true });
      symlinkSync(victim, join(privateTmp, 'petstore-kit-vitest'));
      const target = await startHostileTarget(() => false);
      try {
        const result = await runCli(['contract', '--base-url', target.url, '--api-key', KEY, '--read-only'], {
          TMPDIR: privateTmp,
        });
        expect(result.code).toBe(1);
        expect(readdirSync(victim)).toEqual([]);
        // The run's own directory is gone after it: only the planted link is left.
        expect(readdirSync(privateTmp)).toEqual(['petstore-kit-vitest']);
        expect(existsSync(join(privateTmp, 'petstore-kit-vitest'))).toBe(true);
      } finally {
        await target.close();
      }
    },
    limitForRuns(1),
  );
});
