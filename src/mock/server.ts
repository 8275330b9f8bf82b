import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMock, type Mock, type MockOptions } from './create-mock.js';
import { createMockApp } from './app.js';
import { DOCS_PATH } from './docs/create-docs.js';
import { createRequestLog, type RequestLogOptions } from '../log/create-request-log.js';

export interface ServerOptions extends MockOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A request log: `'text'` (one line a request), `'json'` (JSON Lines), or options; default `false`, no log. */
  log?: RequestLogOptions['format'] | RequestLogOptions | false;
}

/** A running mock. */
export interface MockServer {
  /** The API's base URL, base path included: `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The server's origin: `http://127.0.0.1:4010`. */
  origin: string;
  /** The docs page (Swagger UI): `http://127.0.0.1:4010/docs`. */
  docsUrl: string;
  port: number;
  mock: Mock;
  /** Back to the fixtures. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts the mock over HTTP and resolves once it is listening.
 * @example const server = await createMockServer(); await fetch(`${server.url}/pets`, { headers: { Authorization: 'Bearer petstore-dev-key' } }); await server.close();
 */
export async function createMockServer(options: ServerOptions = {}): Promise<MockServer> {
  const mock = await createMock(options);
  const log = options.log ? createRequestLog({ keys: mock.apiKeys, ...(typeof options.log === 'string' ? { format: options.log } : options.log) }) : undefined;
  if (log) mock.observers.add(log.observe);
  const server = createServer(createMockApp(mock));
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  return {
    url: origin + mock.spec.basePath,
    origin,
    docsUrl: origin + DOCS_PATH,
    port: address.port,
    mock,
    reset: mock.reset,
    close: async () => {
      await close(server);
      if (log) {
        mock.observers.delete(log.observe);
        log.flush();
      }
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections would hold close() open until they time out.
    server.closeAllConnections();
  });
}
