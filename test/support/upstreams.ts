import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback upstream with a hand-written answer, recording what reached it. */
export interface ScriptedUpstream {
  url: string;
  port: number;
  /** Every request received: method, target, headers, body. */
  received: { method: string; url: string; headers: IncomingHttpHeaders; rawHeaders: string[]; body: string }[];
  /** While true, every connection is reset before any answer (the upstream has gone away). */
  down: boolean;
  close(): Promise<void>;
}

/** `answer` writes the response; the server is on 127.0.0.1 at an ephemeral port, under `/v1`. */
export async function startScriptedUpstream(
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<ScriptedUpstream> {
  const state: ScriptedUpstream = { url: '', port: 0, received: [], down: false, close: async () => undefined };
  // A request that breaks off while its body is read ends its response; nothing is left unhandled.
  const server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    state.received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body,
    });
    answer(req, res, body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

/** A JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
