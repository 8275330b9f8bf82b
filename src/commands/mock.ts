import { tryPath } from '../openapi/try-path.js';
import { securityLines, tryLine } from './mock-security-lines.js';
import { parseArgs } from 'node:util';
import type { ResourceModel } from '../openapi/resource-types.js';
import { nounOf } from '../mock/store/collection-rules.js';
import { createMockServer, type MockServer, type ReloadEvent, type ServerOptions } from '../mock/http/server.js';
import { DEFAULT_MAX_ITEMS } from '../mock/store/collection-store.js';
import { DEFAULT_BODY_LIMIT, DEV_API_KEY } from '../mock/create-mock.js';
import { UsageError, parseInteger } from './usage-error.js';
import { CONFIG_FILE, type LoadedConfig } from '../config/load-config.js';
import { runServeCommand } from './serve-command.js';
import { mockFlags } from './mock-flags.js';
import { proxyFlags } from './proxy-flags.js';
import { parseDelay, MAX_DELAY_MS } from '../mock/base/faults.js';
import { ADMIN_PREFIX } from '../mock/admin/admin.js';
import { DEFAULT_JOURNAL_SIZE } from '../mock/state/journal.js';
import { describeStore } from '../mock/store/open-store.js';
import { startedByNpm, watchParent } from './watch-parent.js';
import { MAX_STORE_BYTES } from '../mock/base/store-bytes.js';
import { defaultMaxStoreBytes } from '../mock/store/heap-budget.js';
import { defaultMaxConnections } from '../mock/http/connection-cap.js';

const DEFAULT_STORE_BYTES_TEXT = '256 MiB';

export const mockHelp = `Usage: petstore-kit mock [options] [DOCUMENT]

Starts the stateful Petstore mock and prints its base URL when ready. DOCUMENT is the same as --spec FILE
(as in "prism mock openapi.yaml").

Options:
  -p, --port N        port to listen on (default 4010; 0 picks a free one)
  --host HOST         address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --api-key KEY       an accepted key, the credential of every security scheme (user:password: Basic only);
                      repeat for more (default: PETSTORE_API_KEYS, comma-separated, else the development
                      key "${DEV_API_KEY}")
  --spec FILE         the OpenAPI 3 document (default: the bundled openapi.yaml)
  --fixtures FILE     seed pets, a JSON array of Pet (default: the bundled fixtures/pets.json)
  --body-limit BYTES  largest request body accepted (default ${DEFAULT_BODY_LIMIT})
  --max-pets N        most pets the store holds, fixtures included (default ${DEFAULT_MAX_ITEMS}); a create
                      beyond it gets 409 store_full
  --max-store-bytes BYTES
                      most bytes of pets (their JSON text) the store holds (default: a quarter of the heap
                      limit, at most ${DEFAULT_STORE_BYTES_TEXT}; here ${defaultMaxStoreBytes()}); a create beyond it gets 409 store_full
  --max-connections N most connections open at once (default: the open-file limit less 128, here
                      ${defaultMaxConnections()}); one more is answered 503 and closed
  --cors-origin URL   allow only this browser origin; repeat for more (default: any origin; the admin API
                      only ever allows origins named here)
  --no-cors           send no CORS headers
  --quiet             print no request log
  --log-format FMT    the request log: text (default; one line a request, colour on a terminal) or json
  --config FILE       read flags from FILE (default: ./${CONFIG_FILE} when present); flags override it
  --no-config         ignore ./${CONFIG_FILE}
  --delay MS|MIN-MAX  add latency to every answer, fixed or picked from a range (at most ${MAX_DELAY_MS})
  --fault-rate R      drop this share (0 to 1) of connections, as a flaky network does
  --journal-size N    requests kept in the journal at ${ADMIN_PREFIX}/journal (default ${DEFAULT_JOURNAL_SIZE}; 0: off)
  --watch             reload the spec and the fixtures when their files change
  --state FILE        keep the store in FILE across restarts (loaded at start, written after each change);
                      memory store only
  --store STORE       where the pets live: memory (default; this process) or redis://[user:pass@]host:port[/db]
                      (rediss:// for TLS), one store shared by every mock using it (default: PETSTORE_STORE)
  --store-prefix NAME namespace of the Redis keys, so several mocks can share one Redis (default petstore)
  -h, --help          show this help
  -v, --version       print the version
`;

type MockFlags = ReturnType<typeof parseMockFlags>;

