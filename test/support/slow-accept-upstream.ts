import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';

/**
 * An upstream whose TCP accept is slow: an HTTP server in a child process with a listen backlog of 1, frozen with
 * SIGSTOP once its accept queue is filled by connections of our own. The kernel then drops every further SYN, so a
 * client stays connecting (its SYNs retransmitted) until `thaw()`, when the server takes every queued connection.
 * The child reports each request it receives and each connection that closes (remote port, bytes read).
 */
export interface SlowAcceptUpstream {
  url: string;
  /** Requests received, as `METHOD /path`. */
  requests: string[];
  /** Lets the server accept again (SIGCONT). */
  thaw(): void;
  /** Resolves when a connection from another port than ours closes, with the bytes the server read on it. */
  otherConnectionClosed(): Promise<number>;
  close(): Promise<void>;
}

const SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    process.stdout.write('request ' + req.method + ' ' + req.url + '\\n');
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 1, name: 'upstream', categoryId: 1 }));
  });
});
server.on('connection', (socket) => {
  let bytes = 0;
  const port = socket.remotePort;
  socket.on('data', (chunk) => (bytes += chunk.length));
  socket.on('close', () => process.stdout.write('closed ' + port + ' ' + bytes + '\\n'));
});
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => process.stdout.write('listening ' + server.address().port + '\\n'));
`;

export async function startSlowAcceptUpstream(): Promise<SlowAcceptUpstream> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const requests: string[] = [];
  const closes: { port: number; bytes: number }[] = [];
  const ours = new Set<number>();
  let wake: (() => void) | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the slow-accept upstream exited (${code})`)));
    lines.on('line', (line) => {
      const [word, a, b] = line.split(' ');
      if (word === 'listening') resolve(Number(a));
      if (word === 'request') requests.push(`${a} ${b}`);
      if (word === 'closed') closes.push({ port: Number(a), bytes: Number(b) });
      wake?.();
    });
  });
  child.kill('SIGSTOP');
  // Fill the accept queue (backlog 1 holds two on Linux): from now on SYNs are dropped.
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('connect', () => ours.add(socket.localPort!));
    fillers.push(socket);
  }
  await Promise.all(fillers.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    thaw() {
      child.kill('SIGCONT');
      for (const socket of fillers) socket.destroy();
    },
    async otherConnectionClosed() {
      for (;;) {
        const found = closes.find((close) => !ours.has(close.port));
        if (found) return found.bytes;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async close() {
      child.kill('SIGCONT');
      for (const socket of fillers) socket.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}
