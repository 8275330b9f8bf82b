#!/usr/bin/env node
import { DocumentError, UsageError } from './input-errors.js';
import { packageVersion } from './package-version.js';
import { describeError, isArgError } from './commands/describe-error.js';
import { isSupportedNode, SUPPORTED_NODE } from './commands/check-node.js';

// Each command loads only its own modules: `mock` without the proxy's and the runner's HTTP client (undici) and the
// contract engine, which made the mock's heap after start a third larger (15.3 MB against 11.0), its start slower
// (519 ms against 442 to the first answer, median of 9 on one machine), and every full collection under load longer:
// a full collection marks everything live.
const commands: Record<string, (args: string[]) => Promise<number>> = {
  mock: async (args) => (await import('./commands/mock.js')).runMock(args),
  contract: async (args) => (await import('./commands/contract.js')).runContractCommand(args),
  proxy: async (args) => (await import('./commands/proxy.js')).runProxy(args),
  fixtures: async (args) => (await import('./commands/fixtures.js')).runFixtures(args),
  compat: async (args) => (await import('./commands/compat.js')).runCompat(args),
  'compile-web': async (args) => (await import('./commands/compile-web.js')).runCompileWeb(args),
};

const help = `Usage: petstore-kit <command> [options]

Commands:
  mock         start the stateful Petstore mock server (mock [DOCUMENT]: another OpenAPI file)
  contract     check a running Petstore API against openapi.yaml (exit 0 holds, 1 violated, 2 usage/unreachable)
  proxy        a validating proxy in front of a deployment, the mock as fallback, a HAR recorder
  fixtures     fixtures --from-har FILE: the pets of a recording as a fixtures file
  compat       compat OLD NEW: does a new openapi.yaml break clients of the old one (exit 0 compatible, 1 breaking, 2 not judged)
  compile-web  compile-web --spec FILE --out FILE.js: your own document compiled for the browser build (msw, fetch)

Run "petstore-kit <command> --help" for a command's options.
  -h, --help     show this help
  -v, --version  print the version
`;

/** The command being run, for hints that name its --help. */
let commandName: string | undefined;

/** argv → a command's exit code; every failure leaves as one line on stderr. */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  commandName = name;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(help);
    return name === undefined ? 2 : 0;
  }
  if (name === '-v' || name === '--version') {
    console.log(packageVersion());
    return 0;
  }
  const command = commands[name];
  // Refused before the command's modules load: on an older Node they fail in ways that look like a failed check
  // (the runner's undici throws at import on Node 18, exit 1), and exit 1 means "a check failed".
  if (command && !isSupportedNode(process.version)) {
    process.stderr.write(
      `petstore-kit: Node ${process.version} is not supported; petstore-kit needs Node ${SUPPORTED_NODE}\n`,
    );
    return 2;
  }
  if (!command) {
    commandName = undefined;
    throw new UsageError(
      `unknown command "${name}"; commands: ${Object.keys(commands).join(', ')} (see "petstore-kit --help")`,
    );
  }
  return command(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`petstore-kit: ${describeError(error, commandName)}\n`);
    // A document that cannot be read is as much "could not start" as a bad flag: exit 2 for every command.
    process.exitCode = error instanceof UsageError || error instanceof DocumentError || isArgError(error) ? 2 : 1;
  },
);
