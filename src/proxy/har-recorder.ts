import { open, type FileHandle } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { ServedRequest } from '../mock/front-door/observers.js';
import { redactHeader } from '../log/redact-header.js';
import { redactKeys, redactUrl } from '../log/redact-url.js';
import { utf8Text } from '../json/utf8.js';
import { packageVersion } from '../package-version.js';
import { writeAll } from '../fs/write-all.js';
import { requestSecrets } from '../redact/request-secrets.js';
import { credentialValues } from '../redact/credential-places.js';

/** Where the entries begin and how the file ends: the tail is rewritten after each entry, so the file stays valid HAR. */
const TAIL = '\n]}}\n';
/**
 * Text queued for the file at most (characters): an upstream answering megabytes faster than the disk takes them
 * would otherwise grow the queue without bound. Past it, exchanges are left out and counted.
 */
export const MAX_QUEUED = 64 * 1024 * 1024;

/**
 * `--record FILE`: every exchange as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), appended as it
 * finishes. Each entry is one line, written over the closing brackets together with new closing brackets, so the
 * file parses as HAR after every exchange; a crash in the middle of a write can cut the last line only, and
 * `readHarEntries` (what `fixtures --from-har` uses) then reads every whole entry before it. Credentials are
 * redacted by the request log's redactors: `Authorization` keeps its scheme word, cookies and key-like headers
 * become `[redacted]`, the configured keys and the request's own bearer token become `***` anywhere.
 */
export class HarRecorder {
  readonly file: string;
  #handle: FileHandle;
  #position: number;
  #count = 0;
  #writes: Promise<void> = Promise.resolve();
  #failed = false;
  #queued = 0;
  #skipped = 0;
  readonly #keys: readonly string[];
  readonly #onError: (error: unknown) => void;

  private constructor(
    file: string,
    handle: FileHandle,
    position: number,
    keys: readonly string[],
    onError: (error: unknown) => void,
  ) {
    this.file = file;
    this.#handle = handle;
    this.#position = position;
    this.#keys = keys;
    this.#onError = onError;
  }

  /** Creates (or empties) `file` and writes an empty HAR log into it. */
  static async create(file: string, keys: readonly string[], onError: (error: unknown) => void): Promise<HarRecorder> {
    const handle = await open(file, 'w', 0o600);
    const head = `{"log":{"version":"1.2","creator":{"name":"petstore-kit","version":${JSON.stringify(packageVersion())}},"pages":[],"entries":[`;
    await writeAll(handle, head + TAIL, 0);
    return new HarRecorder(file, handle, Buffer.byteLength(head), keys, onError);
  }

  /** How many entries were written. */
  get count(): number {
    return this.#count;
  }

  /** Exchanges left out because the file fell behind (more than MAX_QUEUED waiting). */
  get skipped(): number {
    return this.#skipped;
  }

  /** Queues one exchange; writes happen in order, one at a time. */
  record(served: ServedRequest, requestBody: Buffer | undefined, startedAt: number): void {
    if (this.#failed) return;
    const line = JSON.stringify(this.#entry(served, requestBody, startedAt));
    if (this.#queued + line.length > MAX_QUEUED) {
      this.#skipped += 1;
      return;
    }
    this.#queued += line.length;
    this.#writes = this.#writes.then(async () => {
      this.#queued -= line.length;
      if (this.#failed) return;
      const text = `${this.#count === 0 ? '\n' : ',\n'}${line}`;
      try {
        await writeAll(this.#handle, text + TAIL, this.#position);
        this.#position += Buffer.byteLength(text);
        this.#count += 1;
      } catch (error) {
        this.#failed = true;
        this.#onError(error);
      }
    });
  }

  /** Waits for pending writes and closes the file. */
  async close(): Promise<void> {
    await this.#writes;
    await this.#handle.close();
  }

  #entry(served: ServedRequest, requestBody: Buffer | undefined, startedAt: number) {
    const { request, reply } = served;
    const places = served.spec.security.places;
    const credentials = credentialValues(places, request.url, request.headers);
    const keys = requestSecrets(this.#keys, request.headers.authorization, credentials);
    const text = (value: string) => redactKeys(value, keys);
    const url = redactUrl(
      `${request.protocol ?? 'http'}://${request.headers.host ?? 'localhost'}${request.mountPath}${request.url}`,
      keys,
      places.query,
    );
    const query = new URL(url).searchParams;
    const responseText = reply.payload === undefined ? '' : utf8Text(reply.payload);
    const requestText = requestBody && requestBody.length > 0 ? requestBody.toString('utf8') : undefined;
    const location = reply.headers.Location ?? reply.headers.location;
    return {
      startedDateTime: new Date(startedAt).toISOString(),
      time: Math.round(served.durationMs * 100) / 100,
      request: {
        method: request.method,
        url,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(request.headers, keys, places.header),
        queryString: [...query].map(([name, value]) => ({ name, value })),
        ...(requestText !== undefined
          ? { postData: { mimeType: String(request.headers['content-type'] ?? ''), text: text(requestText) } }
          : {}),
        headersSize: -1,
        bodySize: requestBody?.length ?? 0,
      },
      response: {
        status: reply.status,
        statusText: STATUS_CODES[reply.status] ?? '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: harHeaders(reply.headers, keys),
        content: {
          size: Buffer.byteLength(responseText),
          mimeType: reply.headers['Content-Type'] ?? reply.headers['content-type'] ?? '',
          text: text(responseText),
        },
        redirectURL: location ? text(location) : '',
        headersSize: -1,
        bodySize: reply.payload === undefined ? 0 : Buffer.byteLength(responseText),
      },
      cache: {},
      timings: { send: 0, wait: Math.round(served.durationMs * 100) / 100, receive: 0 },
      ...(served.source ? { _source: served.source } : {}),
      ...(served.violations?.length ? { _violations: served.violations } : {}),
    };
  }
}

function harHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  keys: readonly string[],
  secretHeaders: readonly string[] = [],
) {
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    // A header's name can carry a key too (an upstream that names a header after it).
    for (const one of Array.isArray(value) ? value : [value])
      out.push({ name: redactKeys(name, keys), value: redactHeader(name, one, keys, secretHeaders) as string });
  }
  return out;
}

/** A recorded exchange as `readHarEntries` gives it: what the fixtures need. */
export interface HarEntry {
  request?: { method?: string; url?: string };
  response?: { status?: number; content?: { mimeType?: string; text?: string; encoding?: string } };
}

/**
 * The entries of a HAR file; a file cut short by a crash (its last line half written, no closing brackets) gives
 * every entry before the cut, as long as it was written one entry a line, as `--record` does.
 */
export function readHarEntries(text: string, parse: (text: string) => unknown = JSON.parse): HarEntry[] {
  try {
    const har = parse(text) as { log?: { entries?: unknown } };
    if (!Array.isArray(har?.log?.entries)) throw new TypeError('a HAR file holds {"log": {"entries": [...]}}');
    return har.log.entries as HarEntry[];
  } catch (error) {
    if (!text.startsWith('{"log":')) throw error;
    const entries: HarEntry[] = [];
    for (const line of text.split('\n').slice(1)) {
      // `--record` ends every entry but the last with a comma: `{…},`.
      const json = line.endsWith(',') ? line.slice(0, -1) : line;
      if (!json.startsWith('{')) continue;
      try {
        entries.push(parse(json) as HarEntry);
      } catch {
        // The line a crash cut: every entry before it is kept.
      }
    }
    return entries;
  }
}
