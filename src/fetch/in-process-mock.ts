import type { Mock } from '../mock/mock-core.js';
import type { MockOptions } from '../mock/mock-options.js';
import type { CompiledDocument } from '../mock/compiled-document.js';
import { fromFetchRequest, toFetchResponse } from '../mock/http/fetch-adapter.js';
import type { JournalEntry, JournalFilter } from '../mock/state/journal.js';
import type { StoreSnapshot } from '../mock/store/collection-store.js';
import type { ControlChanges, ControlState } from '../mock/front-door/live-control.js';

/** The server mock's default address: an app pointed at `petstore-kit mock` works unchanged in-process. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';

export interface InProcessOptions extends Omit<MockOptions, 'state' | 'store'> {
  /** Where the app sends its requests; it must end with the document's base path (`/v1`). Default DEFAULT_BASE_URL. */
  baseUrl?: string;
  /**
   * A `Prefer` every request without one of its own is served with (`code=404`, `example=empty`, `delay=300`):
   * a scenario for the whole test, with no change to the app's code. `control({ prefer })` on the handle changes it.
   */
  prefer?: string;
  /**
   * A document compiled ahead by `petstore-kit compile-web` (`import * as compiled from './petstore.compiled.js'`):
   * the mock serves it instead of the package's openapi.yaml, in a page and in Node alike. Not with `spec`.
   */
  compiled?: CompiledDocument;
}

/** What the admin API does over HTTP, as function calls; shared by `petstore-kit/fetch` and `petstore-kit/msw`. */
export interface PetstoreHandle {
  /** Resolves once the document and fixtures are loaded (every call waits for it anyway); rejects if they are invalid. */
  readonly ready: Promise<void>;
  /** Back to the fixtures (or the snapshot given as `fixtures`). */
  reset(): Promise<void>;
  /** Every pet and the next id. */
  snapshot(): Promise<StoreSnapshot>;
  /** Replaces the pets with a snapshot; one that breaks the Pet schema rejects and changes nothing. */
  restore(snapshot: StoreSnapshot): Promise<void>;
  /** The requests served, newest first (filter by method, path, status, operation). */
  journal(filter?: JournalFilter): Promise<JournalEntry[]>;
  /** Empties the journal; resolves with how many entries it held. */
  clearJournal(): Promise<number>;
  /** Changes (or with no argument reads) latency, fault rate, a default Prefer and a forced status: see Mock.control. */
  control(changes?: ControlChanges): Promise<ControlState>;
  /** Back to the settings the handlers were made with. */
  resetControl(): Promise<ControlState>;
  /** Releases the mock. */
  close(): Promise<void>;
}

/**
 * Makes the mock (an async function: a refused option rejects), over `compiled` when given: `createMock` or
 * `createCompiledMock` in Node, `createBrowserMock` in a browser.
 */
export type MockBuilder = (options: MockOptions, compiled: CompiledDocument | undefined) => Promise<Mock>;

/**
 * One mock behind a Web-platform front: the same runtime, pipeline, store and validators the server uses, built by
 * `build`, answering `Request`s for `baseUrl` (and its `/__admin`) with `Response`s.
 */
export class InProcessMock implements PetstoreHandle {
  readonly ready: Promise<void>;
  readonly base: URL;
  /** Where the document's base path is mounted under the base URL ('' for `http://host/v1`), once it is loaded. */
  #mountPath = '';
  readonly #mock: Promise<Mock>;

  constructor(options: InProcessOptions, build: MockBuilder) {
    const { baseUrl = DEFAULT_BASE_URL, prefer, compiled, ...mockOptions } = options;
    this.base = new URL(baseUrl.replace(/\/+$/, ''));
    // Quiet by default: a test runner's output is not the place for the mock's own 5xx reports.
    this.#mock = build({ onInternalError: () => undefined, ...mockOptions }, compiled).then((mock) => {
      const basePath = mock.spec.basePath;
      if (!this.base.pathname.endsWith(basePath)) {
        void mock.close();
        throw new TypeError(`baseUrl must end with the document's base path ${basePath} (got ${baseUrl})`);
      }
      this.#mountPath = this.base.pathname.slice(0, this.base.pathname.length - basePath.length);
      // The same default Prefer as `PUT /__admin/control` sets: one mechanism, on the server and here.
      if (prefer !== undefined) mock.control({ prefer });
      return mock;
    });
    this.ready = this.#mock.then(() => undefined);
    // Reported by whoever awaits `ready` or a request; not an unhandled rejection meanwhile.
    this.ready.catch(() => undefined);
  }

  /**
   * The mock's answer to `request`: a Response; null for a dropped connection (a simulated network fault, which
   * fetch reports as a network error); undefined when the URL is not this mock's (see #answers), so that the caller
   * lets it through.
   */
  async respond(request: Request): Promise<Response | null | undefined> {
    const mock = await this.#mock;
    const url = new URL(request.url);
    if (!this.#answers(url)) return undefined;
    const reply = await mock.dispatch(await fromFetchRequest(request, url, this.#mountPath));
    return toFetchResponse(reply) ?? null;
  }

  /**
   * What the server mock would answer if it listened at the base URL's origin, mounted where the base URL says:
   * every path under the mount (the API, `/__admin`, `/docs`, and its 404s that name the base path), nothing else
   * (an app's own pages and assets on the same origin are let through).
   */
  #answers(url: URL): boolean {
    if (url.origin !== this.base.origin) return false;
    const mount = this.#mountPath;
    return mount === '' || url.pathname === mount || url.pathname.startsWith(`${mount}/`);
  }

  async reset(): Promise<void> {
    await (await this.#mock).reset();
  }
  async snapshot(): Promise<StoreSnapshot> {
    return (await this.#mock).snapshot();
  }
  async restore(snapshot: StoreSnapshot): Promise<void> {
    await (await this.#mock).restore(snapshot);
  }
  async journal(filter?: JournalFilter): Promise<JournalEntry[]> {
    return (await this.#mock).journal(filter);
  }
  async clearJournal(): Promise<number> {
    return (await this.#mock).clearJournal();
  }
  async control(changes?: ControlChanges): Promise<ControlState> {
    return (await this.#mock).control(changes);
  }
  async resetControl(): Promise<ControlState> {
    return (await this.#mock).resetControl();
  }
  async close(): Promise<void> {
    await (await this.#mock.catch(() => undefined))?.close();
  }
}

/** The handle's functions bound to one mock, for an object that fronts it (the fetch function, the handler list). */
export function handleOf(mock: InProcessMock): PetstoreHandle {
  return {
    ready: mock.ready,
    reset: () => mock.reset(),
    snapshot: () => mock.snapshot(),
    restore: (snapshot) => mock.restore(snapshot),
    journal: (filter) => mock.journal(filter),
    clearJournal: () => mock.clearJournal(),
    control: (changes) => mock.control(changes),
    resetControl: () => mock.resetControl(),
    close: () => mock.close(),
  };
}
