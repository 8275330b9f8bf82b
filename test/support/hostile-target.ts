import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';

/** Answers one request the hostile way; return false to let the well-behaved default answer instead. */
export type Hostile = (req: IncomingMessage, res: ServerResponse, n: number) => boolean | void;

export interface HostileTarget {
  url: string;
  origin: string;
  /** Requests seen, the probe included. */
  requests: () => number;
  close(): Promise<void>;
}

/**
 * A node:http target that answers the runner's probe (`GET /v1/pets?limit=1`, request 1) as the API would, and
 * every later request with `hostile` (or a plain well-formed answer when it returns false). Sockets are destroyed
 * on close, so a stalled response never keeps a test waiting.
 */
export async function startHostileTarget(hostile: Hostile, options: { probe?: Hostile } = {}): Promise<HostileTarget> {
  let n = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    n++;
    req.resume();
    const handler = n === 1 ? (options.probe ?? probeAnswer) : hostile;
    if (handler(req, res, n) === false) defaultAnswer(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests: () => n,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const probeAnswer: Hostile = (_req, res) => json(res, 200, [{ id: 1, name: 'rex', categoryId: 1 }]);

/** A plausible answer: 401 without the header, else an empty list, a pet or a created pet. */
function defaultAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (!req.headers.authorization) return json(res, 401, { code: 'unauthorized', message: 'no key', status: 401 });
  if (req.method === 'POST') return json(res, 201, { id: 7, name: 'x', categoryId: 1 });
  if (/\/pets\/\d+$/.test(req.url ?? '')) return json(res, 200, { id: 1, name: 'rex', categoryId: 1 });
  return json(res, 200, []);
}

/** Writes `chunk` until `total` bytes (Infinity: forever) or until the client goes away, honouring backpressure. */
export function stream(res: ServerResponse, chunk: Buffer, total: number): void {
  let sent = 0;
  const write = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    if (!res.destroyed) res.end();
  };
  res.on('error', () => {});
  write();
}

/**
 * A target that answers every request correctly but `delayMs` late: an empty list with the key, a 401 Error
 * without. Only a deadline or a signal ends a run against it early.
 */
export function startSlowTarget(delayMs: number): Promise<HostileTarget> {
  return startHostileTarget((req, res) => {
    setTimeout(
      () =>
        req.headers.authorization
          ? json(res, 200, [])
          : json(res, 401, { code: 'unauthorized', message: 'no key', status: 401 }),
      delayMs,
    );
  });
}
