import { connect } from 'node:net';

export interface RawAnswer {
  /** Everything the server sent, interim responses (`100 Continue`) included. */
  text: string;
  /** The final response's status, headers (lower-cased names) and body. */
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and collects the answer until the server closes the
 * connection or `waitMs` passes without more data. For requests an HTTP client library would refuse to send.
 * `then` is called with the first data received and may send more (a body after `100 Continue`).
 */
export function rawRequest(
  port: number,
  bytes: string | Buffer,
  options: { waitMs?: number; then?: (first: string, write: (more: string | Buffer) => void) => void } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let first = true;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('latin1')));
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, options.waitMs ?? 1_000);
    };
    socket.on('connect', () => {
      socket.write(bytes);
      arm();
    });
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (first) {
        first = false;
        options.then?.(chunk.toString('latin1'), (more) => socket.write(more));
      }
      arm();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function parse(text: string): RawAnswer {
  // Skip interim 1xx responses: the final one is the last head.
  let rest = text;
  while (/^HTTP\/1\.1 1\d\d /.test(rest) && rest.includes('\r\n\r\n')) rest = rest.slice(rest.indexOf('\r\n\r\n') + 4);
  const end = rest.indexOf('\r\n\r\n');
  const head = end === -1 ? rest : rest.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { text, status: Number(statusLine.split(' ')[1] ?? 0), headers, body: end === -1 ? '' : rest.slice(end + 4) };
}
