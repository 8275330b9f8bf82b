import { describe, expect, it } from 'vitest';
import { toCurl } from './to-curl.js';
import { showHeaderValue } from './shown-credentials.js';

describe('toCurl', () => {
  it.each([
    [
      'a GET',
      [
        'GET',
        'http://h/v1/pets',
        { Authorization: { parts: ['Bearer ', { shell: '${PETSTORE_API_KEY}' }] } },
        undefined,
      ],
      'curl -sS -i http://h/v1/pets -H "Authorization: Bearer ${PETSTORE_API_KEY}"',
    ],
    [
      'a query',
      ['GET', 'http://h/v1/pets?limit=1&status=sold', {}, undefined],
      "curl -sS -i 'http://h/v1/pets?limit=1&status=sold'",
    ],
    [
      'a body with control characters, a backslash and a percent sign: printed by printf, byte for byte',
      ['POST', 'http://h/v1/pets', { 'Content-Type': 'application/json' }, '{"name":"a\u007fb\\n%d\né"}'],
      `printf '{"name":"a\\177b\\\\n%%d\\012é"}' | curl -sS -i -X POST http://h/v1/pets -H 'Content-Type: application/json' --data-binary @-`,
    ],
    [
      'a POST with a quote in the body',
      ['POST', 'http://h/v1/pets', { 'Content-Type': 'application/json' }, `{"name":"O'Neil"}`],
      `curl -sS -i -X POST http://h/v1/pets -H 'Content-Type: application/json' --data-raw '{"name":"O'\\''Neil"}'`,
    ],
    [
      'shell characters beside an expression',
      ['GET', 'http://h/v1/pets', { 'X-K': { parts: ['$`"\\', { shell: '${V}' }] } }, undefined],
      'curl -sS -i http://h/v1/pets -H "X-K: \\$\\`\\"\\\\${V}"',
    ],
  ] as const)('writes %s as a shell command', (_, [method, url, headers, body], want) => {
    expect(toCurl(method, url, headers, body)).toBe(want);
  });

  // `--data-raw` alone makes curl send application/x-www-form-urlencoded, which the runner never sent.
  it('sends a body that had no Content-Type without one, as the runner sent it', async () => {
    const { createServer } = await import('node:http');
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    // Asynchronously: the server answering curl lives in this process.
    const sh = (command: string) => promisify(execFile)('sh', ['-c', command]);
    const seen: (string | undefined)[] = [];
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers['content-type']);
      const chunks: Buffer[] = [];
      req
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => (bodies.push(Buffer.concat(chunks).toString('utf8')), res.end('ok')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const command = toCurl('POST', `http://127.0.0.1:${port}/v1/pets`, {}, '{"name":"Rex"}');
      expect(command).toContain(`-H 'Content-Type:' --data-raw`);
      await sh(command);
      await sh(toCurl('POST', `http://127.0.0.1:${port}/v1/pets`, { 'Content-Type': 'text/plain' }, 'x'));
      expect(seen).toEqual([undefined, 'text/plain']);
      // The body byte for byte: newlines, quotes, non-ASCII and a leading @ (never read as a file name).
      const tricky = '@etc/passwd\n{"name":"O\'Neil \u00e9\r\n"}\n';
      await sh(toCurl('POST', `http://127.0.0.1:${port}/v1/pets`, { 'Content-Type': 'application/json' }, tricky));
      expect(bodies[2]).toBe(tricky);
    } finally {
      server.close();
    }
  });
});

describe('showHeaderValue', () => {
  const key = 'x';
  it.each([
    ['the key', 'authorization', 'Bearer x', { parts: ['Bearer ', { shell: '${PETSTORE_API_KEY}' }] }],
    [
      'the key with text appended',
      'authorization',
      'Bearer xab',
      { parts: ['Bearer ', { shell: '${PETSTORE_API_KEY}' }, 'ab'] },
    ],
    [
      'the key in another case',
      'authorization',
      'Bearer X',
      { parts: ['Bearer ', { shell: '$(printf %s "$PETSTORE_API_KEY" | tr a-zA-Z A-Za-z)' }] },
    ],
    ['the key alone', 'authorization', 'x', { parts: [{ shell: '${PETSTORE_API_KEY}' }] }],
    ['a scheme with no token: the scheme word is never rewritten', 'authorization', 'Bearer', 'Bearer'],
    ['the key in another header', 'x-api-key', 'x', { parts: [{ shell: '${PETSTORE_API_KEY}' }] }],
    ['a header without the key', 'accept', 'application/json', 'application/json'],
  ] as const)('%s', (_, name, value, want) => {
    expect(showHeaderValue(name, value, key, false)).toEqual(want);
  });

  it('shows an extra header (-H) as its own variable', () => {
    expect(showHeaderValue('X-Gateway-Token', 'gw-secret', key, true)).toEqual({
      parts: [{ shell: '${PETSTORE_HEADER_X_GATEWAY_TOKEN}' }],
    });
  });

  it('rebuilds the key less its last character and a Basic credential', () => {
    const long = 'long-key-0123';
    expect(showHeaderValue('authorization', `Bearer ${long.slice(0, -1)}`, long, false)).toEqual({
      parts: ['Bearer ', { shell: '${PETSTORE_API_KEY%?}' }],
    });
    expect(
      showHeaderValue('authorization', `Basic ${Buffer.from(`${long}:`).toString('base64')}`, long, false),
    ).toEqual({ parts: ['Basic ', { shell: `$(printf %s: "$PETSTORE_API_KEY" | base64 | tr -d '\\n')` }] });
  });
});

// Every form a shell expression rebuilds must give back exactly the bytes that were sent.
describe('the shell expressions', () => {
  it.each(['x', 'test', 'sek', 'Mixed-Case+key/0123456789=abcdefghijklmnopqrstu'])(
    'rebuild what was sent for the key %j',
    async (key) => {
      const { execFileSync } = await import('node:child_process');
      const values = [
        `Bearer ${key}`,
        `Bearer ${key}zz`,
        `Bearer ${key.slice(0, -1)}`,
        `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        key,
        `Token ${[...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`,
      ];
      for (const value of values) {
        const shown = showHeaderValue('authorization', value, key, false);
        const word = toCurl('GET', 'http://h/', { A: shown }, undefined).split(' -H ')[1]!;
        const out = execFileSync('sh', ['-c', `printf %s ${word}`], {
          env: { ...process.env, PETSTORE_API_KEY: key },
        }).toString();
        expect(out).toBe(`A: ${value}`);
      }
    },
  );
});
