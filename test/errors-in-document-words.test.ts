import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createMockServer, type MockServer } from '../src/mock/http/server.js';
import { ERROR_SHAPE } from '../src/openapi/check-response.js';
import { startCli } from './support/cli.js';
import { createProxyServer } from '../src/proxy/create-proxy-server.js';
import { startScriptedUpstream } from './support/upstreams.js';
import { MESSAGE_NAMES, CODE_NAMES, STATUS_NAMES } from '../src/mock/base/error-shape.js';

// Issue 52 item 4: every answer the mock makes up for an operation takes what the operation declares for the status
// (exact, range, default): its media type and a body its schema accepts. Each body is checked here with an AJV of the
// test's own, against the schema the document declares at the pointer the case names, not with the mock's validators.
const KEY = 'errors-test-key';
const documents = fileURLToPath(new URL('./fixtures/documents/', import.meta.url));

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;

/** An AJV holding the document (as written, `$ref`s intact) under its file name, for schemas by JSON pointer. */
function documentAjv(file: string) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema(parse(readFileSync(documents + file, 'utf8')) as object, file);
  return (pointer: string) => ajv.compile({ $ref: `${file}${pointer}` });
}

/** What a case expects: the document's schema at a pointer, our own Error shape, or text. */
type Want = { schema: string; contentType: string; body?: unknown } | { ours: string } | { text: string };

interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  status: number;
  want: Want;
}

async function send(server: { url: string }, { method = 'GET', path, headers = {}, body }: Case) {
  const response = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...headers },
    body,
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

/** Checks one answer against what its case expects; the body is parsed here, from the bytes as sent. */
function expectAnswer(
  answer: Awaited<ReturnType<typeof send>>,
  { status, want }: Case,
  schemaAt: (p: string) => ReturnType<ReturnType<typeof documentAjv>>,
) {
  expect(answer.status, answer.text).toBe(status);
  if ('text' in want) {
    expect(answer.contentType).toBe('text/plain; charset=utf-8');
    expect(answer.text).toBe(want.text);
    return;
  }
  const body: unknown = JSON.parse(answer.text);
  if ('ours' in want) {
    expect(answer.contentType).toBe('application/json');
    expect(body).toEqual({ code: want.ours, message: expect.any(String), status });
    expect(Object.keys(body as object)).toEqual(Object.keys(ERROR_SHAPE.properties));
    return;
  }
  expect(answer.contentType).toBe(want.contentType);
  const validate = schemaAt(want.schema);
  expect(validate(body), `${answer.text}: ${JSON.stringify(validate.errors)}`).toBe(true);
  if (want.body !== undefined) expect(body).toEqual(want.body);
}

function describeDocument(file: string, cases: Case[], options: { bodyLimit?: number } = {}) {
  describe(file, () => {
    let server: MockServer;
    const schemaAt = documentAjv(file);
    beforeAll(async () => {
      server = await createMockServer({ spec: documents + file, apiKeys: [KEY], ...options });
    });
    afterAll(() => server.close());

    // A forced case needs the live control first (below).
    const asked = cases.filter((c) => !c.name.startsWith('forced'));
    it.each(asked.map((c) => [c.name, c] as const))('%s', async (_, c) => {
      expectAnswer(await send(server, c), c, schemaAt);
    });

    it('answers the fault injector (PUT /__admin/control force) in the same words', async () => {
      const forced = cases.find((c) => c.name.startsWith('forced'));
      if (!forced) return;
      const control = await fetch(`${server.origin}/__admin/control`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          force: { status: forced.status, count: 1, path: server.url.replace(server.origin, '') + forced.path },
        }),
      });
      expect(control.status).toBe(200);
      const answer = await send(server, forced);
      expectAnswer(answer, forced, schemaAt);
      // Counted: the next request is answered as it asks.
      expect((await send(server, forced)).status).not.toBe(forced.status);
    });
  });
}

const ERROR = '#/components/schemas/Error';
const json = { contentType: 'application/json' };

