import { partsOf, type Mock } from '../create-mock.js';
import type { MockRequest } from '../pipeline.js';
import type { Reply } from '../context.js';
import type { RequestBody } from '../../openapi/operations.js';
import type { JournalFilter } from '../journal.js';
import { apiError, toApiError } from '../../errors.js';
import { SpecError } from '../../openapi/errors.js';
import { createAuthenticator } from '../authenticate.js';
import { readBody } from '../read-body.js';
import type { StoreSnapshot } from '../store.js';
import { allowHeader } from '../router.js';
import { redactKeys } from '../../log/redact-url.js';

/** The admin API's prefix: outside the document's base path (`/v1`), so it can never shadow an operation. */
export const ADMIN_PREFIX = '/__admin';

/** A snapshot may hold many more pets than a create's body limit allows for one. */
const STATE_BODY_LIMIT = 64 * 1024 * 1024;
const SNAPSHOT_BODY: RequestBody = { required: true, mediaTypes: ['application/json'], validate: undefined };
const HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

type AdminHandler = (request: MockRequest, query: URLSearchParams) => Reply | Promise<Reply>;

export function isAdminPath(path: string): boolean {
  return path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);
}

/**
 * The admin API (WireMock's `/__admin` idea) over a mock's programmatic one: reset, the request journal and state
 * snapshots. It takes the same bearer keys as the API, answers failures in the API's `Error` shape, and its own
 * requests never reach the journal.
 */
export function createAdmin(mock: Mock) {
  const authenticate = createAuthenticator(mock.apiKeys);
  const summary = (): Reply => {
    // The counts, not a copy of the whole store.
    return { status: 200, body: { petCount: mock.store.size, nextId: mock.store.nextId } };
  };
  const routes: Record<string, Record<string, AdminHandler>> = {
    '/reset': {
      POST: () => {
        mock.reset();
        return summary();
      },
    },
    '/journal': {
      GET: (_request, query) => {
        const { journal } = partsOf(mock);
        const entries = journal.entries(toFilter(query), 'query');
        return { status: 200, body: { capacity: journal.capacity, count: entries.length, entries } };
      },
      DELETE: () => ({ status: 200, body: { cleared: mock.clearJournal() } }),
    },
    '/state': {
      GET: () => ({ status: 200, body: mock.snapshot() }),
      PUT: async (request) => {
        const body = await readBody(SNAPSHOT_BODY, request.body, request.headers, { limit: STATE_BODY_LIMIT });
        // Checked once, by restore itself; its messages are rooted at `body` here.
        try {
          mock.restore(body as StoreSnapshot, 'body');
        } catch (error) {
          if (error instanceof SpecError) throw apiError('invalid_body', error.message);
          throw error;
        }
        return summary();
      },
    },
  };
  const allow = new Map(Object.entries(routes).map(([path, methods]) => [path, allowHeader(Object.keys(methods))]));

  return async function handleAdmin(request: MockRequest): Promise<Reply> {
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : request.url.slice(queryAt + 1));
    const relative = path.slice(ADMIN_PREFIX.length);
    const origin = request.headers.origin;
    let reply: Reply;
    try {
      const methods = routes[relative];
      if (!methods) throw apiError('not_found', `no admin endpoint at ${path}; there are POST ${ADMIN_PREFIX}/reset, GET and DELETE ${ADMIN_PREFIX}/journal, GET and PUT ${ADMIN_PREFIX}/state`);
      const allowed = allow.get(relative)!;
      if (request.method === 'OPTIONS') {
        const preflight = request.headers['access-control-request-method'];
        const headers = preflight ? mock.adminCors.preflightHeaders(origin, allowed, request.headers['access-control-request-headers']) : { Allow: allowed };
        return { status: 204, headers: { ...HEADERS, ...headers } };
      }
      const handler = methods[request.method] ?? (request.method === 'HEAD' ? methods.GET : undefined);
      if (!handler) throw apiError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed}`, { Allow: allowed });
      authenticate(request.headers.authorization);
      reply = await handler(request, query);
    } catch (error) {
      const failure = toApiError(error);
      if (failure.status >= 500) console.error('petstore-kit: admin internal error:', error);
      // A message may quote the path: a key put there is never echoed back.
      const body = failure.toBody();
      body.message = redactKeys(body.message, mock.apiKeys);
      reply = { status: failure.status, headers: failure.headers, body };
    }
    reply.headers = { ...HEADERS, ...reply.headers, ...mock.adminCors.responseHeaders(origin) };
    return reply;
  };
}

/** Query parameters as a journal filter; the journal itself rejects unknown names and bad values, naming them. */
function toFilter(query: URLSearchParams): JournalFilter {
  // No prototype: `__proto__` and `constructor` are names like any other here, and get refused as unknown filters.
  const filter: Record<string, string | number> = Object.create(null);
  for (const [name, value] of query) {
    if (Object.hasOwn(filter, name)) throw apiError('invalid_parameter', `query.${name} must be given once`);
    filter[name] = name === 'limit' ? (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN) : value;
  }
  return filter as JournalFilter;
}
