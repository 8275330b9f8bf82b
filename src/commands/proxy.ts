import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import {
  createProxyServer,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT,
  type ProxyOptions,
} from '../proxy/create-proxy-server.js';
import { formatSummary } from '../proxy/proxy-summary.js';
import { DEFAULT_BODY_LIMIT, DEV_API_KEY } from '../mock/create-mock.js';
import { DEFAULT_MAX_ITEMS } from '../mock/store/collection-store.js';
import { describeStore } from '../mock/store/open-store.js';
import { UsageError, parseInteger } from './usage-error.js';
import { CONFIG_FILE, type LoadedConfig } from '../config/load-config.js';
import { runServeCommand } from './serve-command.js';
import { proxyFlags } from './proxy-flags.js';
import { mockFlags } from './mock-flags.js';
import { ADMIN_PREFIX } from '../mock/admin/admin.js';
import { startedByNpm, watchParent } from './watch-parent.js';

export const proxyHelp = `Usage: petstore-kit proxy --upstream URL [options]

A validating proxy in front of a real deployment: every request under the document's base path goes to the same
path under URL, and both the request and the answer are checked against the document (the contract runner's
checks and ids). A violation is logged, journaled at ${ADMIN_PREFIX}/journal and announced in the answer's
Petstore-Kit-Violations header. When the upstream is unreachable, too slow or answers 501, the embedded stateful
mock answers instead (Petstore-Kit-Source: mock). Ctrl-C or SIGTERM prints a summary.

Options:
  --upstream URL        the deployment's base URL, base path included (https://staging.example/v1)
  -p, --port N          port to listen on (default 4010; 0 picks a free one)
  --host HOST           address to bind (default 127.0.0.1)
  --strict              answer an invalid request 400 without forwarding it, and a violating answer 502
  --fallback MODE       mock (default): the embedded mock answers when the upstream is away or answers 501;
                        none: a 502 Error when it is away, its 501 passed on
  --record FILE         write every exchange to FILE as HAR 1.2, as it happens (credentials redacted)
  --fail-on-violation   exit 1 when stopped if any violation was seen (else 0): for CI
  --allow-invalid-requests
                        with --fail-on-violation, only the answers' violations fail the run: requests that
                        break the document (an e2e suite's negative tests) are still logged and counted
  --ca FILE             PEM certificate authorities to trust for the upstream (instead of Node's bundled ones)
  --insecure            accept any certificate from the upstream (a test deployment only)
  --timeout MS          how long the upstream has to start answering (and between body chunks) before the
                        fallback answers (default ${DEFAULT_UPSTREAM_TIMEOUT})
  --max-response-bytes BYTES
                        largest upstream body read, after decompression (default ${DEFAULT_MAX_RESPONSE_BYTES}); a longer one is a 502
  --api-key KEY         a key the embedded mock accepts (fallback and admin API); repeat for more (default:
                        PETSTORE_API_KEYS, else "${DEV_API_KEY}"). Forwarded requests are judged by the upstream.
  --fixtures FILE       the embedded mock's pets (default: the bundled fixtures/pets.json)
  --spec FILE           the OpenAPI 3 document (default: the bundled openapi.yaml)
  --body-limit BYTES    largest request body accepted (default ${DEFAULT_BODY_LIMIT})
  --max-pets N          most pets the embedded mock holds, fixtures included (default ${DEFAULT_MAX_ITEMS})
  --state FILE          keep the embedded mock's pets in FILE across restarts (as mock --state)
  --store STORE         the embedded mock's store: memory (default) or redis://… shared with team mocks
                        (default: PETSTORE_STORE)
  --store-prefix NAME   namespace of its Redis keys (default petstore)
  --cors-origin URL     allow only this browser origin; repeat for more (default: any origin)
  --no-cors             send no CORS headers
  --quiet               print no request log (violations and the upstream's going and coming still are)
  --config FILE         read flags from FILE (default: ./${CONFIG_FILE} when present); flags override it
  --no-config           ignore ./${CONFIG_FILE}
  -h, --help            show this help
  -v, --version         print the version

HTTPS_PROXY, HTTP_PROXY and NO_PROXY apply to the connection to the upstream.
`;

type ProxyFlags = ReturnType<typeof parseProxyFlags>;

function parseProxyFlags(args: string[]) {
  return parseArgs({ args, strict: true, allowPositionals: false, options: proxyFlags }).values;
}

/** `petstore-kit proxy`: flags → a running proxy; Ctrl-C or SIGTERM prints the summary and sets the exit code. */
export function runProxy(args: string[]): Promise<number> {
  return runServeCommand(parseProxyFlags(args), { table: proxyFlags, help: proxyHelp, sharedWith: mockFlags, serve });
}

