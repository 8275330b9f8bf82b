import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec, type Spec } from '../openapi/load-spec.js';
import { B64TOKEN } from './authenticate.js';
import { SpecError } from '../openapi/errors.js';
import { defaultFixturesFile, defaultSpecFile } from '../paths.js';
import { checkFixtures, loadFixtures } from './load-fixtures.js';
import { PetStore, type Pet, type StoreSnapshot } from './store.js';
import { createCors, type Cors, type CorsOptions } from './cors.js';
import { createPipeline, type Exchange, type MockRequest, type Pipeline } from './pipeline.js';
import { petHandlers } from './handlers/pets.js';
import { createFallback } from './fallback.js';
import { createFaults, type FaultOptions } from './faults.js';
import { Journal, type JournalEntry, type JournalFilter } from './journal.js';
import { StateFile } from './state-file.js';
import { parseSnapshot } from './snapshot.js';
import { resolve } from 'node:path';
import { resolveStatePath } from './state-path.js';
import { acquireStateLock } from './state-lock.js';
import { adminCorsOptions } from './admin/admin-cors.js';

/** The key accepted when none is configured, so that `npx petstore-kit mock` works at once. Printed at start-up. */
export const DEV_API_KEY = 'petstore-dev-key';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface MockOptions extends FaultOptions {
  /** An OpenAPI 3 file or document; default: the package's openapi.yaml. */
  spec?: string | OpenAPIV3.Document;
  /** A JSON file of Pet records or the records themselves; default: the package's fixtures/pets.json. */
  fixtures?: string | Pet[];
  /** Accepted bearer keys; default: `PETSTORE_API_KEYS` (comma-separated), else the development key. */
  apiKeys?: string[];
  /** The largest request body accepted, in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** The most pets the store holds, fixtures included; a create beyond it gets 409 `store_full`. Default 250,000. */
  maxPets?: number;
  /** The most bytes of pets (their JSON text) the store holds; beyond it a create gets 409 `store_full`. Default: a quarter of V8's heap limit, at most 256 MiB. */
  maxStoreBytes?: number;
  /** CORS for browser apps; default: any origin. `false` turns it off. */
  cors?: CorsOptions | false;
  /** Told about the mock's own failures (5xx); default: printed to stderr. */
  onInternalError?: (error: unknown, request: MockRequest) => void;
  /** How many requests the journal keeps (oldest evicted first); default 1000, 0 turns the journal off. */
  journalSize?: number;
  /** A JSON file the store is loaded from at start (if it exists) and written to after every change. */
  state?: string;
}