describeDocument(
  'errors-default-integer-code.yaml',
  [
    {
      name: 'a missing item: 404 in default’s Error, its integer code the status',
      path: '/animals/999',
      status: 404,
      want: { schema: ERROR, ...json, body: { code: 404, message: 'no animal has id 999' } },
    },
    { name: 'a parameter out of range: 400', path: '/animals?limit=0', status: 400, want: { schema: ERROR, ...json } },
    {
      name: 'no key: 401',
      path: '/animals',
      headers: { authorization: '' },
      status: 401,
      want: { schema: ERROR, ...json },
    },
    {
      name: 'a body missing a required member: 400',
      method: 'POST',
      path: '/animals',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      status: 400,
      want: { schema: ERROR, ...json, body: { code: 400, message: 'body.name is required' } },
    },
    {
      name: 'not JSON: 400',
      method: 'POST',
      path: '/animals',
      headers: { 'content-type': 'application/json' },
      body: '{',
      status: 400,
      want: { schema: ERROR, ...json },
    },
    {
      name: 'another media type: 415',
      method: 'POST',
      path: '/animals',
      headers: { 'content-type': 'text/plain' },
      body: 'Rex',
      status: 415,
      want: { schema: ERROR, ...json },
    },
    {
      name: 'a body over the limit: 413',
      method: 'POST',
      path: '/animals',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2048) }),
      status: 413,
      want: { schema: ERROR, ...json },
    },
    {
      name: 'Prefer: code=503 with no example: made up in default’s words',
      path: '/animals/1',
      headers: { prefer: 'code=503' },
      status: 503,
      want: { schema: ERROR, ...json, body: { code: 503, message: expect.stringContaining('Prefer: code=503') } },
    },
    { name: 'forced 500 by the live control', path: '/animals', status: 500, want: { schema: ERROR, ...json } },
    // No operation answers these: our own shape (docs/mock.md).
    {
      name: 'a method the path does not have: 405, ours',
      method: 'DELETE',
      path: '/animals',
      status: 405,
      want: { ours: 'method_not_allowed' },
    },
    { name: 'an unknown path: 404, ours', path: '/nowhere', status: 404, want: { ours: 'not_found' } },
  ],
  { bodyLimit: 1024 },
);

const PROBLEM = '#/components/schemas/Problem';
const SERVER_PROBLEM = '#/components/responses/ServerProblem/content/application~1problem+json/schema';
const problem = { contentType: 'application/problem+json' };
describeDocument('errors-problem-json.yaml', [
  {
    name: 'a missing item: 404 as an RFC 9457 problem of the 4XX range',
    path: '/kennels/999',
    status: 404,
    want: {
      schema: PROBLEM,
      ...problem,
      body: {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'no kennel has id 999',
        traceId: '00000000-0000-0000-0000-000000000000',
        errors: [],
      },
    },
  },
  {
    name: 'a path id that is no integer: 404',
    path: '/kennels/abc',
    status: 404,
    want: { schema: PROBLEM, ...problem },
  },
  {
    name: 'a parameter out of range: 400',
    path: '/kennels?limit=99',
    status: 400,
    want: { schema: PROBLEM, ...problem },
  },
  {
    name: 'a wrong key: 401',
    path: '/kennels',
    headers: { authorization: 'Bearer nope' },
    status: 401,
    want: { schema: PROBLEM, ...problem },
  },
  {
    name: 'a body breaking the schema: 400',
    method: 'POST',
    path: '/kennels',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x'.repeat(41) }),
    status: 400,
    want: { schema: PROBLEM, ...problem },
  },
  {
    name: 'another media type: 415',
    method: 'POST',
    path: '/kennels',
    headers: { 'content-type': 'application/xml' },
    body: '<kennel/>',
    status: 415,
    want: { schema: PROBLEM, ...problem },
  },
  {
    name: 'forced 503 by the live control: the 5XX problem, closed to its own members',
    path: '/kennels',
    status: 503,
    want: { schema: SERVER_PROBLEM, ...problem, body: { title: 'Service Unavailable', status: 503 } },
  },
  {
    name: 'Prefer: code=409: the 4XX problem',
    path: '/kennels/1',
    headers: { prefer: 'code=409' },
    status: 409,
    want: { schema: PROBLEM, ...problem },
  },
]);

