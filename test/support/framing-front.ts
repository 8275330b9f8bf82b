import { createServer, type Server, type Socket } from 'node:net';
import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { exactJson } from '../targets/exact-json.js';

/**
 * How a real HTTP/1.x server may put one and the same answer on the wire (RFC 9112 §6: message body length; §9:
 * connection management; RFC 9110 §8.4: content codings). Every framing here is correct: a client that reads HTTP
 * must see the same status, headers and JSON value whichever is used.
 */
export interface Framing {
  name: string;
  /** How the body's length is told: Content-Length, chunked transfer coding, or the end of the connection. */
  length: 'content-length' | 'chunked' | 'close';
  /** Cuts the body (after any content coding) into the pieces written one after another; `n` numbers the answers. */
  pieces?: (body: Buffer, n: number) => Buffer[];
  /** A content coding applied when the request's Accept-Encoding allows it. */
  coding?: 'gzip' | 'deflate' | 'br';
  /** The status line says HTTP/1.0 (and the connection ends with the answer, RFC 9112 §9.3). */
  http10?: boolean;
  /** `Connection: close` on every answer, then the connection is closed. */
  closeEach?: boolean;
  /** The connection is closed after this many answers (the last one says `Connection: close`). */
  requestsPerConnection?: number;
  /** A connection idle this long after an answer is closed by the server, without notice (as nginx does). */
  idleCloseMs?: number;
  /** Nothing at all is written for this long after the request was read. */
  firstByteDelayMs?: number;
  /** The head is written at once, the body this long after it (by answer number). */
  bodyDelayMs?: (n: number) => number;
  /** Trailer fields after the last chunk (RFC 9112 §7.1.2), announced in a `Trailer` header. */
  trailers?: boolean;
  /** JSON answers labelled `application/json; charset=utf-8` instead of bare `application/json`. */
  charset?: boolean;
  /** JSON bodies re-serialised pretty-printed (two spaces) with every object's members in reverse order. */
  pretty?: boolean;
}

/** The body in two pieces, cut at a position that moves one byte further with every answer (0 … length). */
export function cutAtEveryPosition(body: Buffer, n: number): Buffer[] {
  const at = n % (body.length + 1);
  return [body.subarray(0, at), body.subarray(at)];
}

/** Every byte a piece of its own. */
export function oneBytePieces(body: Buffer): Buffer[] {
  return Array.from({ length: body.length }, (_, i) => body.subarray(i, i + 1));
}

