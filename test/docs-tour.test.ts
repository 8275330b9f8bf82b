import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';

// docs/mock.md's shell examples — the tour at the top, the scenarios, live control — run as written, each
// block against a fresh mock with the development key: every curl line, and the answer each `# →` says it gets
// (status, the headers it names, the body; a message ending in … as a prefix; "N s later" as a lower bound).
const run = promisify(execFile);
const page = readFileSync(new URL('../docs/mock.md', import.meta.url), 'utf8');
const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
  .map((match) => match[1]!)
  .filter((block) => block.includes('# → ') && block.includes('BASE'));

interface Step {
  command: string;
  expected?: string;
}

/** A block's commands (a trailing `\\` continues one), each with its `# →`, on its last line or the next. */
function steps(block: string): Step[] {
  const found: Step[] = [];
  let pending = '';
  for (const raw of block.split('\n')) {
    if (raw.startsWith('# → ')) {
      found.at(-1)!.expected = raw.slice('# → '.length);
      continue;
    }
    const [line, inline] = raw.split(/\s+# → /) as [string, string | undefined];
    if (!pending && !line.startsWith('curl ')) continue;
    pending = pending ? `${pending}\n${line}` : line;
    if (line.endsWith('\\')) continue;
    found.push({ command: pending, ...(inline ? { expected: inline } : {}) });
    pending = '';
  }
  return found;
}

/** `201, Location: /v1/pets/58, {"id":58,…}` → the status, the headers named (with or without a value), the body. */
function parseExpected(text: string) {
  const status = /^\d{3}\b/.test(text) ? Number(text.slice(0, 3)) : undefined;
  let rest = text.replace(/^\d{3}\b,?\s*/, '');
  let body: string | undefined;
  const bodyAt = rest.search(/(^|, )[[{]/);
  if (bodyAt >= 0) {
    const end = rest.search(/[\]}](?=, [A-Z]|$)/);
    body = rest.slice(bodyAt, end + 1).replace(/^, /, '');
    rest = `${rest.slice(0, bodyAt)}${rest.slice(end + 1)}`.replace(/^, /, '');
  }
  const headers = /^[A-Z][\w-]*(:|,|$)/.test(rest)
    ? rest.split(/, (?=[A-Z][\w-]*(?::|,|$))/).map((pair) => pair.split(/: (.*)/s).slice(0, 2) as [string, string?])
    : [];
  const later = /([\d.]+) s later/.exec(text);
  return { status, headers, body, laterMs: later ? Number(later[1]) * 1000 : undefined };
}

const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe("docs/mock.md's shell examples", () => {
  it('are at least the tour, the scenarios and live control', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((block, index) => [index, block] as const))(
    'block %i gets, line by line, the answers it shows',
    async (_index, block) => {
      const server = await createMockServer({});
      servers.push(server);
      const all = steps(block);
      expect(all.filter((step) => step.expected).length).toBeGreaterThan(0);
      for (const { command, expected } of all) {
        // As written, with -s -i added so that the status and the headers can be read (they change no request).
        const script = `KEY=petstore-dev-key\nBASE=${server.url}\n${command.replace(/^curl (-i )?/, 'curl -s -i ')}`;
        const started = performance.now();
        const { stdout } = await run('bash', ['-c', script]);
        const tookMs = performance.now() - started;
        if (!expected) continue;
        const [head, ...rest] = stdout.split('\r\n\r\n');
        const text = rest.join('\r\n\r\n');
        const want = parseExpected(expected);
        if (want.status !== undefined) expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)![1]), command).toBe(want.status);
        for (const [name, value] of want.headers) {
          const pattern =
            value === undefined ? `^${name}: ` : `^${name}: ${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\r?$`;
          expect(head, `${command}: ${name}`).toMatch(new RegExp(pattern, 'mi'));
        }
        if (want.body?.includes('…'))
          expect(text.startsWith(want.body.slice(0, want.body.indexOf('…'))), `${command}: ${text}`).toBe(true);
        else if (want.body !== undefined) expect(JSON.parse(text), command).toEqual(JSON.parse(want.body));
        if (want.laterMs !== undefined) expect(tookMs, command).toBeGreaterThanOrEqual(want.laterMs);
      }
    },
  );
});
