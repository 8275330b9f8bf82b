import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { securityLines } from '../src/commands/mock-security-lines.js';

/**
 * docs/mock.md "Security schemes": the banner lines it quotes are the ones the mock prints for the document it
 * names, and its worked example runs as written — the curl lines through bash against the mock on that document with
 * the development key, each answer compared with the comment under it (`# STATUS BODY`).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const page = readFileSync(join(root, 'docs/mock.md'), 'utf8');
const text = page.slice(page.indexOf('### Security schemes'), page.indexOf('\n## Your document, your resources'));
const file = /npx petstore-kit mock --spec (\S+)/.exec(text)![1]!;
let server: MockServer;

beforeAll(async () => {
  server = await createMockServer({ spec: join(root, file), apiKeys: [] });
});
afterAll(() => server.close());

it('quotes the banner the mock prints for the document', () => {
  const quoted = /the banner says:\n\n```\n([\s\S]*?)```/.exec(text)![1]!.trimEnd().split('\n');
  expect(quoted).toEqual(securityLines(server.mock.spec).map((line) => `  ${line}`));
});

it('answers every command of the example as the page says', async () => {
  const block = /Then, with[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)![1]!;
  const lines = block.trim().split('\n');
  let checked = 0;
  for (let i = 0; i < lines.length; i += 2) {
    const command = lines[i]!;
    const [, status, body = ''] = /^# (\d{3}) ?(.*)$/.exec(lines[i + 1]!)!;
    // Not execFileSync: the mock answers in this process, so its event loop must keep running.
    const { stdout } = await promisify(execFile)(
      'bash',
      ['-c', `K='petstore-dev-key'; B='${server.url}'; ${command} -w '\\n%{http_code}'`],
      { encoding: 'utf8' },
    );
    const answer = stdout.split('\n');
    expect(answer.at(-1), command).toBe(status);
    expect(JSON.parse(answer.slice(0, -1).join('\n')), command).toEqual(JSON.parse(body));
    checked += 1;
  }
  expect(checked).toBe(6);
});