/** Flags, with a positional document (Prism's `prism mock openapi.yaml`) read as `--spec`. */
function parseMockFlags(args: string[]) {
  const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: mockFlags });
  if (positionals.length > 1)
    throw new UsageError(
      `one document at most (got ${positionals.map((p) => `"${p}"`).join(', ')}); see "petstore-kit mock --help"`,
    );
  const [document] = positionals;
  if (document !== undefined && values.spec !== undefined)
    throw new UsageError(`give the document once: "${document}" or --spec ${values.spec}, not both`);
  return document === undefined ? values : { ...values, spec: document };
}

/** `petstore-kit mock`: flags → a running server, stopped cleanly by Ctrl-C or SIGTERM. */
export function runMock(args: string[]): Promise<number> {
  return runServeCommand(parseMockFlags(args), { table: mockFlags, help: mockHelp, sharedWith: proxyFlags, serve });
}

/** Flag values (the config file's merged in) → a running server, until Ctrl-C or SIGTERM. */
async function serve(values: Partial<MockFlags>, config: LoadedConfig | undefined): Promise<number> {
  const logFormat = values['log-format'] ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json')
    throw new UsageError(`--log-format must be text or json (got "${logFormat}")`);
  const emptyKey = values['api-key']?.some((key) => key.trim() === '');
  if (emptyKey) throw new UsageError('--api-key must not be empty');
  // With JSON logs, stdout carries JSON Lines only (`| jq` works): the start-up and stop lines go to stderr.
  const out = logFormat === 'json' ? process.stderr : process.stdout;
  const say = (line: string) => void out.write(`${line}\n`);
  // Listen for the stop signals before anything can see the mock: a Ctrl-C that arrives while the start-up lines
  // are written must stop it cleanly, not kill it by the signal's default action.
  let stopping: number | undefined;
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal?: NodeJS.Signals) => {
      // One Ctrl-C often arrives twice: from the terminal and forwarded by npm. A quick repeat is that echo; a later
      // one means "now", as in most servers.
      if (stopping !== undefined && signal && Date.now() - stopping > SIGNAL_ECHO_MS) process.exit(130);
      stopping ??= Date.now();
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
    // npm runs a bin through `sh -c` and forwards SIGTERM to that shell only, which dies and leaves us running
    // (`npx petstore-kit mock & kill $!`): so under npm, stop when that shell is gone. Started otherwise (a shell's
    // `&`, nohup, a CI step), we outlive the shell that started us, as a background server should.
    if (startedByNpm()) {
      watchParent((parent) => {
        process.stderr.write(`petstore-kit: the process that started the mock (pid ${parent}) has exited; stopping\n`);
        stop();
      });
    }
  });
  const server = await createMockServer(mockServerOptions(values, logFormat));
  await announce(server, values, config, say);
  await stopped;
  await server.close();
  say('petstore-kit mock stopped');
  // The echo of a Ctrl-C that npm forwards can land after the mock has stopped; while Node exits, signals have their
  // default action again and it would end the process "killed by SIGINT" (npm: 130). Linger briefly so it lands here.
  const linger = (stopping ?? 0) + SIGNAL_ECHO_MS - Date.now();
  if (linger > 0) await new Promise((resolve) => setTimeout(resolve, linger));
  return 0;
}

/** The server's options, from the flags' values (each number checked against its range). */
function mockServerOptions(values: Partial<MockFlags>, logFormat: 'text' | 'json'): ServerOptions {
  const origins = values['cors-origin'];
  return {
    port: parseInteger('port', values.port, 0, 65535) ?? 4010,
    host: values.host ?? '127.0.0.1',
    apiKeys: values['api-key'],
    spec: values.spec,
    fixtures: values.fixtures,
    bodyLimit: parseInteger('body-limit', values['body-limit'], 1),
    maxPets: parseInteger('max-pets', values['max-pets'], 1),
    maxStoreBytes: parseInteger('max-store-bytes', values['max-store-bytes'], 1, MAX_STORE_BYTES),
    maxConnections: parseInteger('max-connections', values['max-connections'], 1),
    cors: values['no-cors'] ? false : { origins: origins?.length ? origins : '*' },
    log: values.quiet ? false : logFormat,
    delay: parseDelayFlag(values.delay),
    faultRate: parseRate(values['fault-rate']),
    journalSize: parseInteger('journal-size', values['journal-size'], 0),
    watch: values.watch,
    state: values.state,
    store: values.store,
    storePrefix: values['store-prefix'],
    ...(logFormat === 'json'
      ? { onReload: (event: ReloadEvent) => void process.stderr.write(`petstore-kit: ${event.message}\n`) }
      : {}),
  };
}

