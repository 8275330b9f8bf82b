import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';

/**
 * docs/mock.md "Your document, your resources": its worked example run as written — the curl lines through bash,
 * against the mock started on the document the page names with the development key — each answer compared with the
 * comment under it (`# STATUS BODY[, Location: PATH]`; `…` in the body stands for any string).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
// Read from the page itself: the example's `# 201 …` comment lines would end a section() at the first of them.
const page = readFileSync(join(root, 'docs/mock.md'), 'utf8');
const text = page.slice(page.indexOf('## Your document, your resources'), page.indexOf('\n## Types'));
let server: MockServer;

beforeAll(async () => {
  const spec = /npx petstore-kit mock --spec (\S+)/.exec(text)![1]!;
  server = await createMockServer({ spec: join(root, spec), apiKeys: [] });
});
afterAll(() => server.close());

it('answers every command of the worked example as the page says', async () => {
  const block = /Then, with[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)![1]!;
  const lines = block.trim().split('\n');
  const key = /K='([^']+)'/.exec(text)![1]!;
  const headers = join(mkdtempSync(join(tmpdir(), 'petstore-docs-')), 'headers');
  let checked = 0;
  for (let i = 0; i < lines.length; i += 2) {
    const command = lines[i]!;
    const [, status, rest = ''] = /^# (\d{3}) ?(.*)$/.exec(lines[i + 1]!)!;
    const [body, location] = rest.split(/, Location: /);
    // Not execFileSync: the mock answers in this process, so its event loop must keep running.
    const { stdout: output } = await promisify(execFile)(
      'bash',
      ['-c', `K='${key}'; B='${server.url}'; ${command} -D '${headers}' -w '\\n%{http_code}'`],
      { encoding: 'utf8' },
    );
    const answer = output.split('\n');
    expect(answer.at(-1), command).toBe(status);
    const sent = answer.slice(0, -1).join('\n');
    if (body)
      expect(JSON.parse(sent), command).toEqual(
        JSON.parse(body, (_, v: unknown) => (v === '…' ? expect.any(String) : v)),
      );
    else expect(sent, command).toBe('');
    if (location)
      expect(readFileSync(headers, 'utf8'), command).toMatch(new RegExp(`^location: ${location}\\r$`, 'im'));
    checked += 1;
  }
  expect(checked).toBe(7);
});
