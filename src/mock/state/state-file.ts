import type { Spec } from '../../openapi/load-spec.js';
import type { CollectionSnapshot, Item } from '../store/collection-store.js';
import type { StoreState } from '../store/resource-store.js';
import { InputFileError } from '../../input-errors.js';
import { parseSnapshot, stateJson } from './snapshot.js';
import { toJsonText } from '../base/json-text.js';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';
import type { StateLock } from './state-lock.js';
import { constants, type promises as fsPromises } from 'node:fs';
import { copyFile, lstat, open, readFile, unlink } from 'node:fs/promises';
import { parseJson } from '../../json/parse-json.js';
import { writeAll } from '../../fs/write-all.js';
import { maxInt64 } from '../../json/int64.js';
import { stringifyJson } from '../../json/stringify-json.js';

type FileHandle = fsPromises.FileHandle;
type StoreSnapshot = StoreState;

/** The journal is folded into the state file once it is this large, or as large as the state file (amortised O(1)). */
const MIN_COMPACT_BYTES = 1024 * 1024;

export interface StateFileOptions {
  /** How long a burst of changes is gathered into one write, in ms; default 25. */
  coalesceMs?: number;
  /**
   * Told about a failed write (the mock keeps running and retries on the next change), once per run of failures
   * (a full disk fails every write until space is freed); default: stderr.
   */
  onError?: (error: unknown) => void;
  /** Told when a write succeeds again after failures; default: stderr. */
  onRecovered?: () => void;
  /** The lock held on the file (see state-lock.ts); released by `close()`. */
  lock?: StateLock;
}

