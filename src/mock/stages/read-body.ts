import type { RequestBodySource } from '../mock-request.js';
import type { RequestBody } from '../../openapi/operations.js';
import type { BodyMedia } from '../../openapi/body-media.js';
import { isJsonMediaType } from '../../openapi/operations.js';
import type { BodyReaders } from './body-readers.js';
import { describeErrors, joinMessages } from '../../openapi/describe-errors.js';
import { apiError, isApiError } from '../../errors.js';
import { parseJson } from '../../json/parse-json.js';
import { checkBodyEncoding } from '../base/body-encoding.js';
import { MAX_REQUEST_JSON_DEPTH, nestingDepth } from '../../json/json-depth.js';

/** How the refusal of a too-deep body begins: a bound of this mock's, not a rule of the document (the proxy tells them apart). */
export const TOO_DEEP = 'the request body nests arrays and objects deeper than the limit of';

export interface BodyOptions {
  /** The largest body accepted, in bytes. */
  limit: number;
  /**
   * Called once every check that needs no body has passed, just before reading it: the place to send
   * `100 Continue` (RFC 9110 §10.1.1), so a client that waits for it uploads nothing the mock would refuse.
   */
  beforeRead?: () => void;
  /** Told how many bytes were actually read (chunked bodies have no Content-Length to trust). */
  onRead?: (bytes: number) => void;
  /**
   * The readers of form and multipart bodies (body-readers.ts), loaded for a document that declares such a body;
   * without them, those media types are answered 415 as undeclared.
   */
  readers?: BodyReaders | undefined;
  /**
   * Set where the body becomes a stored item (a handler's create, replace or merge): a body of a type the mock reads
   * as bytes only (`application/xml`) is refused with 415, since no item can be made of it.
   */
  stores?: boolean;
}

// fatal: invalid UTF-8 is an error, not U+FFFD; ignoreBOM: a byte order mark stays in the text, where JSON
// forbids it (RFC 8259 §8.1), instead of being dropped silently.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads, parses and validates a request body of a media type the operation declares (OAS 3.0.3 §4.7.13): JSON
 * against its compiled schema; a form or multipart body field by field (body-readers.ts); any other declared type
 * as bytes, within the same size bound. Every way a body can be wrong gets its own Error: 413 too large, 415 of a
 * type the operation does not declare, 400 empty, not JSON text, not a well-formed form, or not matching the schema.
 * What the headers alone decide throws at once; what the bytes decide rejects. Not an async function: one promise
 * and one suspended frame fewer on every request with a body.
 */
export function readBody(
  spec: RequestBody,
  stream: RequestBodySource,
  headers: Record<string, string | string[] | undefined>,
  options: BodyOptions,
): Promise<unknown> {
  const declared = Number(headers['content-length']);
  if (declared > options.limit) throw tooLarge(options.limit);
  const contentType = headers['content-type'] as string | undefined;
  const { readers } = options;
  // Without the readers, the document declares JSON bodies only, read as they always were.
  const media =
    contentType === undefined
      ? undefined
      : (readers?.match(spec, contentType, options.stores) ?? jsonOnly(contentType));
  checkBodyEncoding(headers, media === undefined || media.kind === 'json');
  options.beforeRead?.();
  const parse = (raw: Uint8Array) => parseBody(spec, media, raw, readers, contentType);
  // A Node stream is parsed inside its read's own promise: one promise and one turn of the queue fewer a body.
  if ('pause' in stream) return readEvents(stream as unknown as EventStream, options.limit, options.onRead, parse);
  return readIterable(stream, options.limit, options.onRead).then(parse);
}

/** JSON, the one type a document without the readers declares bodies in (a JSON body's schema is `spec.validate`). */
const JSON_MEDIA: Pick<BodyMedia, 'kind'> = { kind: 'json' };

function jsonOnly(contentType: string) {
  if (!isJsonMediaType(contentType)) {
    throw apiError(
      'unsupported_media_type',
      `Content-Type must be application/json (got ${contentType.split(';')[0]})`,
    );
  }
  return JSON_MEDIA;
}

