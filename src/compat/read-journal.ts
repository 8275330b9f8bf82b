import { createReadStream } from 'node:fs';
import { InputFileError, UsageError } from '../input-errors.js';
import { JournalEntrySplitter, JournalShapeError } from './journal-entries.js';
import type { RecordedRequest } from './finding.js';

/** What replaying needs of a journal entry (src/mock/state/journal.ts, JournalEntry): the request as recorded and its status. */
export interface RecordedExchange extends RecordedRequest {
  operationId: string | null;
  requestHeaders: Record<string, string | string[]>;
}

/** The longest entry read: the journal keeps bodies up to 4 KiB, so an entry is a few KiB at most. */
export const MAX_JOURNAL_ENTRY = 1024 * 1024;

const HINT = 'save the JSON of GET /__admin/journal or of journal()';

/**
 * The exchanges of a saved journal, oldest first: the JSON of `GET /__admin/journal` (`{capacity, count, entries}`)
 * or of `journal()` in a test (the entries alone). Entries are checked for the fields replaying reads, and a file
 * that is not a journal is refused naming the entry and the field.
 * @example readJournal(await readFile('journal.json', 'utf8'), 'journal.json')
 */
export function readJournal(text: string, label: string): RecordedExchange[] {
  const exchanges: RecordedExchange[] = [];
  const reader = new JournalReader(label);
  for (const exchange of reader.push(text)) exchanges.push(exchange);
  reader.end();
  return exchanges.sort((a, b) => a.seq - b.seq);
}

/**
 * The exchanges of a saved journal file in the order written (the journal's own: oldest first), read as a stream:
 * memory stays bounded by one entry whatever the journal's length (300,000 requests are about 50 MB of JSON).
 * @example for await (const exchange of readJournalFile('journal.json')) replayer.add(exchange)
 */
export async function* readJournalFile(file: string): AsyncGenerator<RecordedExchange> {
  const reader = new JournalReader(file);
  let stream: AsyncIterable<string>;
  try {
    stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1024 * 1024 });
    for await (const text of stream) yield* reader.push(text);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new UsageError(
      `--journal ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  reader.end();
}

/** Entries' texts → checked exchanges, with the file's name in every refusal. */
class JournalReader {
  private readonly splitter = new JournalEntrySplitter(MAX_JOURNAL_ENTRY);

  constructor(private readonly label: string) {}

  *push(text: string): Generator<RecordedExchange> {
    let texts: string[];
    try {
      texts = this.splitter.push(text);
    } catch (error) {
      throw this.refusal(error);
    }
    const first = this.splitter.count - texts.length;
    for (const [offset, entry] of texts.entries()) yield this.exchange(entry, first + offset);
  }

  end(): void {
    const problem = this.splitter.problem();
    if (problem === undefined) return;
    if (problem === 'no "entries" array' || problem === 'empty') throw this.refusal(new JournalShapeError(problem));
    throw new InputFileError(`${this.label}: not JSON (${problem}); ${HINT}`);
  }

  private exchange(text: string, index: number): RecordedExchange {
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch (error) {
      throw new InputFileError(
        `${this.label}: not JSON (entries[${index}]: ${(error as Error).message.slice(0, 200)}); ${HINT}`,
      );
    }
    return exchangeOf(entry, `${this.label}: entries[${index}]`);
  }

  private refusal(error: unknown): Error {
    if (!(error instanceof JournalShapeError)) return error as Error;
    return new InputFileError(
      `${this.label}: not a journal: expected the JSON of GET /__admin/journal ({"entries": […]}) or an array of journal entries (${error.message})`,
    );
  }
}

function exchangeOf(entry: unknown, where: string): RecordedExchange {
  if (typeof entry !== 'object' || entry === null) throw new InputFileError(`${where} must be an object`);
  const {
    seq,
    method,
    path,
    query = {},
    status,
    operationId = null,
    requestHeaders = {},
    requestBody,
  } = entry as Record<string, unknown>;
  if (typeof seq !== 'number') throw new InputFileError(`${where}.seq must be a number`);
  if (typeof method !== 'string') throw new InputFileError(`${where}.method must be a string`);
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new InputFileError(`${where}.path must be a path starting with /`);
  if (typeof status !== 'number') throw new InputFileError(`${where}.status must be a number`);
  if (operationId !== null && typeof operationId !== 'string')
    throw new InputFileError(`${where}.operationId must be a string or null`);
  if (typeof query !== 'object' || query === null) throw new InputFileError(`${where}.query must be an object`);
  if (typeof requestHeaders !== 'object' || requestHeaders === null)
    throw new InputFileError(`${where}.requestHeaders must be an object`);
  const exchange: RecordedExchange = {
    seq,
    method: method.toUpperCase(),
    path,
    query: query as RecordedExchange['query'],
    status,
    operationId,
    requestHeaders: requestHeaders as RecordedExchange['requestHeaders'],
  };
  if (requestBody !== undefined) exchange.body = requestBody;
  return exchange;
}