/**
 * Keeps the store in a JSON file across restarts (`--state FILE`). Each write goes to a private temporary file in
 * the same directory, is fsynced, then renamed over the old one (see fs/write-file-atomic.ts), so a crash leaves the
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
  #onRecovered: () => void;
  /** A write failed and none has succeeded since: later failures are not reported again. */
  #failing = false;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;
  #last: StoreSnapshot | undefined;
  #lock: StateLock | undefined;
  #journal: FileHandle | undefined;
  #journalBytes = 0;
  #fileBytes = 0;
  /** Callers of commit() waiting for a write that includes their change. */
  #waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(file: string, source: () => Promise<StoreSnapshot>, options: StateFileOptions = {}) {
    this.file = file;
    this.#source = source;
    this.#coalesceMs = options.coalesceMs ?? 25;
    this.#onError =
      options.onError ??
      ((error) =>
        console.error(
          `petstore-kit: cannot write the state file ${file}: ${(error as Error).message}; changes get 503 store_unavailable (not acknowledged) until it can be written again`,
        ));
    this.#onRecovered =
      options.onRecovered ?? (() => console.error(`petstore-kit: the state file ${file} is written again`));
    this.#lock = options.lock;
  }

  /** The journal of creates beside the file. */
  get journalFile(): string {
    return journalOf(this.file);
  }

  /** Writes what is pending into the file itself, removes the journal, then releases the lock (at shutdown). */
  async close(): Promise<void> {
    try {
      await this.flush().catch((error: NodeJS.ErrnoException) => {
        // Nothing was replaced and the journal is kept: say so, and where the pets are.
        throw Object.assign(
          new Error(
            `cannot write the state file ${this.file} at shutdown (${error.code ?? error.message}); it and its journal ${this.journalFile} are kept as they were, every acknowledged change in them: free space and start the mock again`,
          ),
          { code: error.code },
        );
      });
      await this.#journal?.close();
      this.#journal = undefined;
      await unlink(this.journalFile).catch(() => undefined);
    } finally {
      await this.#lock?.release();
    }
  }

  /**
   * Reads a state file and replays its journal; undefined when there is none yet. A torn last journal line (a crash
   * mid-append, never acknowledged) is dropped. Anything else wrong, in the file or a whole journal line, is a
   * one-line InputFileError naming the file, the line and what is wrong, with the file left as it is and a copy put
   * aside; a symbolic link at the journal's name is refused as such.
   */
  static async load(file: string, spec: Spec): Promise<StoreSnapshot | undefined> {
    const saved = await readStateFile(file, spec);
    if (saved === undefined) return undefined;
    const groups = await readJournal(journalOf(file), spec);
    if (groups.length === 0) return saved;
    const state: StoreState = {};
    for (const [name, part] of Object.entries(saved)) state[name] = copyOf(part);
    for (const group of groups) {
      for (const [name, added] of Object.entries(group)) {
        const into = (state[name] ??= { items: [], nextId: 1, ...(added.parents ? { parents: [] } : {}) });
        const ids = new Set(into.items.map((item) => idKey(item, spec, name)));
        added.items.forEach((item, index) => {
          // An item already in the file was written there before the journal was emptied (a crash in between).
          const key = idKey(item, spec, name);
          if (ids.has(key)) return;
          ids.add(key);
          into.items.push(item);
          if (added.parents) (into.parents ??= []).push(added.parents[index]!);
        });
        into.nextId = maxInt64(into.nextId, added.nextId);
      }
    }
    return parseSnapshot(stateJson(state), spec, `${journalOf(file)}: state`);
  }

  /** Notes a change; the write follows within `coalesceMs`, together with every other change made meanwhile. */
  schedule(): void {
    this.#dirty = true;
    if (this.#timer || this.#draining) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // A flush may have started draining meanwhile; its loop picks up this change.
      if (!this.#draining) void this.#startDrain(false);
    }, this.#coalesceMs);
    this.#timer.unref();
  }

  /**
   * Resolves once every change made before the call is on disk; rejects when that write fails (the change must not
   * be acknowledged). Starts a write at once when none is under way; otherwise joins the next one.
   */
  commit(): Promise<void> {
    this.#dirty = true;
    const done = new Promise<void>((resolve, reject) => this.#waiting.push({ resolve, reject }));
    if (!this.#draining) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void this.#startDrain(false);
    }
    return done;
  }

  /** Writes now whatever is not written yet into the file itself (at shutdown). Rejects when the write fails. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // One writer at a time (they share one temporary file): wait out a drain under way, then drain here, into the
    // file itself (the drain under way may have appended to the journal instead).
    while (this.#draining) await this.#draining;
    this.#dirty = true;
    await this.#startDrain(true, true);
  }

  /** Starts the one drain, and marks it as running until it settles. */
  #startDrain(rethrow: boolean, whole = false): Promise<void> {
    const run: Promise<void> = this.#drain(rethrow, whole).finally(() => {
      if (this.#draining === run) this.#draining = undefined;
    });
    this.#draining = run;
    return run;
  }

  /** Writes until nothing is left to write; `rethrow` makes a failed write reject instead of being reported. */
  async #drain(rethrow: boolean, whole: boolean): Promise<void> {
    while (this.#dirty) {
      this.#dirty = false;
      // Taken before the snapshot: the write below holds every change these callers made.
      const waiting = this.#waiting.splice(0);
      try {
        await this.#write(whole);
        if (this.#failing) {
          this.#failing = false;
          this.#onRecovered();
        }
        for (const waiter of waiting) waiter.resolve();
      } catch (error) {
        for (const waiter of waiting) waiter.reject(error);
        if (rethrow) throw error;
        if (!this.#failing) this.#onError(error);
        this.#failing = true;
      }
    }
  }

  async #write(whole: boolean): Promise<void> {
    const snapshot = await this.#source();
    const last = this.#last;
    // Nothing changed since the last write (a reset of a reset store, a change undone): no write.
    if (last && sameState(last, snapshot) && !(whole && this.#journalBytes > 0)) return;
    const added = !whole && last ? addedSince(last, snapshot) : undefined;
    if (
      added &&
      Number.isFinite(this.#journalBytes) &&
      this.#journalBytes < Math.max(MIN_COMPACT_BYTES, this.#fileBytes)
    ) {
      // The added items in the state's own JSON form: one collection, `{"pets":[…],"nextId":N}` as ever.
      const line = `${journalLine(added)}\n`;
      this.#journal ??= await open(
        this.journalFile,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        await writeAll(this.#journal, line);
        await this.#journal.datasync();
      } catch (error) {
        // A line cut short (disk full) would end every later replay there: cut the journal back exactly to its whole
        // lines, or, failing that, have the next write rewrite the file whole (which empties the journal).
        await truncateTo(this.#journal, this.#journalBytes).catch(() => (this.#journalBytes = Infinity));
        throw error;
      }
      this.#journalBytes += Buffer.byteLength(line);
    } else {
      const size = { bytes: 0 };
      await writeFileAtomic(this.file, counted(stateText(snapshot), size), 0o600);
      this.#fileBytes = size.bytes;
      // Everything is in the file now: the journal starts again (a crash before this line only repeats pets).
      // (The first time also empties a journal an earlier run left, whose pets the store was restored with.)
      if (this.#journalBytes > 0 || !this.#journal) {
        const journal = this.#journal ?? (await openExisting(this.journalFile));
        if (journal) {
          this.#journal = journal;
          await journal.truncate(0);
          await journal.datasync();
        }
        this.#journalBytes = 0;
      }
    }
    this.#last = snapshot;
    this.writes += 1;
  }
}

/** Cuts the journal back to `bytes` (its whole lines) and checks that it did: a file left longer would be appended behind a torn line. */
async function truncateTo(journal: FileHandle, bytes: number): Promise<void> {
  await journal.truncate(bytes);
  const { size } = await journal.stat();
  if (size !== bytes) throw new Error(`the journal is ${size} bytes after truncating it to ${bytes}`);
}

/** The journal opened for appending if it exists (never through a symbolic link), else undefined. */
async function openExisting(file: string): Promise<FileHandle | undefined> {
  try {
    return await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function journalOf(file: string): string {
  return `${file}.journal`;
}

/**
 * What `now` holds after what `before` held, collection by collection, when only items were added (creates);
 * undefined for any other change (a replace, a delete, a reset), which rewrites the file whole.
 */
function addedSince(before: StoreSnapshot, now: StoreSnapshot): StoreSnapshot | undefined {
  const added: StoreSnapshot = {};
  for (const name of Object.keys(before)) if (!(name in now)) return undefined;
  for (const [name, part] of Object.entries(now)) {
    const earlier = before[name] ?? { items: [], nextId: 1 };
    const n = earlier.items.length;
    if (part.items.length < n || part.nextId < earlier.nextId) return undefined;
    // Stored items are frozen and kept in order: the same objects in front mean only additions (O(n) pointer checks).
    for (let i = 0; i < n; i++) if (part.items[i] !== earlier.items[i]) return undefined;
    if (part.items.length === n && part.nextId === earlier.nextId && name in before) continue;
    added[name] = { items: part.items.slice(n), nextId: part.nextId };
    if (part.parents) added[name].parents = part.parents.slice(n);
  }
  return added;
}

/** A journal line: the added items in a state's JSON form (one collection: `{"nextId":N,"pets":[…]}` as ever). */
function journalLine(added: StoreSnapshot): string {
  const parts = Object.entries(added);
  if (parts.length === 1 && !parts[0]![1].parents) {
    const [name, part] = parts[0]!;
    return `{"nextId":${part.nextId},${JSON.stringify(name)}:[${part.items.map(toJsonText).join(',')}]}`;
  }
  const pieces = parts.map(
    ([name, part]) =>
      `${JSON.stringify(name)}:{"nextId":${part.nextId},"items":[${part.items.map(toJsonText).join(',')}]${part.parents ? `,"parents":${stringifyJson(part.parents)}` : ''}}`,
  );
  return `{"collections":{${pieces.join(',')}}}`;
}

function copyOf(part: CollectionSnapshot): CollectionSnapshot {
  return { items: [...part.items], nextId: part.nextId, ...(part.parents ? { parents: [...part.parents] } : {}) };
}

function idKey(item: Item, spec: Spec, name: string): string {
  const property = spec.resources.collections.find((c) => c.name === name)?.id.property ?? 'id';
  return String(item[property]);
}

/** The state file, checked; undefined when there is none yet. Damage stops the start (see `damaged`). */
async function readStateFile(file: string, spec: Spec): Promise<StoreSnapshot | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    const message = (error as Error).message;
    throw await damaged(file, `line ${lineAt(text, message)}: is not valid JSON (${message})`);
  }
  // Valid JSON that breaks the schema was written by hand, not torn: the error names the file, record and field,
  // and nothing is written before the start stops.
  return parseSnapshot(value, spec, `${file}: state`);
}

/**
 * The journal's whole lines, parsed and checked. The piece after the last newline is an append a crash cut short:
 * it was never acknowledged, and is dropped. A whole line that is not a journal line is damage (a disk error, an
 * edit, a bug): replaying around it could lose acknowledged pets or hand their ids out again, so it stops the start.
 */
async function readJournal(file: string, spec: Spec): Promise<StoreSnapshot[]> {
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined) return [];
  // Appends never follow a link (O_NOFOLLOW); say so here rather than fail later as a write error of the state file.
  if (info.isSymbolicLink())
    throw new InputFileError(
      `${file}: is a symbolic link; the journal must be a regular file beside the state file (remove the link to start)`,
    );
  if (!info.isFile())
    throw new InputFileError(
      `${file}: is not a regular file; the journal must be a regular file beside the state file`,
    );
  const text = (await readText(file)) ?? '';
  const groups: StoreSnapshot[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const wrong = (what: string) => damaged(file, `line ${i + 1}: ${what}`);
    let group: unknown;
    try {
      group = parseJson(lines[i]!);
    } catch (error) {
      throw await wrong(`is not valid JSON (${(error as Error).message})`);
    }
    try {
      groups.push(parseSnapshot(group, spec, 'line'));
    } catch (error) {
      if (!(error instanceof InputFileError)) throw error;
      throw await wrong(error.message.replace(/^line\.?/, '').replace(/^\s*/, ''));
    }
  }
  return groups;
}

/** A file's text, or undefined when it does not exist; any other failure names the file. */
async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new InputFileError(`${file}: cannot be read (${code ?? String(error)})`);
  }
}

