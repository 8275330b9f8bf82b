import { request, type Dispatcher } from 'undici';
import type { Spec } from '../openapi/load-spec.js';

/** What the upstream answered to one request for a path of the document, at start. */
export type UpstreamProbe =
  | { kind: 'serves'; path: string; status: number }
  | { kind: 'wrong-path'; path: string; status: number }
  | { kind: 'unreachable'; path: string; reason: string };

/**
 * Asks the upstream, once, for the document's first path without parameters (`GET /pets`, without a key): a 404
 * there cannot be "the pet was not found" — that path names the collection itself — so the upstream does not serve
 * the document's paths under the URL given (most often `--upstream` without its `/v1`). Any other answer (401, 200,
 * a 429) shows the path is served. The body is read and dropped.
 */
export async function probeUpstream(
  upstream: string,
  spec: Spec,
  dispatcher: Dispatcher,
  timeoutMs: number,
): Promise<UpstreamProbe> {
  const operation = spec.operations.find((o) => o.method.toLowerCase() === 'get' && !o.path.includes('{'));
  const path = `${new URL(upstream).pathname.replace(/\/$/, '')}${operation?.path ?? '/'}`;
  try {
    const answer = await request(`${upstream}${operation?.path ?? '/'}`, {
      method: 'GET',
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await answer.body.dump();
    return { kind: answer.statusCode === 404 ? 'wrong-path' : 'serves', path, status: answer.statusCode };
  } catch (error) {
    return { kind: 'unreachable', path, reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
}
