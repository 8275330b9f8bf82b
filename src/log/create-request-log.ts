import { formatJson, formatText, toLogEntry, type LoggedRequest } from './format-entry.js';

export type LogFormat = 'text' | 'json';

export interface RequestLogOptions {
  /** `text` (default): one concise line a request; `json`: one JSON object a line. */
  format?: LogFormat;
  /** Where lines go; default process.stdout. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** ANSI colour for `text`; default: on when the stream is a TTY and TERM is not `dumb`, unless NO_COLOR is set (FORCE_COLOR forces it). */
  colour?: boolean;
  /** The accepted keys: redacted wherever they appear in a logged URL. */
  keys?: readonly string[];
}

export interface RequestLog {
  /** An observer for `mock.observers`: records one exchange. */
  observe: (exchange: LoggedRequest) => void;
  /** Writes what is buffered now (call before exiting). */
  flush(): void;
}

// Lines are batched and written once per turn of the event loop: a write to a pipe or file is synchronous in Node
// on Linux, so one write a request would put a system call on every request's path.
const FLUSH_AT = 64 * 1024;

/**
 * A request log for a mock: add `observe` to `mock.observers`.
 * @example const log = createRequestLog({ format: 'json', keys: mock.apiKeys }); mock.observers.add(log.observe);
 */
export function createRequestLog(options: RequestLogOptions = {}): RequestLog {
  const stream = options.stream ?? process.stdout;
  const keys = options.keys ?? [];
  const colour = options.colour ?? colourByDefault(stream);
  const format =
    options.format === 'json' ? formatJson : (entry: Parameters<typeof formatJson>[0]) => formatText(entry, colour);
  let pending = '';
  let scheduled: NodeJS.Immediate | undefined;
  // The log is best-effort: a reader that went away (`petstore-kit mock | head`, EPIPE) ends the log, not the mock.
  let broken = false;
  stream.once('error', () => {
    broken = true;
  });

  function flush(): void {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (!pending || broken) {
      pending = '';
      return;
    }
    const chunk = pending;
    pending = '';
    stream.write(chunk);
  }

  return {
    observe(exchange) {
      if (broken) return;
      pending += format(toLogEntry(exchange, keys));
      if (pending.length >= FLUSH_AT) flush();
      else scheduled ??= setImmediate(flush);
    },
    flush,
  };
}

/**
 * https://no-color.org and the FORCE_COLOR convention, else colour only on a terminal that can show it
 * (`TERM=dumb` cannot: Emacs shells, some CI logs).
 */
export function colourByDefault(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}
