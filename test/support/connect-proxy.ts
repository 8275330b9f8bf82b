import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';

/** A forward proxy on loopback that only tunnels (CONNECT), as corporate HTTPS_PROXY/HTTP_PROXY ones do. */
export interface ConnectProxy {
  url: string;
  /** The authority (`host:port`) of every tunnel asked for, in order. */
  tunnelled: string[];
  close(): void;
}

export async function startConnectProxy(): Promise<ConnectProxy> {
  const tunnelled: string[] = [];
  const server = createServer();
  server.on('connect', (req, socket, head) => {
    tunnelled.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const onward = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      onward.write(head);
      onward.pipe(socket);
      socket.pipe(onward);
    });
    onward.on('error', () => socket.destroy());
    socket.on('error', () => onward.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnelled,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