/** Pieces of one to three bytes. */
export function tinyPieces(body: Buffer, n: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0, i = n; at < body.length; i++) {
    const size = 1 + (i % 3);
    pieces.push(body.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

export interface FramingFront {
  url: string;
  /** Answers written so far. */
  answers: () => number;
  /** Connections accepted so far. */
  connections: () => number;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  reason: string;
  headers: [string, string][];
  body: Buffer;
}

/** Headers that describe the upstream connection or its framing, never forwarded either way (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'te',
  'trailer',
  'upgrade',
  'proxy-connection',
  'host',
  'date',
]);

/**
 * A server on a raw socket in front of `upstream` (any HTTP target, e.g. a correct implementation): it reads each
 * request, has the upstream answer it, and writes that answer back under `framing`, in many writes with a turn of
 * the event loop between them, so that a client sees the body arrive in many reads, interleaved with other answers
 * in flight.
 */
export async function startFramingFront(upstream: string, framing: Framing): Promise<FramingFront> {
  // A connection of its own for each request to the upstream: a kept-alive one can be closed by the upstream (Node's
  // 5 s keepAliveTimeout) just as the front reuses it, and the front would then drop the client's connection, a
  // failure of this plumbing and not of the framing the battery tries.
  const agent = new Agent({ keepAlive: false, maxSockets: 128 });
  const sockets = new Set<Socket>();
  const counts = { answers: 0, connections: 0 };
  const server: Server = createServer((socket) => {
    counts.connections++;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    serveConnection(socket, new URL(upstream), framing, agent, counts).catch(() => socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const path = new URL(upstream).pathname.replace(/\/$/, '');
  return {
    url: `http://127.0.0.1:${port}${path}`,
    answers: () => counts.answers,
    connections: () => counts.connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      agent.destroy();
      await once(server, 'close');
    },
  };
}

/** Reads requests off one connection one at a time (the client does not pipeline) and answers each. */
async function serveConnection(
  socket: Socket,
  upstream: URL,
  framing: Framing,
  agent: Agent,
  counts: { answers: number },
): Promise<void> {
  const reader = new RequestReader(socket);
  for (let served = 1; ; served++) {
    // Idle means no byte of a next request yet, as for nginx's keepalive_timeout: a request whose head came and whose
    // body is still on its way (undici writes them apart; on a loaded machine they arrive reads apart) is not idle.
    const idle =
      framing.idleCloseMs !== undefined && served > 1
        ? setTimeout(() => reader.idle() && socket.end(), framing.idleCloseMs)
        : undefined;
    const request = await reader.next();
    clearTimeout(idle);
    if (!request) return;
    const answer = await askUpstream(upstream, request, agent);
    if (framing.firstByteDelayMs) await sleep(framing.firstByteDelayMs);
    const n = counts.answers++;
    const last =
      framing.http10 || framing.closeEach || framing.length === 'close' || served === framing.requestsPerConnection;
    await writeAnswer(
      socket,
      answer,
      frame(answer, request.headers['accept-encoding'] ?? '', framing),
      framing,
      n,
      last,
    );
    if (last) {
      socket.end();
      return;
    }
  }
}

interface ReadRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A minimal HTTP/1.1 request reader: a head, then a Content-Length body (what undici sends). */
class RequestReader {
  #buffered = Buffer.alloc(0);
  #ended = false;
  #wake: (() => void) | undefined;
  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffered = Buffer.concat([this.#buffered, chunk]);
      this.#wake?.();
    });
    socket.on('end', () => {
      this.#ended = true;
      this.#wake?.();
    });
    socket.on('close', () => {
      this.#ended = true;
      this.#wake?.();
    });
  }

  /** No byte of a next request has arrived. */
  idle(): boolean {
    return this.#buffered.length === 0;
  }

  async next(): Promise<ReadRequest | undefined> {
    for (;;) {
      const request = this.#take();
      if (request) return request;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #take(): ReadRequest | undefined {
    const end = this.#buffered.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [line, ...fields] = this.#buffered.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const field of fields) {
      const colon = field.indexOf(':');
      headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.#buffered.length < end + 4 + length) return undefined;
    const body = this.#buffered.subarray(end + 4, end + 4 + length);
    this.#buffered = this.#buffered.subarray(end + 4 + length);
    const [method, target] = line!.split(' ');
    return { method: method!, target: target!, headers, body };
  }
}

/** The upstream's answer, read whole and unencoded. */
async function askUpstream(upstream: URL, request: ReadRequest, agent: Agent): Promise<Answer> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'accept-encoding'),
  );
  const call = httpRequest({
    host: upstream.hostname,
    port: upstream.port,
    method: request.method,
    path: request.target,
    headers: { ...headers, 'content-length': String(request.body.length) },
    agent,
  });
  call.end(request.body);
  const [response] = (await once(call, 'response')) as [import('node:http').IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const kept: [string, string][] = [];
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(response.rawHeaders[i]!.toLowerCase()))
      kept.push([response.rawHeaders[i]!, response.rawHeaders[i + 1]!]);
  }
  return {
    status: response.statusCode!,
    reason: response.statusMessage ?? '',
    headers: kept,
    body: Buffer.concat(chunks),
  };
}