const TICKET_404 = '#/paths/~1tickets~1{ticketId}/get/responses/404/content/application~1json/schema';
describeDocument('errors-declared-404-only.yaml', [
  {
    name: 'the declared 404, in its shape',
    path: '/tickets/999',
    status: 404,
    want: {
      schema: TICKET_404,
      ...json,
      body: { error: 'Not Found', error_description: 'no ticket has id 999', timestamp: '1970-01-01T00:00:00Z' },
    },
  },
  { name: 'a 400 nobody declared: ours', path: '/tickets?limit=0', status: 400, want: { ours: 'invalid_parameter' } },
  {
    name: 'a 404 declared as text/plain: the message as text',
    path: '/notes/999',
    status: 404,
    want: { text: 'no note has id 999' },
  },
  { name: 'a 404 declared as XML only: ours', path: '/labels/999', status: 404, want: { ours: 'not_found' } },
  {
    name: 'a 404 of a recursive schema: its required members, the recursion cut',
    path: '/trees/999',
    status: 404,
    want: {
      schema: '#/components/schemas/TreeError',
      ...json,
      body: { message: 'no tree has id 999', causes: [] },
    },
  },
  {
    name: 'a 404 declared without content: ours, which the document does not forbid',
    path: '/stamps/999',
    status: 404,
    want: { ours: 'not_found' },
  },
  {
    name: 'forced 500 where nothing is declared for it: ours',
    path: '/tickets/1',
    status: 500,
    want: { ours: 'forced' },
  },
]);

describeDocument('errors-declared-nothing.yaml', [
  {
    name: 'an operation declaring no error: ours',
    path: '/gauges?limit=0',
    status: 400,
    want: { ours: 'invalid_parameter' },
  },
  {
    name: 'a 3.1 operation without responses: 501 in our shape',
    path: '/readings',
    status: 501,
    want: { ours: 'not_implemented' },
  },
  { name: 'the same, with a path parameter', path: '/readings/1', status: 501, want: { ours: 'not_implemented' } },
]);

describe('the proxy’s own errors, answered for an operation', () => {
  it('a 502 for an upstream that is away (--fallback none) takes the operation’s 5XX problem', async () => {
    const gone = await startScriptedUpstream(() => undefined);
    await gone.close();
    const file = 'errors-problem-json.yaml';
    const proxy = await createProxyServer({
      upstream: gone.url + '/v2',
      spec: documents + file,
      apiKeys: [KEY],
      fallback: 'none',
      onLog: () => undefined,
    });
    try {
      const answer = await send(proxy, { name: '', path: '/kennels', status: 502, want: { ours: '' } });
      const serverProblem = {
        schema: '#/components/responses/ServerProblem/content/application~1problem+json/schema',
        ...problem,
        body: { title: 'Bad Gateway', status: 502 },
      };
      expectAnswer(answer, { name: '', path: '/kennels', status: 502, want: serverProblem }, documentAjv(file));
      // getKennel declares no 5XX: our shape, which names the kind and says why.
      const ours = await send(proxy, { name: '', path: '/kennels/1', status: 502, want: { ours: '' } });
      expect(ours.status).toBe(502);
      expect(JSON.parse(ours.text)).toMatchObject({ code: 'upstream_unavailable', status: 502 });
    } finally {
      await proxy.close();
    }
  });
});

describe('v1, the bundled openapi.yaml: its error answers byte for byte as before', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({ apiKeys: [KEY], bodyLimit: 64 });
  });
  afterAll(() => server.close());

  // v1 declares Error for 400 (createPet), 401 and 404 (getPet) and nothing else: the declared ones are our shape
  // already, and the others (405, 413, 415, a 400 on listPets) keep it because nothing is declared for them.
  it.each([
    ['GET', '/pets/999', {}, undefined, 404, '{"code":"not_found","message":"no pet has id 999","status":404}'],
    [
      'GET',
      '/pets/abc',
      {},
      undefined,
      404,
      '{"code":"not_found","message":"path.petId must be an integer (got \\"abc\\"), so it identifies no resource","status":404}',
    ],
    [
      'GET',
      '/pets?limit=0',
      {},
      undefined,
      400,
      '{"code":"invalid_parameter","message":"query.limit must be >= 1","status":400}',
    ],
    [
      'GET',
      '/pets',
      { authorization: 'Bearer nope' },
      undefined,
      401,
      '{"code":"unauthorized","message":"the API key is not valid","status":401}',
    ],
    [
      'POST',
      '/pets',
      { 'content-type': 'application/json' },
      '{"categoryId":1}',
      400,
      '{"code":"invalid_body","message":"body.name is required","status":400}',
    ],
    [
      'POST',
      '/pets',
      { 'content-type': 'text/plain' },
      'Rex',
      415,
      '{"code":"unsupported_media_type","message":"Content-Type must be application/json (got text/plain)","status":415}',
    ],
    [
      'POST',
      '/pets',
      { 'content-type': 'application/json' },
      JSON.stringify({ name: 'x'.repeat(100), categoryId: 1 }),
      413,
      '{"code":"payload_too_large","message":"the request body is larger than the limit of 64 bytes","status":413}',
    ],
    [
      'DELETE',
      '/pets',
      {},
      undefined,
      405,
      '{"code":"method_not_allowed","message":"DELETE is not allowed on /v1/pets; allowed: GET, POST, HEAD, OPTIONS","status":405}',
    ],
  ] as const)('%s %s → %i', async (method, path, headers, body, status, text) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...headers },
      body,
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(text);
  });
});

