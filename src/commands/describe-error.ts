import { InputError } from '../input-errors.js';

/**
 * A command's failure as the one line after "petstore-kit: ", with what to do next where there is something to say.
 * @example describeError(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', address: '127.0.0.1', port: 4010 }))
 */
export function describeError(error: unknown, commandName?: string): string {
  // node:util parseArgs: "Unknown option '--prot'. To specify a positional argument starting with a '-', …"
  if (isArgError(error))
    return `${(error as Error).message.split('. ')[0]}; see "petstore-kit ${commandName ? `${commandName} ` : ''}--help"`;
  if (error instanceof InputError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return portInUse(error as NodeJS.ErrnoException & { port?: number; address?: string });
  if (code === 'EACCES') return `no permission to listen there (${(error as Error).message})`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot listen on that host (${(error as Error).message})`;
  return error instanceof Error ? error.message : String(error);
}

export function isArgError(error: unknown): boolean {
  return (
    typeof (error as { code?: unknown }).code === 'string' &&
    (error as { code: string }).code.startsWith('ERR_PARSE_ARGS')
  );
}

/** One line that says what to do next: the busy port, another one, and who else defaults to 4010. */
function portInUse(error: NodeJS.ErrnoException & { port?: number; address?: string }): string {
  const where =
    error.address !== undefined && error.port !== undefined
      ? `${error.address}:${error.port}`
      : error.message.replace(/^.*EADDRINUSE:?\s*/, '');
  // Prism's mock also listens on 4010 by default, so "in use" there is often a Prism left running.
  const prism =
    error.port === 4010 ? " (4010 is also Prism's default: is a Prism mock or another petstore-kit running?)" : '';
  return `the port is already in use (${where})${prism}; choose another with --port N (-p N), or --port 0 for a free one`;
}
