import { parseArgs } from 'node:util';
import { createMockServer } from '../mock/server.js';
import { DEFAULT_MAX_PETS } from '../mock/store.js';
import { DEFAULT_BODY_LIMIT, DEV_API_KEY } from '../mock/create-mock.js';
import { UsageError, parseInteger } from './usage-error.js';
import { CONFIG_FILE, flagsTaking, loadConfig, type LoadedConfig } from '../config/load-config.js';
import { parseDelay, MAX_DELAY_MS } from '../mock/faults.js';
import { ADMIN_PREFIX } from '../mock/admin/admin.js';
import { DEFAULT_JOURNAL_SIZE } from '../mock/journal.js';
import { defaultMaxStoreBytes, MAX_STORE_BYTES } from '../mock/store-bytes.js';
import { defaultMaxConnections } from '../mock/connection-cap.js';

const DEFAULT_STORE_BYTES_TEXT = '256 MiB';

export const mockHelp = `Usage: petstore-kit mock [options]

Starts the stateful Petstore mock and prints its base URL when ready.

Options:
  --port N            port to listen on (default 4010; 0 picks a free one)
  --host HOST         address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --api-key KEY       an accepted bearer key; repeat for more (default: PETSTORE_API_KEYS, comma-separated,
                      else the development key "${DEV_API_KEY}")
  --spec FILE         the OpenAPI 3 document (default: the bundled openapi.yaml)
  --fixtures FILE     seed pets, a JSON array of Pet (default: the bundled fixtures/pets.json)
  --body-limit BYTES  largest request body accepted (default ${DEFAULT_BODY_LIMIT})
  --max-pets N        most pets the store holds, fixtures included (default ${DEFAULT_MAX_PETS}); a create
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
  --state FILE        keep the store in FILE across restarts (loaded at start, written after each change)
  -h, --help          show this help
`;

const mockFlags = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  spec: { type: 'string' },
  fixtures: { type: 'string' },
  'body-limit': { type: 'string' },
  'max-pets': { type: 'string' },
  'max-store-bytes': { type: 'string' },
  'max-connections': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'no-cors': { type: 'boolean' },
  quiet: { type: 'boolean' },
  'log-format': { type: 'string' },
  config: { type: 'string' },
  'no-config': { type: 'boolean' },
  delay: { type: 'string' },
  'fault-rate': { type: 'string' },
  'journal-size': { type: 'string' },
  watch: { type: 'boolean' },
  state: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type MockFlags = ReturnType<typeof parseMockFlags>;

function parseMockFlags(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: false, options: mockFlags }).values;
}

/** A bad value that came from the config file is reported against the file and its key, not a flag never typed. */
function blameConfig(error: unknown, config: LoadedConfig | undefined, flags: Partial<MockFlags>): unknown {
  const name = error instanceof UsageError ? /^--([a-z0-9-]+) /.exec(error.message)?.[1] : undefined;
  if (!config || !name || !(name in config.values) || name in flags) return error;
  return new UsageError(`${config.file}: "${name}"${(error as UsageError).message.slice(name.length + 2)}`);
}

/** `petstore-kit mock`: flags → a running server, stopped cleanly by Ctrl-C or SIGTERM. */
export async function runMock(args: string[]): Promise<number> {
  const flags = parseMockFlags(args);
  if (flags.help) {
    process.stdout.write(mockHelp);
    return 0;
  }
  const config = flags['no-config']
    ? undefined
    : await loadConfig(flags.config, { flags: mockFlags, exclude: ['help', 'config', 'no-config'], fileFlags: flagsTaking('FILE', mockHelp) });
  const values: Partial<MockFlags> = { ...(config?.values as Partial<MockFlags>), ...flags };
  try {
    return await serve(values, config);
  } catch (error) {
    throw blameConfig(error, config, flags);
  }
}

/** Flag values (the config file's merged in) → a running server, until Ctrl-C or SIGTERM. */
async function serve(values: Partial<MockFlags>, config: LoadedConfig | undefined): Promise<number> {
  const logFormat = values['log-format'] ?? 'text';
  if (logFormat !== 'text' && logFormat !== 'json') throw new UsageError(`--log-format must be text or json (got "${logFormat}")`);
  const emptyKey = values['api-key']?.some((key) => key.trim() === '');
  if (emptyKey) throw new UsageError('--api-key must not be empty');
  const origins = values['cors-origin'];
  const server = await createMockServer({
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
  });
  const { mock } = server;
  console.log(`petstore-kit mock listening on ${server.url}`);
  const source = values.state ? `in the store (kept in ${values.state})` : 'from the fixtures';
  console.log(`  ${mock.store.size} pets ${source}; ${mock.spec.operations.length} operations from the document`);
  console.log(
    mock.usingDevKey
      ? `  API key: ${DEV_API_KEY} (the development key; set --api-key or PETSTORE_API_KEYS to choose your own)`
      : `  API keys: ${mock.apiKeys.length} configured (not shown)`,
  );
  console.log(`  docs: ${server.docsUrl}`);
  if (config) console.log(`  config: ${config.file}`);
  console.log(`  try: curl -H 'Authorization: Bearer ${mock.usingDevKey ? DEV_API_KEY : '<your key>'}' ${server.url}/pets?limit=2`);
  console.log(`  admin API: ${server.origin}${ADMIN_PREFIX} (reset, journal, state; same keys)`);
  const latency = values.delay ? `latency ${values.delay} ms` : undefined;
  const faults = values['fault-rate'] ? `fault rate ${values['fault-rate']} (connections dropped)` : undefined;
  if (latency || faults) console.log(`  ${[latency, faults].filter(Boolean).join('; ')}`);
  if (values.watch) console.log('  watching the spec and the fixtures for changes');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  console.log('petstore-kit mock stopped');
  return 0;
}

function parseDelayFlag(value: string | undefined) {
  if (value === undefined) return undefined;
  const latency = parseDelay(value);
  if (!latency) throw new UsageError(`--delay must be milliseconds (200) or a range (100-500), at most ${MAX_DELAY_MS} (got "${value}")`);
  return latency;
}

function parseRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new UsageError(`--fault-rate must be a number from 0 to 1 (got "${value}")`);
  return rate;
}
