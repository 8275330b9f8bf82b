import { expect } from 'vitest';
import { createMockServer, type ServerOptions } from '../../src/mock/http/server.js';
import { checkResponse } from '../../src/openapi/check-response.js';
import { createRouter } from '../../src/mock/front-door/router.js';
import { operationAt } from './operation-at.js';
import type { Operation } from '../../src/openapi/operations.js';
import { parseJson } from '../../src/json/parse-json.js';

export const TEST_KEY = 'test-key-123';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * A mock on an ephemeral port and a client whose every response is checked against openapi.yaml:
 * `checkResponse` must find no violation, or the test fails right there.
 */
export async function startApi(options: ServerOptions = {}) {
  const server = await createMockServer({ apiKeys: [TEST_KEY], ...options });
  const router = createRouter(server.mock.spec.operations, server.mock.spec.basePath);

  function operationFor(method: string, path: string): Operation | undefined {
    return operationAt(router, method, new URL(path, server.origin).pathname);
  }

  /** `path` is relative to the base URL (`/pets`), unless it starts with `//` (relative to the origin). */
  async function request(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | object; key?: string | null } = {},
  ): Promise<ApiResponse> {
    const target = path.startsWith('//') ? server.origin + path.slice(1) : server.url + path;
    const headers: Record<string, string> = { ...init.headers };
    if (init.key !== null) headers.authorization ??= `Bearer ${init.key ?? TEST_KEY}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(target, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      // parseJson: an int64 beyond 2^53 - 1 arrives as a bigint with its digits, as the mock sent them.
      parsed = text ? parseJson(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const observed = { status: response.status, contentType: response.headers.get('content-type'), body: parsed, text };
    if (method !== 'HEAD' && method !== 'OPTIONS') {
      expect(
        checkResponse(server.mock.spec, operationFor(method, new URL(target).pathname), observed),
        `${method} ${path} → ${response.status} ${text}`,
      ).toEqual([]);
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  return {
    server,
    request,
    get: (path: string, init?: Parameters<typeof request>[2]) => request('GET', path, init),
    post: (path: string, body: string | object, init?: Parameters<typeof request>[2]) =>
      request('POST', path, { ...init, body }),
    close: () => server.close(),
  };
}

export type Api = Awaited<ReturnType<typeof startApi>>;

/** Asserts an Error body: the status, the code, and that the message mentions each of `mentions`. */
export function expectError(response: ApiResponse, status: number, code: string, ...mentions: string[]): void {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.body).toEqual({ code, message: expect.any(String), status });
  for (const text of mentions) expect(response.body.message).toContain(text);
}
