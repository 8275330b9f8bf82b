import type { ResourceStore } from './store/resource-store.js';
import type { MockRequest } from './mock-request.js';
import type { Observer } from './front-door/observers.js';
import type { StoreChoice } from './store/open-store.js';
import { Journal } from './state/journal.js';
import type { StateFile } from './state/state-file.js';
import { B64TOKEN, createAuthenticator } from './stages/authenticate.js';
import { redactKeys } from '../log/redact-url.js';
import { adminCorsOptions } from './admin/admin-cors.js';
import { createCors, type Cors, type CorsOptions } from './base/cors.js';
import { createFaults, type FaultOptions, type Faults } from './base/faults.js';
import { LiveControl } from './front-door/live-control.js';
import { UsageError } from '../input-errors.js';
import { oneLine } from '../openapi/spec.js';
import { redactUrl } from '../log/redact-url.js';
import { requestSecrets } from '../redact/request-secrets.js';

/** The key accepted when none is configured, so that `npx petstore-kit mock` works at once. Printed at start-up. */
export const DEV_API_KEY = 'petstore-dev-key';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface RuntimeOptions extends FaultOptions, StoreChoice {
  /**
   * Accepted keys, the credentials of every security scheme of the document (a bearer or other token, an apiKey's
   * value, a Basic password with any user name); one written `user:password` is a Basic credential for that user
   * only. Default: `PETSTORE_API_KEYS` (comma-separated), else the development key.
   */
  apiKeys?: string[];
  /** The largest request body accepted, in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** The most pets the store holds, fixtures included; a create beyond it gets 409 `store_full`. Default 250,000. */
  maxPets?: number;
  /** CORS for browser apps; default: any origin. `false` turns it off. */
  cors?: CorsOptions | false;
  /** Told about the mock's own failures (5xx); default: printed to stderr. */
  onInternalError?: (error: unknown, request: MockRequest | undefined) => void;
  /** How many requests the journal keeps (oldest evicted first); default 1000, 0 turns the journal off. */
  journalSize?: number;
  /** A JSON file the store is loaded from at start (if it exists) and written to after every change. */
  state?: string;
  /** The fixtures, when they come from a file: the state file must not be that file. */
  fixtures?: string | unknown[];
}

/**
 * The long-lived parts of a mock, made once and handed to whoever needs them (the front door, the admin routes,
 * a reload). A reload replaces the document model, never these: the store, journal, observers and state file carry
 * over as they are.
 */
export interface Runtime {
  readonly store: ResourceStore;
  readonly journal: Journal;
  /** Undefined without `state`. */
  readonly stateFile: StateFile | undefined;
  /** Told about every finished API request (request logs, the journal, the state file); add and delete freely. */
  readonly observers: Set<Observer>;
  readonly apiKeys: readonly string[];
  /** True when no key was configured and DEV_API_KEY is in use. */
  readonly usingDevKey: boolean;
  /** The bearer-key check, built once for the keys: v1's scheme, and the admin API's. */
  readonly authenticate: (header: string | undefined) => void;
  /** Removes every key (also percent-encoded) from text that may quote a client's request, such as an error message. */
  readonly redactKeys: (text: string) => string;
  readonly cors: Cors;
  /** The admin API's CORS: only origins named explicitly, never `*` (admin/admin-cors.ts). */
  readonly adminCors: Cors;
  readonly faults: Faults;
  /** Latency, fault rate, a default Prefer and a forced status, changed while the mock runs (`/__admin/control`). */
  readonly control: LiveControl;
  readonly bodyLimit: number;
  readonly onInternalError: (error: unknown, request: MockRequest | undefined) => void;
  /** Notes that the store changed outside a request (reset, restore, reload): the state file writes it. */
  changed(): void;
}

/** The keys a mock accepts, checked once: the configured ones, or the development key when none is configured. */
export interface AcceptedKeys {
  readonly apiKeys: readonly string[];
  readonly usingDevKey: boolean;
}

/** Checks the configured keys (a UsageError names a key no client could send); none configured: the development key. */
export function acceptKeys(configured: readonly string[]): AcceptedKeys {
  if (configured.length === 0) return { apiKeys: [DEV_API_KEY], usingDevKey: true };
  checkKeys(configured);
  return { apiKeys: [...configured], usingDevKey: false };
}

/**
 * Puts a runtime together around keys already accepted and a store (and a state file) already open: no file, no
 * environment, no Node, so the browser build shares it. The server opens the store and the state file first
 * (open-runtime.ts).
 */
export function assembleRuntime(
  options: RuntimeOptions,
  parts: { keys: AcceptedKeys; store: ResourceStore; stateFile?: StateFile | undefined },
): Runtime {
  const { apiKeys, usingDevKey } = parts.keys;
  const journal = new Journal(options.journalSize, apiKeys);
  const observers = new Set<Observer>();
  // A journal of size 0 is off: no observer, so requests skip building what observers see at all.
  if (journal.capacity > 0) observers.add((served) => journal.record(served));
  const { store, stateFile } = parts;
  // Changes made by requests are committed before they are answered (dispatch.ts); others call changed().
  const faults = createFaults(options);
  return {
    store,
    journal,
    stateFile,
    observers,
    apiKeys,
    usingDevKey,
    authenticate: createAuthenticator(apiKeys),
    redactKeys: (text) => redactKeys(text, apiKeys),
    cors: createCors(options.cors ?? { origins: '*' }),
    adminCors: createCors(adminCorsOptions(options.cors ?? { origins: '*' })),
    faults,
    control: new LiveControl(faults),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    onInternalError:
      options.onInternalError ??
      ((error, request) =>
        console.error(`petstore-kit: internal error${describeRequest(request, apiKeys)}: ${describeFault(error)}`)),
    changed: () => stateFile?.schedule(),
  };
}

/**
 * RFC 7617 §2: `user-id ":" password`, the user id without a colon; here both visible ASCII and not empty, so that
 * the key is typed, and redacted, as written.
 */
const BASIC_KEY = /^[\x21-\x39\x3b-\x7e]+:[\x21-\x7e]+$/;

/**
 * A key no client can send (RFC 6750 §2.1 b64token, or RFC 7617's `user:password`) would fail every request:
 * refuse it at start-up instead.
 */
function checkKeys(keys: readonly string[]): void {
  keys.forEach((key, index) => {
    if (!B64TOKEN.test(key) && !BASIC_KEY.test(key)) {
      throw new UsageError(
        `API key ${index + 1} of ${keys.length} cannot be sent as a bearer token: use letters, digits and - . _ ~ + / (RFC 6750), optionally ending in =; or user:password, a Basic credential (RFC 7617)`,
      );
    }
  });
}

/**
 * A fault in one line: its name, message and the place it was thrown, never the whole stack (a request's fault is
 * printed once per request; a stack trace a request long would bury the log).
 */
function describeFault(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error));
  // The first frame outside the error factory (src/errors.ts): where the fault was raised, not where it was made.
  const at = [...(error.stack ?? '').matchAll(/\n\s+at (.+)/g)]
    .map((m) => m[1]!)
    .find((f) => !/[/\\]errors\.[jt]s:/.test(f));
  return `${error.name}: ${oneLine(error.message)}${at ? ` (at ${at})` : ''}`;
}

/** ` on POST /v1/pets?api_key=***`: which request failed, for the operator, with every key redacted as in the log. */
function describeRequest(request: MockRequest | undefined, keys: readonly string[]): string {
  return request
    ? ` on ${request.method} ${redactUrl(request.mountPath + request.url, requestSecrets(keys, request.headers.authorization))}`
    : '';
}
