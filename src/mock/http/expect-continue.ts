import type { IncomingMessage, ServerResponse } from 'node:http';

interface Expectation {
  sendContinue?: () => void;
  mustClose(): boolean;
}

// Most requests expect nothing: they share one answer instead of a new one each.
const NOTHING_EXPECTED: Expectation = Object.freeze({ mustClose: () => false });

/**
 * `Expect: 100-continue` answered by the mock itself, not by Node: with a `checkContinue` listener on the server,
 * Node sends no `100 Continue` on its own, and the body stage calls `sendContinue` only after the key, the
 * parameters and the body's declared size and media type have passed (RFC 9110 §10.1.1: a server may answer with
 * a final status instead). A request answered without its body having been asked for gets `Connection: close`:
 * the client may still be waiting to send it, so the connection cannot carry another request.
 */
export function expectContinue(req: IncomingMessage, res: ServerResponse): Expectation {
  const expects = typeof req.headers.expect === 'string' && req.headers.expect.trim().toLowerCase() === '100-continue';
  if (!expects) return NOTHING_EXPECTED;
  let sent = false;
  return {
    sendContinue() {
      if (sent || res.headersSent) return;
      sent = true;
      res.writeContinue();
    },
    mustClose: () => !sent,
  };
}