/** The line a parser's `at position N` points into (the last line when it names none: the text ended early). */
function lineAt(text: string, message: string): number {
  const match = /position (\d+)/.exec(message);
  const end = match ? Number(match[1]) : text.length;
  let line = 1;
  for (let i = 0; i < end && i < text.length; i++) if (text.charCodeAt(i) === 0x0a) line += 1;
  return line;
}

/**
 * The one-line error for a damaged state file or journal. Nothing is truncated or rewritten (the start stops
 * before the first write), and a copy is put aside first, so the evidence survives whatever the operator does next.
 */
async function damaged(file: string, what: string): Promise<InputFileError> {
  const copy = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const kept = await copyFile(file, copy, constants.COPYFILE_EXCL).then(
    () => `a copy is at ${copy}`,
    (error: NodeJS.ErrnoException) => `no copy could be made: ${error.code ?? error.message}`,
  );
  return new InputFileError(
    `${file}: ${what}; the mock did not start and left the file as it is (${kept}); repair or move it away, then start again`,
  );
}

function* counted(pieces: Iterable<string>, size: { bytes: number }): Generator<string> {
  for (const piece of pieces) {
    size.bytes += piece.length;
    yield piece;
  }
}

/**
 * The state file's text, piece by piece: one pet a line (small, readable and friendly to diffs), each pet's text
 * from the one pet serialiser (json-text.ts), so an int64 `categoryId` keeps its digits.
 */
