import { InputFileError } from '../input-errors.js';
import type { RecordedRequest } from './finding.js';

/** What replaying needs of a journal entry (src/mock/state/journal.ts, JournalEntry): the request as recorded and its status. */
export interface RecordedExchange extends RecordedRequest {
  operationId: string | null;
  requestHeaders: Record<string, string | string[]>;
}

/**
 * The exchanges of a saved journal, oldest first: the JSON of `GET /__admin/journal` (`{capacity, count, entries}`)
 * or of `journal()` in a test (the entries alone). Entries are checked for the fields replaying reads, and a file
 * that is not a journal is refused naming the entry and the field.
 * @example readJournal(await readFile('journal.json', 'utf8'), 'journal.json')
 */
export function readJournal(text: string, label: string): RecordedExchange[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputFileError(
      `${label}: not JSON (${(error as Error).message}); save the JSON of GET /__admin/journal or of journal()`,
    );
  }
  const entries = Array.isArray(parsed) ? parsed : (parsed as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries))
    throw new InputFileError(
      `${label}: not a journal: expected the JSON of GET /__admin/journal ({"entries": […]}) or an array of journal entries`,
    );
  return entries.map((entry, index) => exchangeOf(entry, `${label}: entries[${index}]`)).sort((a, b) => a.seq - b.seq);
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
