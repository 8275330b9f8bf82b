import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3 } from 'openapi-types';
import yaml from 'js-yaml';
import { DocumentError } from '../input-errors.js';
import { oneLine } from './spec.js';
import { MissingBuildError, validateDocument } from './validate-document.js';
import { checkNesting, checkReferences, DOCUMENT_LIMITS } from './document-limits.js';
import { dialectOf, normalizeDocument, type Dialect } from './dialect.js';
import { resolveReferences } from './resolve-references.js';

/**
 * Where a document comes from: a file, an http(s) URL, text (standard input, `-`), or a parsed value. A document's
 * relative `$ref`s resolve against its file or URL (text's and a value's against the working directory).
 */
export type DocumentSource =
  { path: string } | { url: string } | { label: string; text: string } | { label: string; value: object };

/** A document read, checked and bundled: what every command builds its model from. */
export interface LoadedDocument {
  /** A file, a URL, `-` for standard input, or a label for a document given as a value. */
  label: string;
  /** The file it was read from (a URL, text and values have none). */
  file?: string;
  /** Bundled: every `$ref` points inside this object (`#/…`), so a JSON pointer names where a thing is written. */
  bundled: OpenAPIV3.Document;
  /** What differs between OpenAPI 3.0 and 3.1, read once (dialect.ts). */
  dialect: Dialect;
  /** The bundled document with its schemas in JSON Schema 2020-12 form (dialect.ts), references kept: what AJV reads. */
  normalized: OpenAPIV3.Document;
  /**
   * The normalized document with every `$ref` replaced by the object it names, shared and never copied: a recursive
   * schema contains itself (resolve-references.ts). What the models and walkers read, with a cycle guard.
   */
  resolved: OpenAPIV3.Document;
  /** Where each object of `resolved` is written in `normalized`, as a JSON pointer (`#/components/schemas/Pet`). */
  pointerOf: WeakMap<object, string>;
  /** The text as written (YAML or JSON), for excerpts with line numbers; absent for a document given as a value. */
  text?: string;
}

/** The largest document read (a file, a URL, or a file a `$ref` names): far above any real OpenAPI document. */
export const MAX_DOCUMENT_BYTES = DOCUMENT_LIMITS.bytes;
export const URL_TIMEOUT_MS = 30_000;

/**
 * The one way a document is read, by every command: bounded in size, YAML aliases, nodes, nesting and what its
 * `$ref`s expand to (document-limits.ts), then bundled and checked against the OpenAPI schema. Anything refused is a
 * one-line DocumentError naming the source: the command exits 2, within a second or two, whatever the document.
 * @example const { dereferenced } = await readDocument({ path: 'openapi.yaml' })
 */
export async function readDocument(source: DocumentSource): Promise<LoadedDocument> {
  const label = labelOf(source);
  let parsed: unknown;
  let text: string | undefined;
  try {
    if (!('value' in source)) text = await textOf(source);
    parsed = text === undefined ? structuredClone((source as { value: object }).value) : parseDocumentText(text);
    checkNesting(parsed, 'the document');
    checkVersion(parsed);
    // Before the parser follows anything (it recurses along a chain of references), and again once the files
    // the document names are pulled in.
    checkReferences(parsed as object, 'the document');
    const bundled = hasExternalReferences(parsed)
      ? ((await new $RefParser().bundle(
          baseOf(source),
          parsed as object,
          {
            parse: { json: { parse: parseReferencedFile }, yaml: { parse: parseReferencedFile } },
            resolve: { file: { read: readReferencedFile }, http: { read: fetchReferencedFile } },
          } as never,
        )) as OpenAPIV3.Document)
      : (parsed as OpenAPIV3.Document);
    checkReferences(bundled, 'the document');
    const dialect = dialectOf(bundled);
    validateDocument(bundled, dialect);
    const normalized = normalizeDocument(bundled, dialect);
    const { view: resolved, pointerOf } = resolveIn(label, normalized);
    const file = 'path' in source ? { file: source.path } : {};
    return {
      label,
      ...file,
      bundled,
      dialect,
      normalized,
      resolved,
      pointerOf,
      ...(text === undefined ? {} : { text }),
    };
  } catch (error) {
    if (error instanceof MissingBuildError || error instanceof DocumentError) throw error;
    throw new DocumentError(`${label}: ${explain(error)}`);
  }
}

/** The references resolved, a refusal naming the document first (`new.yaml: #/paths/…: $ref … names nothing`). */
function resolveIn<T extends object>(label: string, normalized: T): ReturnType<typeof resolveReferences<T>> {
  try {
    return resolveReferences(normalized);
  } catch (error) {
    if (error instanceof DocumentError) throw new DocumentError(`${label}: ${error.message}`);
    throw error;
  }
}

/**
 * Whether any `$ref` names another file or URL. A document whose references all point inside it is bundled
 * already; the bundler would only walk it (most of a 4 MB document's reading time).
 */
function hasExternalReferences(parsed: unknown): boolean {
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) return true;
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return false;
}

function labelOf(source: DocumentSource): string {
  return 'path' in source ? source.path : 'url' in source ? source.url : source.label;
}

function baseOf(source: DocumentSource): string {
  if ('path' in source) return source.path;
  return 'url' in source ? source.url : STDIN_PATH;
}

const STDIN_PATH = 'petstore-kit-standard-input.yaml';

async function textOf(source: { path: string } | { url: string } | { text: string }): Promise<string> {
  if ('text' in source) return boundedText(Buffer.from(source.text, 'utf8'));
  return 'url' in source ? fetchText(source.url) : readBoundedFile(source.path);
}