/**
 * What the banner says of the document's resources beyond v1's one collection: each collection and its roles when
 * there are several, and every operation answered without state (from the document's examples), with why.
 */
export function resourceLines(model: ResourceModel): string[] {
  const lines: string[] = [];
  if (model.collections.length > 1) {
    const listed = model.collections.map((c) => `${c.name} (${Object.keys(c.operations).join(', ')})`);
    lines.push(`collections: ${listed.join('; ')}`);
  }
  const none = model.operations.filter((operation) => operation.role === 'none');
  if (none.length > 0) {
    lines.push(`answered from the document's examples, without state (they fit no resource role):`);
    for (const o of none) lines.push(`  ${o.method.toUpperCase()} ${o.path} (${o.operationId}): ${o.reason}`);
  }
  return lines;
}

/** The start-up lines: where the mock listens, what it serves, its key and how to try it. */
async function announce(
  server: MockServer,
  values: Partial<MockFlags>,
  config: LoadedConfig | undefined,
  say: (line: string) => void,
): Promise<void> {
  const { mock } = server;
  say(`petstore-kit mock listening on ${server.url}`);
  const source = values.state
    ? `in the store (kept in ${values.state})`
    : mock.store.kind === 'redis'
      ? 'in the shared store'
      : 'from the fixtures';
  const { collections } = mock.spec.resources;
  const held =
    collections.length === 1 ? `${nounOf(collections[0]!.name)}s` : `items in ${collections.length} collections`;
  say(`  ${await mock.store.count()} ${held} ${source}; ${mock.spec.operations.length} operations from the document`);
  for (const line of resourceLines(mock.spec.resources)) say(`  ${line}`);
  say(
    mock.usingDevKey
      ? `  API key: ${DEV_API_KEY} (the development key; set --api-key or PETSTORE_API_KEYS to choose your own)${singularKeyHint()}`
      : `  API keys: ${mock.apiKeys.length} configured (not shown)`,
  );
  // The default (memory) needs no line; a shared store says which one and how this replica joined it.
  if (mock.store.kind !== 'memory') say(`  store: ${describeStore(mock.store)}`);
  say(`  docs: ${server.docsUrl} (the OpenAPI document: ${server.docsUrl}/openapi.json)`);
  if (config) say(`  config: ${config.file}`);
  // The document's first list, /pets on v1.
  for (const line of securityLines(mock.spec)) say(`  ${line}`);
  const path = tryPath(mock.spec, 2);
  if (path !== undefined) {
    const operation = mock.spec.operations.find((o) => o.method === 'get' && o.path === path.split('?')[0]);
    say(`  try: ${tryLine(`${server.url}${path}`, operation, mock.usingDevKey ? DEV_API_KEY : '<your key>')}`);
  }
  say(`  admin API: ${server.origin}${ADMIN_PREFIX} (reset, journal, state; same keys)`);
  const latency = values.delay ? `latency ${values.delay} ms` : undefined;
  const faults = values['fault-rate'] ? `fault rate ${values['fault-rate']} (connections dropped)` : undefined;
  if (latency || faults) say(`  ${[latency, faults].filter(Boolean).join('; ')}`);
  if (values.watch) say('  watching the spec and the fixtures for changes');
}

/** How long after a stop signal a repeat counts as its echo (the terminal's and npm's copies of one Ctrl-C). */
const SIGNAL_ECHO_MS = 250;

/** Ctrl-C, `kill`, and a closed terminal all stop the mock cleanly (pending state written). */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The mock reads the plural; a lone PETSTORE_API_KEY (the contract command's variable) is a likely slip. */
function singularKeyHint(): string {
  return process.env.PETSTORE_API_KEY && !process.env.PETSTORE_API_KEYS
    ? '; PETSTORE_API_KEY is set, but the mock reads PETSTORE_API_KEYS'
    : '';
}

function parseDelayFlag(value: string | undefined) {
  if (value === undefined) return undefined;
  const latency = parseDelay(value);
  if (!latency)
    throw new UsageError(
      `--delay must be milliseconds (200) or a range (100-500), at most ${MAX_DELAY_MS} (got "${value}")`,
    );
  return latency;
}

function parseRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new UsageError(`--fault-rate must be a number from 0 to 1 (got "${value}")`);
  return rate;
}
