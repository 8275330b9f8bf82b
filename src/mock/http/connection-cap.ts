import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { apiError } from '../../errors.js';

/** File descriptors left for everything but client connections: the state file, watchers, logs, libraries. */
export const FD_RESERVE = 128;
/** Used where the open-file limit cannot be read (not Linux). */
const FALLBACK_MAX_CONNECTIONS = 1_000;
/** A connection over the cap that sends no request within this time is closed. */
const OVER_CAP_IDLE_MS = 2_000;
const LOG_EVERY_MS = 10_000;

const OVER_CAP = Symbol('petstore-kit.overCap');
type Marked = Socket & { [OVER_CAP]?: true };

/**
 * The default cap on open connections: the process's open-file limit (`ulimit -n`, read from /proc/self/limits)
 * less FD_RESERVE, so the mock refuses connections with an answer before the descriptors run out (past them,
 * every client, not only the newest, would get ECONNRESET). 1,000 where the limit cannot be read.
 */
export function defaultMaxConnections(): number {
  const limit = openFileLimit();
  return limit === undefined ? FALLBACK_MAX_CONNECTIONS : Math.max(16, limit - FD_RESERVE);
}

function openFileLimit(): number | undefined {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (!match || match[1] === 'unlimited') return undefined;
    return Number(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * Counts the server's open connections and marks each one opened past `max`: its request (if it sends one within
 * 2 s; else it is closed) is answered by `refuse` with 503 `too_many_connections`, `Retry-After: 1` and
 * `Connection: close`, instead of reaching the mock. The first refusal, and then one every 10 s, prints one line
 * with the count. RFC 9110 §15.6.4: 503 is the server's temporary overload, which this is.
 */
export function capConnections(
  server: Server,
  max: number,
  log: (line: string) => void = (line) => console.error(line),
) {
  if (!Number.isSafeInteger(max) || max < 1)
    throw new RangeError(`maxConnections must be a whole number of at least 1 (got ${max})`);
  let open = 0;
  let refused = 0;
  let loggedAt = 0;
  server.on('connection', (socket: Marked) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
    if (open <= max) return;
    socket[OVER_CAP] = true;
    socket.setTimeout(OVER_CAP_IDLE_MS, () => socket.destroy());
    refused += 1;
    const now = Date.now();
    if (now - loggedAt >= LOG_EVERY_MS) {
      loggedAt = now;
      log(
        `petstore-kit: ${open} connections are open, more than the ${max} allowed (--max-connections); ${refused} refused with 503 so far. ` +
          'Idle clients hold connections: close them, or raise the limit (ulimit -n, then --max-connections)',
      );
    }
  });
  return {
    /** Open connections now. */
    get open() {
      return open;
    },
    /** Answers a request on a connection over the cap and returns true; false for any other request. */
    refuse(req: IncomingMessage, res: ServerResponse): boolean {
      if (!(req.socket as Marked)[OVER_CAP]) return false;
      const failure = apiError(
        'too_many_connections',
        `the mock has ${max} connections open, the most it allows; retry shortly`,
      );
      const body = JSON.stringify(failure.toBody());
      res.writeHead(failure.status, {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Retry-After': '1',
        Connection: 'close',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
