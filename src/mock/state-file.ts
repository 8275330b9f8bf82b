import type { Spec } from '../openapi/load-spec.js';
import type { Pet, StoreSnapshot } from './store/pet-store.js';
import { readJsonFile } from './read-json-file.js';
import { parseSnapshot } from './snapshot.js';
import { toJsonText } from './json-text.js';
import { writeFileAtomically } from './write-atomically.js';
import type { StateLock } from './state-lock.js';

export interface StateFileOptions {
  /** How long a burst of changes is gathered into one write, in ms; default 25. */
  coalesceMs?: number;
  /** Told about a failed write (the mock keeps running and retries on the next change); default: stderr. */
  onError?: (error: unknown) => void;
  /** The lock held on the file (see state-lock.ts); released by `close()`. */
  lock?: StateLock;
}

/**
 * Keeps the store in a JSON file across restarts (`--state FILE`). Each write goes to a private temporary file in
 * the same directory, is fsynced, then renamed over the old one (see write-atomically.ts), so a crash leaves the
 * old state or the new one, never a torn file. The text is streamed pet by pet, never built as one string, so the
 * file has no size ceiling of its own. Changes are coalesced: a burst of creates costs one write, never one each,
 * and writes never block a request.
 */
export class StateFile {
  readonly file: string;
  /** How many times the file was written; for tests and diagnostics. */
  writes = 0;
  #source: () => Promise<StoreSnapshot>;
  #coalesceMs: number;
  #onError: (error: unknown) => void;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;
  #last: StoreSnapshot | undefined;
  #lock: StateLock | undefined;

  constructor(file: string, source: () => Promise<StoreSnapshot>, options: StateFileOptions = {}) {
    this.file = file;
    this.#source = source;
    this.#coalesceMs = options.coalesceMs ?? 25;
    this.#onError = options.onError ?? ((error) => console.error(`petstore-kit: cannot write the state file ${file}: ${(error as Error).message}`));
    this.#lock = options.lock;
  }

  /** Writes what is pending, then releases the lock on the file (at shutdown). */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.#lock?.release();
    }
  }

  /** Reads a state file; undefined when there is none yet. A bad file is an InputFileError naming the file and the field. */
  static async load(file: string, spec: Spec): Promise<StoreSnapshot | undefined> {
    const value = await readJsonFile(file, { missingOk: true });
    if (value === undefined) return undefined;
    return parseSnapshot(value, spec, `${file}: state`);
  }

  /** Notes a change; the write follows within `coalesceMs`, together with every other change made meanwhile. */
  schedule(): void {
    this.#dirty = true;
    if (this.#timer || this.#draining) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // A flush may have started draining meanwhile; its loop picks up this change.
      if (!this.#draining) this.#startDrain(false);
    }, this.#coalesceMs);
    this.#timer.unref();
  }

  /** Writes now whatever is not written yet (at shutdown). Rejects when the write fails. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dirty = true;
    // One writer at a time (they share one temporary file): wait out a drain under way, then drain here.
    while (this.#draining) await this.#draining;
    await this.#startDrain(true);
  }

  /** Starts the one drain, and marks it as running until it settles. */
  #startDrain(rethrow: boolean): Promise<void> {
    const run: Promise<void> = this.#drain(rethrow).finally(() => {
      if (this.#draining === run) this.#draining = undefined;
    });
    this.#draining = run;
    return run;
  }

  /** Writes until nothing is left to write; `rethrow` makes a failed write reject instead of being reported. */
  async #drain(rethrow: boolean): Promise<void> {
    while (this.#dirty) {
      this.#dirty = false;
      try {
        await this.#write();
      } catch (error) {
        if (rethrow) throw error;
        this.#onError(error);
      }
    }
  }

  async #write(): Promise<void> {
    const snapshot = await this.#source();
    // Nothing changed since the last write (a reset of a reset store, a change undone): no write.
    if (this.#last && sameState(this.#last, snapshot)) return;
    await writeFileAtomically(this.file, stateText(snapshot));
    this.#last = snapshot;
    this.writes += 1;
  }
}

/**
 * The state file's text, piece by piece: one pet a line (small, readable and friendly to diffs), each pet's text
 * from the one pet serialiser (json-text.ts), so an int64 `categoryId` keeps its digits.
 */
export function* stateText({ pets, nextId }: StoreSnapshot): Generator<string> {
  yield `{\n  "nextId": ${nextId},\n  "pets": [`;
  for (let i = 0; i < pets.length; i++) yield `${i === 0 ? '' : ','}\n    ${toJsonText(pets[i])}`;
  yield `${pets.length ? '\n  ' : ''}]\n}\n`;
}

/** Same ids, same pets: stored pets are frozen, so the same objects (or the same texts) mean the same state. */
function sameState(a: StoreSnapshot, b: StoreSnapshot): boolean {
  if (a.nextId !== b.nextId || a.pets.length !== b.pets.length) return false;
  for (let i = 0; i < a.pets.length; i++) {
    const [x, y] = [a.pets[i] as Pet, b.pets[i] as Pet];
    if (x !== y && toJsonText(x) !== toJsonText(y)) return false;
  }
  return true;
}