/** A mock without a transport: the pipeline, its store and what it was built from. */
export interface Mock {
  spec: Spec;
  store: PetStore;
  apiKeys: readonly string[];
  /** True when no key was configured and DEV_API_KEY is in use. */
  usingDevKey: boolean;
  handle: Pipeline;
  /** Called with every finished request (request logs, journals); add and delete freely. */
  observers: Set<(exchange: Exchange) => void>;
  /** Back to the fixtures. */
  reset(): void;
  /** The request journal, newest first (admin requests are not in it). */
  journal(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal; returns how many entries it held. */
  clearJournal(): number;
  /** The store's whole state: every pet and the next id. */
  snapshot(): StoreSnapshot;
  /**
   * Replaces the store's state with a snapshot; a snapshot that breaks the Pet schema throws a SpecError, its message
   * rooted at `where` (default `snapshot`), and changes nothing.
   */
  restore(snapshot: StoreSnapshot, where?: string): void;
  /** Writes pending state to the `state` file now (a no-op without one); call before the process exits. */
  flush(): Promise<void>;
  /** The CORS policy of the API. */
  cors: Cors;
  /** The admin API's CORS policy: only origins named explicitly, never `*` (admin/admin-cors.ts). */
  adminCors: Cors;
}

/** What a hot reload hands from the running mock to its successor, so that none of it is lost. */
export interface MockParts {
  observers: Set<(exchange: Exchange) => void>;
  journal: Journal;
  stateFile: StateFile | undefined;
  /** Kept when the fixtures did not change and every pet still matches the new Pet schema. */
  store?: PetStore;
}

const parts = new WeakMap<Mock, MockParts & { store: PetStore; seed: Pet[] }>();

/** The parts of a mock a reload carries over, and the seed it was built from. */
export function partsOf(mock: Mock) {
  const found = parts.get(mock);
  if (!found) throw new TypeError('not a mock made by createMock');
  return found;
}

/**
 * Builds a mock from an OpenAPI document and fixtures: parses and compiles once, seeds the store, and returns the
 * request pipeline. Use `createMockApp` or `createMockServer` to put it on HTTP.
 * @example const mock = await createMock({ apiKeys: ['secret'] }); mock.store.size // 57
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const { spec, seed } = await loadMockInputs(options);
  const journal = new Journal(options.journalSize);
  const observers = new Set<(exchange: Exchange) => void>();
  // A journal of size 0 is off: no observer, so requests skip building an exchange at all.
  if (journal.capacity > 0) observers.add((exchange) => journal.record(exchange));
  let stateFile: StateFile | undefined;
  let store: PetStore | undefined;
  if (options.state !== undefined) {
    // A symbolic link is followed: the state goes to the real file, and the lock and temporary file beside it.
    const statePath = await resolveStatePath(options.state);
    if (typeof options.fixtures === 'string' && statePath === (await resolveStatePath(options.fixtures).catch(() => resolve(options.fixtures as string)))) {
      throw new SpecError(`${options.state}: the state file must not be the fixtures file, which is never modified`);
    }
    // One mock per state file: a second one stops here, naming the holder (state-lock.ts).
    const lock = await acquireStateLock(statePath);
    let file: StateFile;
    try {
      const saved = await StateFile.load(statePath, spec);
      store = new PetStore(seed, { maxPets: options.maxPets, maxBytes: options.maxStoreBytes });
      if (saved) store.restore(saved);
      file = new StateFile(statePath, () => store!.snapshot(), { lock });
      // The first write happens now, so an unwritable place is a start-up error, not a surprise later.
      await file.flush().catch((error: NodeJS.ErrnoException) => {
        throw new SpecError(`${options.state}: cannot be written (${error.code ?? error.message})`);
      });
    } catch (error) {
      await lock.release();
      throw error;
    }
    // RFC 9110 §9.2.1: only unsafe methods change state, and only when answered 2xx/3xx (a dropped connection is
    // status 0); the write itself is skipped when nothing changed.
    observers.add((exchange) => {
      const { status } = exchange.reply;
      if (!SAFE_METHODS.has(exchange.request.method) && status >= 200 && status < 400) file.schedule();
    });
    stateFile = file;
  }
  return assembleMock(options, spec, seed, { observers, journal, stateFile, store });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads and checks the document and the fixtures, the two inputs a hot reload reloads. */
export async function loadMockInputs(options: MockOptions): Promise<{ spec: Spec; seed: Pet[] }> {
  const spec = await loadSpec(options.spec ?? defaultSpecFile);
  const fixtures = options.fixtures ?? defaultFixturesFile;
  const seed = typeof fixtures === 'string' ? await loadFixtures(fixtures, spec) : checkFixtures(fixtures, 'fixtures', spec);
  return { spec, seed };
}

/** Builds a mock from checked inputs and the parts it shares with a predecessor (observers, journal, state file). */
export async function assembleMock(options: MockOptions, spec: Spec, seed: Pet[], shared: MockParts): Promise<Mock> {
  const { observers, journal, stateFile } = shared;
  const store = shared.store ?? new PetStore(seed, { maxPets: options.maxPets, maxBytes: options.maxStoreBytes });
  const configured = options.apiKeys ?? keysFromEnv();
  const apiKeys = configured.length > 0 ? configured : [DEV_API_KEY];
  checkKeys(apiKeys);
  const cors = createCors(options.cors ?? { origins: '*' });
  const adminCors = createCors(adminCorsOptions(options.cors ?? { origins: '*' }));
  const needsFallback = spec.operations.some((operation) => !petHandlers[operation.id]);
  const handle = createPipeline({
    spec,
    store,
    apiKeys,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    cors,
    handlers: petHandlers,
    fallback: needsFallback ? await createFallback(spec) : undefined,
    onInternalError: options.onInternalError ?? ((error) => console.error('petstore-kit: internal error:', error)),
    observers,
    faults: createFaults(options),
  });
  // From here on nothing awaits: the journal and the state file switch to this mock at once.
  journal.use(spec, apiKeys);
  stateFile?.track(() => store.snapshot());
  stateFile?.schedule();
  const changed = () => stateFile?.schedule();
  const mock: Mock = {
    spec,
    store,
    apiKeys,
    usingDevKey: configured.length === 0,
    handle,
    observers,
    cors,
    adminCors,
    reset: () => {
      store.reset();
      changed();
    },
    journal: (filter) => journal.entries(filter),
    clearJournal: () => journal.clear(),
    snapshot: () => store.snapshot(),
    restore: (snapshot, where = 'snapshot') => {
      store.restore(parseSnapshot(snapshot, spec, where));
      changed();
    },
    flush: async () => stateFile?.flush(),
  };
  parts.set(mock, { observers, journal, stateFile, store, seed });
  return mock;
}

/** A key no client can send (RFC 6750 §2.1 b64token) would fail every request: refuse it at start-up instead. */
function checkKeys(keys: readonly string[]): void {
  keys.forEach((key, index) => {
    if (!B64TOKEN.test(key)) {
      throw new SpecError(`API key ${index + 1} of ${keys.length} cannot be sent as a bearer token: use letters, digits and - . _ ~ + / (RFC 6750), optionally ending in =`);
    }
  });
}

function keysFromEnv(): string[] {
  return (process.env.PETSTORE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}