describe('the 3.1 operation without responses, from the command line', () => {
  it('answers 501 and prints nothing for it: no internal error, no stack trace, even with --quiet', async () => {
    const cli = await startCli(
      ['mock', '--port', '0', '--quiet', '--api-key', KEY, documents + 'errors-declared-nothing.yaml'],
      /listening on (http:\/\/\S+)/,
    );
    try {
      // The banner is printed over several writes: what follows its last line is what the requests printed.
      await cli.waitFor(/admin API: [^\n]*\n/);
      const printed = cli.output().length;
      for (const path of ['/readings', '/readings/1', '/readings/2']) {
        const response = await fetch(cli.match[1] + path);
        expect(response.status).toBe(501);
        expect(await response.json()).toMatchObject({ code: 'not_implemented', status: 501 });
      }
      // The journal judged and kept them (the admin API answers after the requests, so they were all handled).
      const journal = await fetch(`${new URL(cli.match[1]!).origin}/__admin/journal`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(journal.status).toBe(200);
      expect(cli.output().slice(printed)).toBe('');
    } finally {
      cli.child.kill();
    }
  }, 60_000); // A CLI start that loads prism-http (the operations fit no role) takes seconds on a busy machine.
});

describe("docs/mock.md, Errors in the document's words", () => {
  const page = readFileSync(fileURLToPath(new URL('../docs/mock.md', import.meta.url)), 'utf8');
  // Read from the page itself: the example's `# 404 …` comment lines would end a section() at the first of them.
  const text = page.slice(
    page.indexOf("### Errors in the document's words"),
    page.indexOf('\n## Your document, your resources'),
  );

  it('names the members in the order the code looks for them', () => {
    const named = (list: string) =>
      [...list.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]!.toLowerCase().replace(/[_-]/g, ''));
    const message = /The message\*\* goes to[\s\S]*?this order[^:]*:([^.]*)\./.exec(text)![1]!;
    expect(named(message)).toEqual([...MESSAGE_NAMES]);
    expect(named(/\*\*A code\*\* \(([^)]*)\)/.exec(text)![1]!)).toEqual([...CODE_NAMES]);
    expect(named(/\*\*A status\*\* \(([^)]*)\)/.exec(text)![1]!)).toEqual([...STATUS_NAMES]);
  });

  it('answers every command of its example as the page says', async () => {
    const spec = /npx petstore-kit mock --spec (\S+)/.exec(text)![1]!;
    const server = await createMockServer({ spec: fileURLToPath(new URL(`../${spec}`, import.meta.url)), apiKeys: [] });
    try {
      const block = /Then, with[\s\S]*?```sh\n([\s\S]*?)```/.exec(text)![1]!;
      const lines = block.trim().split('\n');
      const key = /K='([^']+)'/.exec(text)![1]!;
      const headers = join(mkdtempSync(join(tmpdir(), 'petstore-errors-docs-')), 'headers');
      for (let i = 0; i < lines.length; i += 2) {
        const command = lines[i]!;
        const [, status, body] = /^# (\d{3}) (.*)$/.exec(lines[i + 1]!)!;
        // Not execFileSync: the mock answers in this process, so its event loop must keep running.
        const { stdout } = await promisify(execFile)(
          'bash',
          ['-c', `K='${key}'; B='${server.url}'; ${command} -D '${headers}' -w '\\n%{http_code}'`],
          { encoding: 'utf8' },
        );
        const answer = stdout.split('\n');
        expect(answer.at(-1), command).toBe(status);
        expect(answer.slice(0, -1).join('\n'), command).toBe(body);
      }
      expect(lines.length / 2).toBe(4);
    } finally {
      await server.close();
    }
  });
});
