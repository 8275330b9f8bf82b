import { expect } from 'vitest';
import type { Spec } from '../../src/openapi/load-spec.js';
import { checkResponse } from '../../src/openapi/check-response.js';
import { createRouter } from '../../src/mock/front-door/router.js';
import { parseJson } from '../../src/json/parse-json.js';
import { stringifyJson } from '../../src/json/stringify-json.js';
import { operationAt } from './operation-at.js';

/** An answer of the mock, already judged valid against the document it serves. */
export interface JudgedAnswer {
  status: number;
  headers: Headers;
  location: string | null;
  text: string;
  // The tests read members of lists and items alike; the judge has checked their shape against the document.
  body: any;
}

export type JudgedSend = (method: string, path: string, body?: unknown, contentType?: string) => Promise<JudgedAnswer>;

/**
 * A client of a mock at `base` (any fetch: Node's, the portable core's, the browser build's) whose every answer
 * `checkResponse` must find valid against the document the mock serves — `spec()` is asked after each answer, so a
 * reloaded document judges what follows it. Bodies go as JSON (int64 beyond 2^53 kept), with the key as a bearer.
 */
export function judgedClient(fetchImpl: typeof fetch, base: string, key: string, spec: () => Spec): JudgedSend {
  let routed: { spec: Spec; router: ReturnType<typeof createRouter> } | undefined;
  return async (method, path, body, contentType = 'application/json') => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = contentType;
    const response = await fetchImpl(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : stringifyJson(body),
    });
    const text = await response.text();
    const parsed: unknown = text ? parseJson(text) : undefined;
    const served = spec();
    if (routed?.spec !== served) routed = { spec: served, router: createRouter(served.operations, served.basePath) };
    const operation = operationAt(routed.router, method, new URL(`${base}${path}`).pathname);
    const observed = { status: response.status, contentType: response.headers.get('content-type'), body: parsed, text };
    expect(checkResponse(served, operation, observed), `${method} ${path} → ${response.status} ${text}`).toEqual([]);
    return {
      status: response.status,
      headers: response.headers,
      location: response.headers.get('location'),
      text,
      body: parsed,
    };
  };
}
