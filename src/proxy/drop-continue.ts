import type { Socket } from 'node:net';

// A request head as undici writes it (one latin1 string): `METHOD target HTTP/1.1\r\n…`.
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/1\.1\r\n/;
const HEAD_END = Buffer.from('\r\n\r\n');
const STATUS_LINE_PREFIX = 'HTTP/1.';
// An interim head longer than this is not one: the bytes are passed on as they are, for undici to judge.
const MAX_INTERIM_HEAD = 16 * 1024;

/**
 * Makes an upstream connection drop every `100 Continue` interim answer before undici reads it. RFC 9110 §15.2: "A
 * client MUST be able to parse one or more 1xx responses received prior to a final response, even if the client
 * does not expect one"; undici takes a 100 it did not ask for as a broken answer and closes the connection, so the
 * proxy would report an upstream that received the request (and maybe acted on it) as unreachable. Other 1xx answers (103 Early Hints) undici skips by itself. Only the heads at the
 * start of an answer are looked at (from a request's first write until its final status line): a body is never
 * scanned. The socket's own `read` and `write` are wrapped; undici reads with `read()` on 'readable'.
 */
export function dropInterimContinue(socket: Socket): void {
  const read = socket.read.bind(socket);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  // True from a request's head until its answer's final status line: what arrives may begin with interim heads.
  let atAnswerStart = false;
  let held: Buffer | undefined;
  socket.write = function writeNotingRequests(...args: unknown[]): boolean {
    if (typeof args[0] === 'string' && REQUEST_LINE.test(args[0])) atAnswerStart = true;
    return write(...args);
  };
  socket.read = function readWithoutContinue(size?: number): Buffer | null {
    for (;;) {
      const chunk = read(size) as Buffer | null;
      if (chunk === null) return null;
      if (!atAnswerStart) return chunk;
      const data = held ? Buffer.concat([held, chunk]) : chunk;
      held = undefined;
      const { pass, rest } = stripContinues(data);
      if (rest !== undefined) held = rest;
      if (pass.length > 0) return pass;
    }
  } as Socket['read'];

  /** What can be passed on now, and the start of a head still to be completed (held back until it is). */
  function stripContinues(data: Buffer): { pass: Buffer; rest?: Buffer } {
    const passed: Buffer[] = [];
    let at = 0;
    while (atAnswerStart && at < data.length) {
      const left = data.subarray(at);
      const prefix = left.toString('latin1', 0, Math.min(left.length, 12));
      // Not yet known whether this is a status line: wait for more.
      if (prefix.length < 12 && (STATUS_LINE_PREFIX.startsWith(prefix) || prefix.startsWith(STATUS_LINE_PREFIX)))
        return { pass: Buffer.concat(passed), rest: left };
      const interim = /^HTTP\/1\.[01] 1\d\d$/.exec(prefix.slice(0, 12));
      if (!interim) {
        atAnswerStart = false;
        break;
      }
      const end = left.indexOf(HEAD_END);
      if (end === -1) {
        if (left.length > MAX_INTERIM_HEAD) {
          atAnswerStart = false;
          break;
        }
        return { pass: Buffer.concat(passed), rest: left };
      }
      // A 100 is dropped; another interim answer is passed on (undici skips it) and the next head is looked at.
      if (!prefix.endsWith(' 100')) passed.push(left.subarray(0, end + HEAD_END.length));
      at += end + HEAD_END.length;
    }
    passed.push(data.subarray(at));
    return { pass: passed.length === 1 ? passed[0]! : Buffer.concat(passed) };
  }
}