export function* stateText(state: StoreSnapshot): Generator<string> {
  const names = Object.keys(state);
  if (names.length === 1 && !state[names[0]!]!.parents) {
    const [name] = names as [string];
    const { items, nextId } = state[name]!;
    yield `{\n  "nextId": ${nextId},\n  ${JSON.stringify(name)}: [`;
    for (let i = 0; i < items.length; i++) yield `${i === 0 ? '' : ','}\n    ${toJsonText(items[i])}`;
    yield `${items.length ? '\n  ' : ''}]\n}\n`;
    return;
  }
  yield '{\n  "collections": {';
  for (let n = 0; n < names.length; n++) {
    const { items, nextId, parents } = state[names[n]!]!;
    yield `${n === 0 ? '' : ','}\n    ${JSON.stringify(names[n])}: {\n      "nextId": ${nextId},`;
    if (parents) yield `\n      "parents": ${stringifyJson(parents)},`;
    yield '\n      "items": [';
    for (let i = 0; i < items.length; i++) yield `${i === 0 ? '' : ','}\n        ${toJsonText(items[i])}`;
    yield `${items.length ? '\n      ' : ''}]\n    }`;
  }
  yield `${names.length ? '\n  ' : ''}}\n}\n`;
}

/** Same ids, same items: stored items are frozen, so the same objects (or the same texts) mean the same state. */
function sameState(a: StoreSnapshot, b: StoreSnapshot): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  for (const name of names) {
    const [x, y] = [a[name]!, b[name]];
    if (!y || x.nextId !== y.nextId || x.items.length !== y.items.length) return false;
    for (let i = 0; i < x.items.length; i++) {
      const [p, q] = [x.items[i], y.items[i]];
      if (p !== q && toJsonText(p) !== toJsonText(q)) return false;
    }
    if (stringifyJson(x.parents ?? null) !== stringifyJson(y.parents ?? null)) return false;
  }
  return true;
}
