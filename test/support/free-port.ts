import { createServer } from 'node:net';

/** A port free on 127.0.0.1 now (the kernel's pick), for a server a test starts by a fixed number. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
