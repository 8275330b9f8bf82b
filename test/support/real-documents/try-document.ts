import { vi } from 'vitest';
import { createMockServer, type MockServer } from '../../../src/mock/http/server.js';
import { buildRequest, type BuiltRequest } from './build-request.js';
import { IndependentValidator } from './independent-validator.js';
import { judgeAnswer } from './judge-answer.js';
import { KnownItems } from './known-items.js';
import { sameRequest } from './same-request.js';
import { NotSendable } from './not-sendable.js';
import { operationsOf, readDocument } from './read-document.js';

export const CORPUS_KEY = 'corpus-key-52';

/** One operation of the document: `GET /pets/{petId}`, what was sent and what is wrong with the answer. */
export interface OperationResult {
  operation: string;
  /** Undefined when sent; else why no request could be built. */
  notSent?: string;
  status?: number;
  /** Empty when the answer is valid. */
  causes: string[];
  /**
   * An item the harness never saw the mock hand out (no create or list of its collection answered one), addressed
   * by a made-up id and answered 404 where the operation declares no 404: honest, not counted invalid. RFC 9110
   * §15.5.5: 404, the server "did not find a current representation for the target resource"; OAS 3.0.3 §4.7.16:
   * responses need not "cover all possible HTTP response codes".
   */
  absent?: true;
}

export type Outcome =
  | { started: false; message: string; printed: string[] }
  | { started: true; printed: string[]; results: OperationResult[]; internalErrors: string[] };

/**
 * What the mock does with a document, as a new user meets it: started programmatically on the file (no options
 * but a key), every operation of `paths` sent one generated valid request, every answer judged by the independent
 * validator; or the refusal, with whatever the start printed besides (a refusal is one line: OAS tooling's users
 * read it in a terminal).
 */
export async function tryDocument(file: string): Promise<Outcome> {
  const internalErrors: string[] = [];
  const { result: server, printed } = await capturingOutput(() =>
    createMockServer({
      spec: file,
      apiKeys: [CORPUS_KEY],
      onInternalError: (error) => internalErrors.push(firstLine(error)),
    }),
  );
  if (server instanceof Error) return { started: false, message: server.message, printed };
  try {
    const results = await sendEveryOperation(server, file);
    return { started: true, printed, results, internalErrors };
  } finally {
    await server.close();
  }
}

async function sendEveryOperation(server: MockServer, file: string): Promise<OperationResult[]> {
  const validator = new IndependentValidator(readDocument(file));
  const results: OperationResult[] = [];
  const known = new KnownItems();
  const operations = operationsOf(validator.document);
  for (const { method, path } of operations) {
    const operation = `${method.toUpperCase()} ${path}`;
    const address = known.addressFor(path);
    let request: BuiltRequest;
    try {
      request = buildRequest(validator, { method, path }, CORPUS_KEY, address);
    } catch (error) {
      if (!(error instanceof NotSendable)) throw error;
      results.push({ operation, notSent: error.message, causes: [] });
      continue;
    }
    const response = await fetch(server.url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
    });
    const text = await response.text();
    const answer = { status: response.status, contentType: response.headers.get('content-type'), text };
    known.note(method, path, answer);
    const own = judgeAnswer(validator, { method, path }, answer);
    const alike = sameRequest(operations, { method, path }).slice(1);
    const causes =
      own.length > 0 && alike.some((other) => judgeAnswer(validator, other, answer).length === 0) ? [] : own;
    const absent =
      !request.addressed && path.endsWith('}') && causes.length === 1 && /^status 404 not declared/.test(causes[0]!);
    results.push({ operation, status: response.status, ...(absent ? { absent, causes: [] } : { causes }) });
  }
  return results;
}

/** Runs `start` with console and standard streams captured: what a user would have seen printed. */
async function capturingOutput<T>(start: () => Promise<T>): Promise<{ result: T | Error; printed: string[] }> {
  const printed: string[] = [];
  const keep = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  const spies = [
    ...(['warn', 'error', 'log', 'info'] as const).map((method) => vi.spyOn(console, method).mockImplementation(keep)),
    ...[process.stdout, process.stderr].map((stream) =>
      vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => (keep(String(chunk).trimEnd()), true)),
    ),
  ];
  try {
    return { result: await start(), printed };
  } catch (error) {
    return { result: error instanceof Error ? error : new Error(String(error)), printed };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
