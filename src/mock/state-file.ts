import { open, rename } from 'node:fs/promises';
import type { Spec } from '../openapi/load-spec.js';
import type { StoreSnapshot } from './store/pet-store.js';
import { readJsonFile } from './read-json-file.js';
import { parseSnapshot } from './snapshot.js';

export interface StateFileOptions {
  /** How long a burst of changes is gathered into one write, in ms; default 25. */
  coalesceMs?: number;
  /** Told about a failed write (the mock keeps running and retries on the next change); default: stderr. */
  onError?: (error: unknown) => void;
}

/**
 * Keeps the store in a JSON file across restarts (`--state FILE`). Each write goes to a temporary file in the same
 * directory, is fsynced, then renamed over the old one (POSIX rename is atomic), so a crash leaves the old state
 * or the new one, never a torn file. Changes are coalesced: a burst of creates costs one write, never one each, and
 * writes never block a request.
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
  #lastText: string | undefined;

  constructor(file: string, source: () => Promise<StoreSnapshot>, options: StateFileOptions = {}) {
    this.file = file;
    this.#source = source;
    this.#coalesceMs = options.coalesceMs ?? 25;
    this.#onError = options.onError ?? ((error) => console.error(`petstore-kit: cannot write the state file ${file}: ${(error as Error).message}`));
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
    const text = serialize(await this.#source());
    // Nothing changed since the last write (a GET, or a change undone): no write.
    if (text === this.#lastText) return;
    const temporary = `${this.file}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
    this.#lastText = text;
    this.writes += 1;
  }
}

/** One pet a line: small, readable and friendly to diffs. */
function serialize({ pets, nextId }: StoreSnapshot): string {
  const lines = pets.map((pet) => `    ${JSON.stringify(pet)}`).join(',\n');
  return `{\n  "nextId": ${nextId},\n  "pets": [${pets.length ? `\n${lines}\n  ` : ''}]\n}\n`;
}
