import type { Spec } from '../../openapi/load-spec.js';
import type { RequestBody } from '../../openapi/operations.js';
import type { JournalFilter } from '../state/journal.js';
import type { Runtime } from '../runtime.js';
import type { Action, Call, Mount } from '../front-door/route-table.js';
import type { Reply } from '../base/reply.js';
import { ADMIN } from '../front-door/route-table.js';
import { apiError } from '../../errors.js';
import { InputFileError } from '../../input-errors.js';
import { readBody } from '../stages/read-body.js';
import type { Preference } from '../stages/negotiate-prefer.js';
import { resetStore, restoreStore, storeSummary } from '../state/store-actions.js';
import { stateJson } from '../state/snapshot.js';

/** The admin API's prefix: outside the document's base path (`/v1`), so it can never shadow an operation. */
export const ADMIN_PREFIX = '/__admin';

/** A snapshot may hold many more pets than a create's body limit allows for one. */
const STATE_BODY_LIMIT = 64 * 1024 * 1024;
const SNAPSHOT_BODY: RequestBody = { required: true, mediaTypes: ['application/json'], validate: undefined };
const CONTROL_BODY = SNAPSHOT_BODY;

/**
 * The admin API (WireMock's `/__admin` idea) as routes of the one route table: reset, the request journal and
 * state snapshots. Routing, OPTIONS, 405, HEAD, errors and the finishing step are the front door's, as for the API;
 * the same bearer keys are checked; its requests are not observed (not journaled, not logged). `/control` changes
 * latency, faults, a default Prefer and a forced status while the mock runs (live-control.ts).
 */
export function adminMount(runtime: Runtime, spec: Spec, checkPreference?: (preference: Preference) => void): Mount {
  const authenticated = (run: (call: Call) => Reply | Promise<Reply>): Action => ({
    run: (call) => {
      runtime.authenticate(call.request.headers.authorization);
      return run(call);
    },
  });
  const summary = async (): Promise<Reply> => ({ status: 200, body: await storeSummary(runtime) });
  const paths = new Map<string, Map<string, Action>>([
    ['/reset', new Map([['POST', authenticated(async () => (await resetStore(runtime), summary()))]])],
    [
      '/journal',
      new Map([
        [
          'GET',
          authenticated(({ search }) => {
            const entries = runtime.journal.entries(toFilter(new URLSearchParams(search)), 'query');
            return { status: 200, body: { capacity: runtime.journal.capacity, count: entries.length, entries } };
          }),
        ],
        ['DELETE', authenticated(() => ({ status: 200, body: { cleared: runtime.journal.clear() } }))],
      ]),
    ],
    [
      '/control',
      new Map([
        ['GET', authenticated(() => ({ status: 200, body: runtime.control.state() }))],
        [
          'PUT',
          authenticated(async ({ request }) => {
            const body = await readBody(CONTROL_BODY, request.body, request.headers, { limit: runtime.bodyLimit });
            return { status: 200, body: runtime.control.set(body, checkPreference) };
          }),
        ],
        ['DELETE', authenticated(() => ({ status: 200, body: runtime.control.restore() }))],
      ]),
    ],
    // The document's resource model as plain data (src/openapi/resource-model.ts): what each operation does.
    ['/resources', new Map([['GET', authenticated(() => ({ status: 200, body: spec.resources }))]])],
    [
      '/state',
      new Map([
        ['GET', authenticated(async () => ({ status: 200, body: stateJson(await runtime.store.snapshot()) }))],
        [
          'PUT',
          authenticated(async ({ request }) => {
            const body = await readBody(SNAPSHOT_BODY, request.body, request.headers, { limit: STATE_BODY_LIMIT });
            // Checked once, by restore itself; its messages are rooted at `body` here.
            try {
              await restoreStore(runtime, spec, body, 'body');
            } catch (error) {
              if (error instanceof InputFileError) throw apiError('invalid_body', error.message);
              throw error;
            }
            return summary();
          }),
        ],
      ]),
    ],
  ]);
  return {
    prefix: ADMIN_PREFIX,
    area: ADMIN,
    paths,
    missing: (_method, path) =>
      `no admin endpoint at ${path}; there are POST ${ADMIN_PREFIX}/reset, GET and DELETE ${ADMIN_PREFIX}/journal, GET and PUT ${ADMIN_PREFIX}/state, GET ${ADMIN_PREFIX}/resources, GET, PUT and DELETE ${ADMIN_PREFIX}/control`,
  };
}

/** Query parameters as a journal filter; the journal itself rejects unknown names and bad values, naming them. */
function toFilter(query: URLSearchParams): JournalFilter {
  // No prototype: `__proto__` and `constructor` are names like any other here, and get refused as unknown filters.
  const filter = Object.create(null) as Record<string, string | number>;
  for (const [name, value] of query) {
    if (Object.hasOwn(filter, name)) throw apiError('invalid_parameter', `query.${name} must be given once`);
    filter[name] = name === 'limit' ? (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN) : value;
  }
  return filter;
}