/** The bytes read, as the body the handler gets: empty, too deep, not UTF-8, not JSON and not valid each refused. */
function parseBody(
  spec: RequestBody,
  media: Pick<BodyMedia, 'kind'> | undefined,
  raw: Uint8Array,
  readers: BodyReaders | undefined,
  contentType: string | undefined,
): unknown {
  if (raw.length === 0) {
    if (spec.required)
      throw apiError(
        'invalid_body',
        readers?.required(spec) ??
          'the request body is required: send a JSON object with Content-Type application/json',
      );
    return undefined;
  }
  if (media === undefined) {
    throw apiError(
      'unsupported_media_type',
      `Content-Type must be ${readers?.declared(spec) ?? 'application/json'} (the request has a body but no Content-Type)`,
    );
  }
  if (media.kind !== 'json') return readers!.read(media as BodyMedia, raw, contentType!);
  return parseJsonBody(spec, raw);
}

/** A JSON body: too deep, not UTF-8, not JSON and not valid each refused. */
function parseJsonBody(spec: RequestBody, raw: Uint8Array): unknown {
  if (nestingDepth(raw, MAX_REQUEST_JSON_DEPTH) > MAX_REQUEST_JSON_DEPTH) {
    throw apiError('invalid_body', `${TOO_DEEP} ${MAX_REQUEST_JSON_DEPTH} levels`);
  }
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw apiError('invalid_json', 'the request body is not valid UTF-8, which JSON text must be (RFC 8259 §8.1)');
  }
  let body: unknown;
  try {
    // parseJson: an int64 beyond ±(2^53−1) keeps its digits (a bigint), see src/json/int64.ts.
    body = parseJson(text);
  } catch (error) {
    throw apiError('invalid_json', `the request body is not valid JSON: ${(error as Error).message}`);
  }
  if (spec.validate && !spec.validate(body)) {
    throw apiError('invalid_body', joinMessages(describeErrors(spec.validate.errors, 'body')));
  }
  return body;
}

/** A Node stream, read by its events: it can be paused at the limit without destroying the connection under it. */
interface EventStream {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
}

function readEvents<T>(
  stream: EventStream,
  limit: number,
  onRead: ((bytes: number) => void) | undefined,
  parse: (raw: Uint8Array) => T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    // Most bodies arrive in one chunk: it is kept as it is, and an array made only for a second one.
    let first: Uint8Array | undefined;
    let more: Uint8Array[] | undefined;
    let size = 0;
    const onData = (chunk: Uint8Array) => {
      size += chunk.length;
      onRead?.(size);
      if (size > limit) {
        cleanup();
        // Stop reading; the reply asks the client to close the connection rather than upload the rest.
        stream.pause();
        reject(tooLarge(limit));
        return;
      }
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
    };
    // At the end the listeners stay: the request is finished with, and removing them would delete keys from its
    // emitter's table, which V8 then keeps as a slow dictionary for every event Node emits on it afterwards.
    const onEnd = () => {
      try {
        resolve(parse(more ? concat(more, size) : (first ?? EMPTY)));
      } catch (error) {
        reject(error);
      }
    };
    const onError = () => {
      cleanup();
      reject(apiError('invalid_body', 'the request body could not be read to its end'));
    };
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

const EMPTY = new Uint8Array(0);

/** The Web platform's body (the in-process adapter): bytes in memory already, so only the limit matters. */
async function readIterable(
  body: AsyncIterable<Uint8Array>,
  limit: number,
  onRead?: (bytes: number) => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      onRead?.(size);
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk);
    }
  } catch (error) {
    if (isApiError(error)) throw error;
    throw apiError('invalid_body', 'the request body could not be read to its end');
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  if (chunks.length === 0) return EMPTY;
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

function tooLarge(limit: number) {
  return apiError('payload_too_large', `the request body is larger than the limit of ${limit} bytes`, {
    Connection: 'close',
  });
}