async function serve(values: Partial<ProxyFlags>, config: LoadedConfig | undefined): Promise<number> {
  if (values.upstream === undefined)
    throw new UsageError(
      'proxy needs --upstream URL, the deployment to check (e.g. --upstream https://staging.example/v1)',
    );
  const fallback = values.fallback ?? 'mock';
  if (fallback !== 'mock' && fallback !== 'none')
    throw new UsageError(`--fallback must be mock or none (got "${fallback}")`);
  if (values['api-key']?.some((key) => key.trim() === '')) throw new UsageError('--api-key must not be empty');
  const ca = values.ca === undefined ? undefined : await readCa(values.ca);
  const say = (line: string) => void process.stdout.write(`${line}\n`);
  let stopping = false;
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      // A second signal while stopping means "now".
      if (stopping) process.exit(130);
      stopping = true;
      resolve();
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
    if (startedByNpm()) {
      watchParent((parent) => {
        process.stderr.write(`petstore-kit: the process that started the proxy (pid ${parent}) has exited; stopping\n`);
        stop();
      });
    }
  });
  const proxy = await createProxyServer(proxyServerOptions(values, values.upstream, fallback, ca));
  say(`petstore-kit proxy listening on ${proxy.url}`);
  say(
    `  forwarding to ${proxy.upstream}${values.strict ? ' (strict: invalid requests 400, violating answers 502)' : ''}`,
  );
  say(
    `  fallback: ${fallback === 'mock' ? `the embedded mock (${proxy.mock.usingDevKey ? `key ${DEV_API_KEY}` : `${proxy.mock.apiKeys.length} configured keys`}) when the upstream is away or answers 501` : 'none'}`,
  );
  if (fallback === 'mock' && (values.state || proxy.mock.store.kind !== 'memory'))
    say(`  the embedded mock's pets: ${values.state ? `kept in ${values.state}` : describeStore(proxy.mock.store)}`);
  if (values.record) say(`  recording to ${values.record} (HAR 1.2)`);
  if (config) say(`  config: ${config.file}`);
  say(`  journal: ${proxy.origin}${ADMIN_PREFIX}/journal`);
  // One request at start: an upstream URL without its base path answers 404 for everything, which would otherwise
  // only show as a stream of violations (or, before, as none at all).
  const probe = await proxy.probeUpstream();
  if (probe.kind === 'wrong-path') {
    const line = `upstream ${proxy.upstream} answered ${probe.status} for GET ${probe.path}, a path of the document that always exists: it does not serve the document's paths there (does --upstream lack the base path ${proxy.mock.spec.basePath}?)`;
    if (values['fail-on-violation']) {
      process.stderr.write(`petstore-kit proxy: ${line}; not starting (--fail-on-violation)\n`);
      await proxy.close();
      return 2;
    }
    say(`  warning: ${line}`);
  } else if (probe.kind === 'unreachable')
    say(
      `  upstream: not answering now (${probe.reason})${fallback === 'mock' ? '; the embedded mock answers until it does' : ''}`,
    );
  else say(`  upstream: answers GET ${probe.path} (${probe.status} without a key)`);
  await stopped;
  await proxy.close();
  const summary = proxy.summary();
  say(formatSummary(summary));
  // With --allow-invalid-requests the client's own bad requests are its business (a negative test expects the 400).
  const failing = values['allow-invalid-requests']
    ? summary.violations - summary.requestViolations
    : summary.violations;
  if (values['fail-on-violation'] && failing > 0) {
    say(
      `petstore-kit proxy: failing (--fail-on-violation): ${failing} violation${failing === 1 ? '' : 's'}${values['allow-invalid-requests'] ? ' in answers' : ''}`,
    );
    return 1;
  }
  return 0;
}

/** The CA certificates `--ca` names, or a usage error saying why the file cannot be read. */
async function readCa(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new UsageError(
      `--ca ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

/** The proxy's options, from the flags' values (each number checked against its range). */
function proxyServerOptions(
  values: Partial<ProxyFlags>,
  upstream: string,
  fallback: 'mock' | 'none',
  ca: Buffer | undefined,
): ProxyOptions {
  const origins = values['cors-origin'];
  return {
    upstream,
    port: parseInteger('port', values.port, 0, 65535) ?? 4010,
    host: values.host ?? '127.0.0.1',
    strict: values.strict ?? false,
    fallback,
    record: values.record,
    ca,
    insecure: values.insecure ?? false,
    timeout: parseInteger('timeout', values.timeout, 1),
    maxResponseBytes: parseInteger('max-response-bytes', values['max-response-bytes'], 1),
    apiKeys: values['api-key'],
    fixtures: values.fixtures,
    spec: values.spec,
    bodyLimit: parseInteger('body-limit', values['body-limit'], 1),
    maxPets: parseInteger('max-pets', values['max-pets'], 1),
    state: values.state,
    store: values.store,
    storePrefix: values['store-prefix'],
    cors: values['no-cors'] ? false : { origins: origins?.length ? origins : '*' },
    log: values.quiet ? false : 'text',
  };
}
