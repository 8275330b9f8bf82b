import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COMMA,
  NEWLINE,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  RETURN,
  SPACE,
  TAB,
} from '../json/json-bytes.js';

/**
 * Splits the JSON text of a saved journal into the JSON texts of its entries as the text arrives, so that a journal
 * of any length is read in bounded memory: the whole file is never one string nor one parsed value. It reads
 * `{"capacity": …, "entries": [ {…}, {…} ]}` (GET /__admin/journal) and a bare array of entries (journal()); any
 * other member is skipped as it streams by. Strings are followed with their escapes, so a `]` or `"` inside a
 * recorded body does not end anything.
 */
export class JournalEntrySplitter {
  /** Where the entries are: unknown until the first character, then at depth 1 (a bare array) or 2 (`entries`). */
  private entriesDepth: number | undefined;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The last key read at depth 1 of the top object, and the text of the string being read when it may be one. */
  private key = '';
  private keyText: string[] | undefined;
  private inEntries = false;
  private sawEntries = false;
  private entry: string[] = [];
  private entryLength = 0;
  private capturing = false;
  /** Entries split so far. */
  count = 0;

  constructor(private readonly maxEntryBytes: number) {}

  /** Feeds the next piece of text; returns the entries it completed, each the JSON text of one entry. */
  push(text: string): string[] {
    const done: string[] = [];
    let start = this.capturing ? 0 : -1;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        this.readStringChar(c, text, i);
        continue;
      }
      if (c === SPACE || c === NEWLINE || c === TAB || c === RETURN) continue;
      if (this.entriesDepth === undefined) this.start(c);
      if (this.inEntries && this.depth === this.entriesDepth && !this.capturing && c !== COMMA && c !== CLOSE_ARRAY) {
        this.capturing = true;
        start = i;
      }
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.entriesDepth === 2 && !this.inEntries) this.keyText = [];
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.open(c);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.depth -= 1;
        if (this.inEntries && this.depth < this.entriesDepth!) this.inEntries = false;
      }
      // An entry ends where its value closes (an object or array) or at the comma or bracket after a scalar.
      if (
        this.capturing &&
        this.depth === this.entriesDepth &&
        (c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === COMMA)
      ) {
        const end = c === COMMA || (c === CLOSE_ARRAY && !this.inEntries) ? i : i + 1;
        done.push(this.finishEntry(text.slice(start, end)));
      } else if (this.capturing && !this.inEntries) {
        done.push(this.finishEntry(text.slice(start, i)));
      }
    }
    if (this.capturing) this.keep(text.slice(Math.max(start, 0)));
    return done;
  }

  /** Called at the end of the text: why it is not a whole journal, or undefined. */
  problem(): string | undefined {
    if (this.entriesDepth === undefined) return 'empty';
    if (this.depth !== 0 || this.inString) return `it ends early, after ${this.count} whole entries`;
    if (!this.sawEntries) return 'no "entries" array';
    return undefined;
  }

  private start(c: number): void {
    if (c === OPEN_ARRAY) this.entriesDepth = 1;
    else if (c === OPEN_OBJECT) this.entriesDepth = 2;
    else throw new JournalShapeError('not a journal');
  }

  private open(c: number): void {
    this.depth += 1;
    // The array of entries: the top array itself, or the value of "entries" in the top object.
    if (c === OPEN_ARRAY && this.depth === this.entriesDepth && (this.entriesDepth === 1 || this.key === 'entries')) {
      if (this.sawEntries) throw new JournalShapeError('two "entries" arrays');
      this.inEntries = true;
      this.sawEntries = true;
    }
  }

  private readStringChar(c: number, text: string, i: number): void {
    if (this.escaped) this.escaped = false;
    else if (c === BACKSLASH) this.escaped = true;
    else if (c === QUOTE) {
      this.inString = false;
      if (this.keyText) {
        this.key = this.keyText.join('');
        this.keyText = undefined;
      }
      return;
    }
    // Keys at depth 1 are short; a long string there is a value, and stops being collected.
    if (this.keyText && this.keyText.length < 16) this.keyText.push(text[i]!);
  }

  private keep(piece: string): void {
    this.entryLength += piece.length;
    if (this.entryLength > this.maxEntryBytes)
      throw new JournalShapeError(`entries[${this.count}] is longer than ${this.maxEntryBytes / 1024} KiB`);
    this.entry.push(piece);
  }

  private finishEntry(last: string): string {
    this.keep(last);
    // A scalar entry ends at the comma after it: the blanks before that are not part of it.
    const text = this.entry.join('').trimEnd();
    this.entry = [];
    this.entryLength = 0;
    this.capturing = false;
    this.count += 1;
    return text;
  }
}

/** The journal's text has the wrong shape: the message says how, without the file's name. */
export class JournalShapeError extends Error {}