function boundedText(bytes: Buffer): string {
  if (bytes.byteLength > DOCUMENT_LIMITS.bytes)
    throw new Error(`the document is larger than ${DOCUMENT_LIMITS.bytes / 1024 / 1024} MiB`);
  return bytes.toString('utf8');
}

/** A file's bytes, never more than the bound plus one (a `$ref` to /dev/zero ends too). */
async function readBoundedFile(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(DOCUMENT_LIMITS.bytes + 1);
    let length = 0;
    while (length < buffer.byteLength) {
      const { bytesRead } = await handle.read(buffer, length, buffer.byteLength - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return boundedText(buffer.subarray(0, length));
  } finally {
    await handle.close();
  }
}

/**
 * JSON when it looks like JSON (V8's parser does not recurse), else YAML as swagger-parser reads it (js-yaml, its
 * JSON schema). js-yaml parses in linear time and gives an alias the node it names, not a copy: a "billion laughs"
 * is a few objects here, refused by checkNesting, which counts every node a walker would visit. A parser that runs
 * out of stack on a deep document says so as a bound, not as "Maximum call stack size exceeded".
 */
export function parseDocumentText(text: string): unknown {
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all (a YAML flow mapping): YAML reads it, or says where it is wrong.
    }
  }
  try {
    return yaml.load(text, { schema: yaml.JSON_SCHEMA });
  } catch (error) {
    const { reason, mark } = error as { reason?: string; mark?: { line: number; column: number } };
    if (reason !== undefined && mark !== undefined)
      throw new Error(`not YAML or JSON: ${reason} at line ${mark.line + 1}, column ${mark.column + 1}`, {
        cause: error,
      });
    if (error instanceof RangeError)
      throw new Error(
        `the document nests deeper than the YAML parser can follow (over ${DOCUMENT_LIMITS.depth} levels)`,
        { cause: error },
      );
    throw new Error(`not YAML or JSON: ${oneLine(error).slice(0, 300)}`, { cause: error });
  }
}

/** swagger-parser's parser hook, for the files a `$ref` names: the same parser and bounds as the document's. */
function parseReferencedFile(file: { url: string; data: Buffer | string }): unknown {
  const text = typeof file.data === 'string' ? file.data : file.data.toString('utf8');
  try {
    const parsed = parseDocumentText(text);
    checkNesting(parsed, 'the file');
    return parsed;
  } catch (error) {
    throw new Error(`${file.url} (named by a $ref): ${oneLine(error)}`, { cause: error });
  }
}

function readReferencedFile(file: { url: string }): Promise<string> {
  return readBoundedFile(file.url.startsWith('file:') ? fileURLToPath(file.url) : decodeURIComponent(file.url));
}

function fetchReferencedFile(file: { url: string }): Promise<string> {
  return fetchText(file.url);
}

function checkVersion(parsed: unknown): void {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new NotOpenApi(parsed);
  const version = (parsed as { openapi?: unknown; swagger?: unknown }).openapi;
  if ((parsed as { swagger?: unknown }).swagger !== undefined && version === undefined)
    throw new Error(
      'not an OpenAPI 3 document: only OpenAPI 3 documents are supported (this is Swagger 2: convert it to OpenAPI 3 first)',
    );
  if (version === undefined) throw new NotOpenApi(parsed);
  if (typeof version !== 'string' || !version.startsWith('3.'))
    throw new Error(
      `not an OpenAPI 3 document: only OpenAPI 3 documents are supported (openapi is ${JSON.stringify(version).slice(0, 40)})`,
    );
  // OpenAPI 3.0.3 §4.7.1: `paths` is REQUIRED (3.1 §4.8.1 makes it optional beside components and webhooks).
  if (version.startsWith('3.0') && !('paths' in parsed)) throw new NotOpenApi(parsed);
  // The two versions read here; a later one (3.2 adds methods and fields 3.1 lacks) is not read as an earlier one.
  if (!/^3\.[01]\.\d+(-.+)?$/.test(version))
    throw new Error(
      `OpenAPI ${version.slice(0, 20)} is not read by this release: OpenAPI 3.0.x and 3.1.x are (document.openapi)`,
    );
}

class NotOpenApi extends Error {
  constructor(readonly parsed: unknown) {
    super('not an OpenAPI document');
  }
}

/** A URL's body as text: a 2xx within the time and size bounds, redirects followed as fetch does. */
async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(URL_TIMEOUT_MS),
      headers: { Accept: 'application/yaml, application/json;q=0.9, */*;q=0.5' },
    });
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, a timeout) is its cause.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot be fetched (${cause?.code ?? cause?.message ?? (error as Error).message})`, {
      cause: error,
    });
  }
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > DOCUMENT_LIMITS.bytes)
      throw new Error(`the document is larger than ${DOCUMENT_LIMITS.bytes / 1024 / 1024} MiB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The reason a document was refused, in one line. */
function explain(error: unknown): string {
  if (error instanceof NotOpenApi) return notAnOpenApiDocument(error.parsed);
  return oneLine(error);
}

function notAnOpenApiDocument(parsed: unknown): string {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'not an OpenAPI document: the file must hold a YAML or JSON object with openapi, info and paths';
  }
  const is31 = String((parsed as { openapi?: unknown }).openapi).startsWith('3.1');
  const missing = ['openapi', 'info', ...(is31 ? [] : ['paths'])]
    .filter((key) => !(key in parsed))
    .map((key) => `document.${key} is required`);
  return `not an OpenAPI document: ${missing.join('; ')} (an OpenAPI 3 document has openapi, info and paths at its top level)`;
}
