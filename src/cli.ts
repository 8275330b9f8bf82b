#!/usr/bin/env node
import { SpecError } from './openapi/errors.js';
import { UsageError } from './commands/usage-error.js';
import { runMock } from './commands/mock.js';
import { runContractCommand } from './commands/contract.js';
import { packageVersion } from './commands/package-version.js';

const commands: Record<string, (args: string[]) => Promise<number>> = {
  mock: runMock,
  contract: runContractCommand,
};

const help = `Usage: petstore-kit <command> [options]

Commands:
  mock       start the stateful Petstore mock server
  contract   check a running Petstore API against openapi.yaml (exit 0 holds, 1 violated, 2 usage/unreachable)

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
  if (!command) {
    commandName = undefined;
    throw new UsageError(`unknown command "${name}"; commands: ${Object.keys(commands).join(', ')} (see "petstore-kit --help")`);
  }
  return command(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`petstore-kit: ${describe(error)}\n`);
    process.exitCode = error instanceof UsageError || isArgError(error) ? 2 : 1;
  },
);

function describe(error: unknown): string {
  // node:util parseArgs: "Unknown option '--prot'. To specify a positional argument starting with a '-', …"
  if (isArgError(error)) return `${(error as Error).message.split('. ')[0]}; see "petstore-kit ${commandName ? `${commandName} ` : ''}--help"`;
  if (error instanceof UsageError || error instanceof SpecError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return portInUse(error as NodeJS.ErrnoException & { port?: number; address?: string });
  if (code === 'EACCES') return `no permission to listen there (${(error as Error).message})`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot listen on that host (${(error as Error).message})`;
  return error instanceof Error ? error.message : String(error);
}

function isArgError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}

/** One line that says what to do next: the busy port, another one, and who else defaults to 4010. */
function portInUse(error: NodeJS.ErrnoException & { port?: number; address?: string }): string {
  const where = error.address !== undefined && error.port !== undefined ? `${error.address}:${error.port}` : error.message.replace(/^.*EADDRINUSE:?\s*/, '');
  // Prism's mock also listens on 4010 by default, so "in use" there is often a Prism left running.
  const prism = error.port === 4010 ? ' (4010 is also Prism\'s default: is a Prism mock or another petstore-kit running?)' : '';
  return `the port is already in use (${where})${prism}; choose another with --port N (-p N), or --port 0 for a free one`;
}
