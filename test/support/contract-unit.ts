import { createSession, type ContractConfig, type Session } from '../../src/contract/base/session.js';
import type { ServerResponse } from 'node:http';
import type { Exchange } from '../../src/contract/base/exchange.js';
import { stringifyJson } from '../../src/json/stringify-json.js';
import { loadSpec, type Spec } from '../../src/openapi/load-spec.js';

/**
 * The one place the runner's unit tests build a session: a run against `baseUrl` with a test key and the given
 * options, the rest at their defaults. Tests ask for what they need through here, so a change in how a session is
 * made (or split) changes this function only.
 */
export async function sessionFor(baseUrl: string, options: Partial<ContractConfig> = {}): Promise<Session> {
  return createSession({ baseUrl, apiKey: UNIT_KEY, spec: await bundledSpec(), ...options });
}

let loaded: Promise<Spec> | undefined;

/** The bundled document, loaded once per test file: loading it for every session would cost most of each test. */
function bundledSpec(): Promise<Spec> {
  loaded ??= loadSpec();
  return loaded;
}

/** The key the unit tests' sessions carry. */
export const UNIT_KEY = 'unit-key-6d0b3e9a';

/**
 * An exchange as the sender makes it from an answer: `status` undefined is no answer at all; the body is given as
 * parsed JSON (an int64 beyond 2^53 as a bigint) and its text and excerpt are derived from it unless `extra` says
 * otherwise.
 */
export function exchangeFor(
  operation: string,
  status: number | undefined,
  body: unknown,
  extra: Partial<Exchange> = {},
): Exchange {
  const text = body === undefined ? '' : stringifyJson(body);
  return {
    operation,
    method: 'GET',
    url: 'http://h/v1/pets',
    curl: 'curl http://h/v1/pets',
    validKey: true,
    contentType: 'application/json',
    headers: {},
    body,
    text,
    excerpt: text.slice(0, 200),
    length: text.length,
    problems: {},
    durationMs: 1,
    ...(status === undefined ? {} : { status }),
    ...extra,
  };
}

/** A test server's JSON answer: `text` as it is, under `application/json`. */
export function writeJson(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}