/** The answer's head fields and body bytes as this framing sends them. */
function frame(
  answer: Answer,
  acceptEncoding: string,
  framing: Framing,
): { headers: [string, string][]; body: Buffer } {
  let body = answer.body;
  const headers = answer.headers.map(([name, value]): [string, string] => {
    if (name.toLowerCase() !== 'content-type' || !/^application\/json\b/i.test(value)) return [name, value];
    return [name, framing.charset ? 'application/json; charset=utf-8' : 'application/json'];
  });
  if (framing.pretty && body.length > 0) {
    try {
      body = Buffer.from(prettyReordered(exactJson.parse(body.toString('utf8'))));
    } catch {
      // Not JSON (a faulty target's text): sent as it came.
    }
  }
  if (framing.coding && new RegExp(`\\b${framing.coding}\\b`).test(acceptEncoding)) {
    body =
      framing.coding === 'gzip'
        ? gzipSync(body)
        : framing.coding === 'deflate'
          ? deflateSync(body)
          : brotliCompressSync(body);
    headers.push(['Content-Encoding', framing.coding], ['Vary', 'Accept-Encoding']);
  }
  return { headers, body };
}

/** JSON text of `value`, indented by two spaces, every object's members in reverse order; int64 digits kept. */
function prettyReordered(value: unknown): string {
  const reorder = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(reorder);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reorder(x)]),
    );
  };
  const marked = JSON.stringify(reorder(value), (_, v: unknown) => (typeof v === 'bigint' ? `\u0000int64:${v}` : v), 2);
  return marked.replace(/"\\u0000int64:(-?\d+)"/g, '$1');
}

/** The first pieces of an answer are written one by one; the rest in at most this many writes (a battery of cheap runs). */
const SINGLE_WRITES = 16;
const GROUPED_WRITES = 8;

/** Socket writes for the framed pieces: the first SINGLE_WRITES alone, the rest in GROUPED_WRITES groups. */
function groupWrites(framed: Buffer[]): Buffer[] {
  const rest = framed.slice(SINGLE_WRITES);
  const size = Math.ceil(rest.length / GROUPED_WRITES);
  const groups = Array.from({ length: Math.ceil(rest.length / Math.max(1, size)) }, (_, i) =>
    Buffer.concat(rest.slice(i * size, (i + 1) * size)),
  );
  return [...framed.slice(0, SINGLE_WRITES), ...groups];
}

/** Writes the head, then the body piece by piece (a turn of the event loop between pieces), framed as asked. */
async function writeAnswer(
  socket: Socket,
  answer: Answer,
  framed: { headers: [string, string][]; body: Buffer },
  framing: Framing,
  n: number,
  last: boolean,
): Promise<void> {
  const { headers, body } = framed;
  const fields = [...headers];
  if (framing.length === 'content-length') fields.push(['Content-Length', String(body.length)]);
  if (framing.length === 'chunked') fields.push(['Transfer-Encoding', 'chunked']);
  if (framing.trailers) fields.push(['Trailer', 'Server-Timing']);
  if (last && !framing.http10) fields.push(['Connection', 'close']);
  const head = `${framing.http10 ? 'HTTP/1.0' : 'HTTP/1.1'} ${answer.status} ${answer.reason}\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  if (!socket.writable) return;
  socket.write(head);
  const delay = framing.bodyDelayMs?.(n) ?? 0;
  if (delay > 0) await sleep(delay);
  // A zero-length chunk would end a chunked body (RFC 9112 §7.1): empty pieces are skipped.
  const pieces = (framing.pieces ? framing.pieces(body, n) : [body]).filter((piece) => piece.length > 0);
  const chunks = pieces.map((piece) =>
    framing.length === 'chunked'
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece,
  );
  for (const write of groupWrites(chunks)) {
    if (!socket.writable) return;
    socket.write(write);
    await nextTurn();
  }
  if (framing.length === 'chunked' && socket.writable)
    socket.write(framing.trailers ? `0\r\nServer-Timing: total;dur=${n % 100}\r\n\r\n` : '0\r\n\r\n');
}
