import type { Spec } from '../openapi/spec.js';
import type { JournalEntry, JournalFilter } from './state/journal.js';
import type { StoreSnapshot } from './store/collection-store.js';
import type { ResourceStore } from './store/resource-store.js';
import { stateJson } from './state/snapshot.js';
import type { Cors } from './base/cors.js';
import type { Observer } from './front-door/observers.js';
import type { Runtime } from './runtime.js';
import type { DocumentModel } from './document/document-model.js';
import { createDispatch, type Dispatch } from './dispatch.js';
import { resetStore, restoreStore } from './state/store-actions.js';
import type { ControlChanges, ControlState } from './front-door/live-control.js';

/** A mock without a transport: the front door, its runtime and the document model it serves now. */
export interface Mock {
  /** The long-lived parts: store, journal, state file, observers, keys. */
  readonly runtime: Runtime;
  /** The document model being served now; `reload()` swaps it. */
  readonly model: DocumentModel;
  /** The current document (`model.spec`). */
  readonly spec: Spec;
  readonly store: ResourceStore;
  readonly apiKeys: readonly string[];
  /** True when no key was configured and DEV_API_KEY is in use. */
  readonly usingDevKey: boolean;
  /** Told about every finished API request (request logs, journals); add and delete freely. */
  readonly observers: Set<Observer>;
  readonly cors: Cors;
  /** The one front door: every request (API, `/__admin`, `/docs`) → a finished reply. */
  dispatch: Dispatch;
  /** Back to the fixtures. */
  reset(): Promise<void>;
  /** The request journal, newest first (admin requests are not in it). */
  journal(filter?: JournalFilter): JournalEntry[];
  /** Empties the journal; returns how many entries it held. */
  clearJournal(): number;
  /**
   * Changes latency, fault rate, a default `Prefer` or a forced status while the mock runs (as `PUT /__admin/control`);
   * without changes, reads them. A bad change throws an ApiError naming the field and changes nothing.
   */
  control(changes?: ControlChanges): ControlState;
  /** Back to the start-up settings (as `DELETE /__admin/control`). */
  resetControl(): ControlState;
  /** The store's whole state in its JSON form (state/snapshot.ts): every pet and the next id, in v1. */
  snapshot(): Promise<StoreSnapshot>;
  /**
   * Replaces the store's state with a snapshot; a snapshot that breaks the Pet schema rejects with an
   * InputFileError, its message rooted at `where` (default `snapshot`), and changes nothing.
   */
  restore(snapshot: StoreSnapshot | Record<string, unknown>, where?: string): Promise<void>;
  /**
   * Reads the document and the fixtures again (from their files) and swaps in the new model; rejects, keeping the
   * model being served, when either is invalid. Resolves with what happened to the pets, in words.
   */
  reload(): Promise<string>;
  /** Writes pending state to the `state` file now (a no-op without one); call before the process exits. */
  flush(): Promise<void>;
  /** Writes pending state and releases the store. */
  close(): Promise<void>;
}

/**
 * The mock over a runtime and its first document model: the one front door and the handle. `reread` builds the next
 * model from the sources as they are now (the server's files); without it, `reload()` rejects. No file, no Node:
 * the server (create-mock.ts) and the browser build (compiled-mock.ts) both end here.
 */
export function mockOver(
  runtime: Runtime,
  first: DocumentModel,
  reread?: (current: DocumentModel) => Promise<{ model: DocumentModel; message: string }>,
): Mock {
  let model = first;
  const dispatch = createDispatch(runtime, () => model);
  // One reload at a time, in order: a change during a reload gets a reload of its own afterwards.
  let reloads: Promise<unknown> = Promise.resolve();
  return {
    runtime,
    get model() {
      return model;
    },
    get spec() {
      return model.spec;
    },
    store: runtime.store,
    apiKeys: runtime.apiKeys,
    usingDevKey: runtime.usingDevKey,
    observers: runtime.observers,
    cors: runtime.cors,
    dispatch,
    reset: () => resetStore(runtime),
    journal: (filter) => runtime.journal.entries(filter),
    clearJournal: () => runtime.journal.clear(),
    control: (changes) =>
      changes === undefined
        ? runtime.control.state()
        : runtime.control.set(changes, (preference) => model.checkPreference(preference)),
    resetControl: () => runtime.control.restore(),
    snapshot: async () => stateJson(await runtime.store.snapshot()) as unknown as StoreSnapshot,
    restore: (snapshot, where = 'snapshot') => restoreStore(runtime, model.spec, snapshot, where),
    reload: () => {
      if (!reread)
        return Promise.reject(new Error('this mock was built from values, not files: there is nothing to read again'));
      const next = reloads.then(async () => {
        const result = await reread(model);
        // The one assignment that swaps the document: the next request meets the new model.
        model = result.model;
        return result.message;
      });
      reloads = next.catch(() => undefined);
      return next;
    },
    flush: async () => runtime.stateFile?.flush(),
    close: async () => {
      await reloads;
      // Writes pending state and frees the state file's lock for the next mock.
      await runtime.stateFile?.close();
      await runtime.store.close();
    },
  };
}
