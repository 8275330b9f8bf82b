#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './paths.js';
import { InputError, UsageError } from './input-errors.js';
import { runMock } from './commands/mock.js';
import { runContractCommand } from './commands/contract.js';

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

/** argv → a command's exit code; every failure leaves as one line on stderr. */
async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(help);
    return name === undefined ? 2 : 0;
  }
  if (name === '-v' || name === '--version') {
    const pkg = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    console.log(pkg.version);
    return 0;
  }
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}"; commands: ${Object.keys(commands).join(', ')}`);
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
  if (error instanceof InputError || isArgError(error)) return (error as Error).message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `the port is already in use (${(error as Error).message.replace(/^.*EADDRINUSE:?\s*/, '')})`;
  if (code === 'EACCES') return `no permission to listen there (${(error as Error).message})`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot listen on that host (${(error as Error).message})`;
  return error instanceof Error ? error.message : String(error);
}

function isArgError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}
