import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { readFileSync } from 'node:fs';

// Issue 22: the tour at the top of docs/mock.md — every curl line, and the answer each `# →` line says it gets
// (status, the headers it names, the body) — run as written against a fresh mock with the development key.
const run = promisify(execFile);
const block = /```sh\n(KEY=petstore-dev-key[\s\S]*?)```/.exec(readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8'))![1]!;

interface Step {
  command: string;
  expected?: string;
}

/** The block's commands (a trailing `\` continues one), each with the `# →` line after it, if any. */
function steps(): Step[] {
  const found: Step[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (pending) {
      pending += `\n${line}`;
      if (!line.endsWith('\\')) found.push({ command: pending }), (pending = '');
    } else if (line.startsWith('curl ')) {
      if (line.endsWith('\\')) pending = line;
      else found.push({ command: line });
    } else if (line.startsWith('# → ')) found.at(-1)!.expected = line.slice('# → '.length);
  }
  return found;
}

/** `201, Location: /v1/pets/58, {"id":58,…}` → the status, the named headers, the body if any. */
function parseExpected(text: string): { status: number; headers: [string, string][]; body: unknown } {
  const status = Number(text.slice(0, 3));
  let rest = text.slice(3).replace(/^,?\s*/, '');
  let body: unknown;
  const bodyAt = rest.search(/(^|, )[[{]/);
  if (bodyAt >= 0) {
    body = JSON.parse(rest.slice(bodyAt).replace(/^, /, ''));
    rest = rest.slice(0, bodyAt);
  }
  const headers = rest ? rest.split(/, (?=[A-Z][\w-]*: )/).map((pair) => pair.split(/: (.*)/s).slice(0, 2) as [string, string]) : [];
  return { status, headers, body };
}

describe("docs/mock.md's tour", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({});
  });
  afterAll(() => server.close());

  it('gets, line by line, the answers it shows', async () => {
    const all = steps();
    expect(all.filter((step) => step.expected).length).toBeGreaterThanOrEqual(6);
    for (const { command, expected } of all) {
      // As written, with -s -i added so that the status and the headers can be read (they change no request).
      const script = `KEY=petstore-dev-key\nBASE=${server.url}\n${command.replace(/^curl (-i )?/, 'curl -s -i ')}`;
      const { stdout } = await run('bash', ['-c', script]);
      if (!expected) continue;
      const [head, ...body] = stdout.split('\r\n\r\n');
      const want = parseExpected(expected);
      expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)![1]), command).toBe(want.status);
      for (const [name, value] of want.headers) expect(head, `${command}: ${name}`).toMatch(new RegExp(`^${name}: ${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\r?$`, 'mi'));
      if (want.body !== undefined) expect(JSON.parse(body.join('\r\n\r\n')), command).toEqual(want.body);
    }
  });
});
