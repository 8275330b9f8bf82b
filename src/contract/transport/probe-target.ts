import { request } from 'undici';
import type { Session } from '../base/session.js';
import { tryPath } from '../../openapi/try-path.js';
import { describeFetchError } from './send-request.js';
import { readBody } from './read-body.js';
import { excerpt } from '../../text/excerpt.js';
import { isDeclaredAnswer } from '../../openapi/declared-answer.js';
import {
  applyCredentialHeaders,
  noCredentials,
  validCredentials,
  withCredentialQuery,
  type SentCredentials,
} from './credentials.js';

/** The target cannot be checked at all: unreachable, not the API at that URL, or the key refused. Exit code 2. */
export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/**
 * One request before the suite, so that a wrong URL, key or setup ends the run with one line naming what to fix
 * instead of eighty failures: `GET <base>/pets?limit=1` (v1's; tryPath reads it from the document) with the key must get an HTTP answer that is not 401/403 (the key
 * is refused) and, unless it is an answer the document declares for that operation (isDeclaredAnswer), not a
 * redirect (never followed: the line names the `Location` to use), not 404 (no API at that base URL) and, when 2xx,
 * JSON rather than an HTML page or other text (an app's catch-all or a login page). Anything else is for the suite
 * to judge.
 */
export async function probeTarget(session: Pick<Session, 'spec' | 'config' | 'dispatcher' | 'redact'>): Promise<void> {
  const { spec, config, redact } = session;
  const path = tryPath(spec, 1);
  // A document with no GET that needs nothing but the key leaves nothing safe to ask: the suite judges it all.
  if (path === undefined) return;
  const [pathOnly = '', ownQuery = ''] = path.split('?');
  const operation = spec.operations.find((o) => o.method === 'get' && o.path === pathOnly);
  const credentials = operation ? validCredentials(operation, config) : undefined;
  const query = withCredentialQuery(ownQuery, credentials?.query ?? {});
  const url = `${config.baseUrl}${pathOnly}${query ? `?${query}` : ''}`;
  const shown = redact(`${config.baseUrl}${path}`);
  let status: number;
  let headers: Record<string, string | string[] | undefined>;
  let text: string;
  try {
    const response = await request(url, {
      headers: probeHeaders(config, credentials),
      dispatcher: session.dispatcher,
      signal: AbortSignal.timeout(config.timeout),
    });
    status = response.statusCode;
    headers = response.headers;
    const header = (name: string) => [headers[name] ?? ''].flat().join(', ');
    text = (await readBody(response.body, header('content-encoding'), 64 * 1024)).bytes.toString('utf8');
  } catch (error) {
    throw new TargetError(
      `cannot reach ${redact(config.baseUrl)}: ${redact(describeFetchError(error, config.timeout))}`,
    );
  }
  const header = (name: string) => [headers[name] ?? ''].flat().join(', ');
  if (status === 401 || status === 403) {
    throw new TargetError(
      `the target refused the API key (GET ${shown} answered ${status}); check --api-key or PETSTORE_API_KEY${Object.keys(config.headers).length ? ' and the -H headers' : ''}`,
    );
  }
  // An answer the document declares for the operation asked (a 200 without content, a 301 it lists, a 404 in its own
  // shape) is the API answering as documented: the suite judges it, the probe never stops on it.
  const asked = spec.operations.find((o) => o.method === 'get' && o.path === path.split('?')[0]);
  if (asked && isDeclaredAnswer(asked, { status, contentType: header('content-type') || null, text })) return;
  if (status >= 300 && status < 400) {
    const location = header('location');
    if (!location)
      throw new TargetError(
        `GET ${shown} answered ${status} without a Location; the runner follows no redirects: use the URL the API answers at`,
      );
    const target = new URL(location, url).href;
    // The probe's own path and query, cut off the redirect target, leave the base URL to use.
    const base = target.endsWith(path) ? target.slice(0, -path.length) : undefined;
    throw new TargetError(
      `GET ${shown} answered ${status} with Location: ${clean(target, redact)}; the runner follows no redirects${base ? `: use --base-url ${clean(base, redact)}` : ''}`,
    );
  }
  if (status === 404) {
    throw new TargetError(
      `GET ${shown} answered 404: is ${redact(config.baseUrl)} the API's base URL? It ends in the version segment, e.g. https://host/v1`,
    );
  }
  const type = header('content-type').toLowerCase();
  // A JSON body under a wrong media type is a violation for the suite to report; a page or other text answering a
  // valid request (2xx, or a 4xx such as a stub's "no matching route") is not the API. A 5xx is the suite's to judge.
  if (status >= 200 && status < 500 && !/json/.test(type) && !parses(text)) {
    const html = /html/.test(type) || /^\s*<(!doctype|html|head|body)/i.test(text);
    throw new TargetError(
      html
        ? `GET ${shown} answered ${status} with an HTML page, not the API: is --base-url the API's base URL (a web app's catch-all, a login page or a proxy's page answers here)?`
        : `GET ${shown} answered ${status} with ${clean(type || 'no Content-Type', redact)}, not JSON: is --base-url the API's base URL? The body begins: ${clean(text, redact, 80)}`,
    );
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function clean(text: string, redact: (text: string) => string, max = 300): string {
  return excerpt(redact(text), max);
}

/** The probe's headers: -H, the operation's valid credentials as its security says (v1: `Authorization: Bearer`). */
function probeHeaders(
  config: Pick<Session['config'], 'headers' | 'apiKey'>,
  credentials: SentCredentials | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  applyCredentialHeaders(headers, credentials ?? { ...noCredentials(), authorization: `Bearer ${config.apiKey}` });
  return { ...headers, accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
}
