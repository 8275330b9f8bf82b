import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { DocumentError } from '../input-errors.js';
import { MissingBuildError, validateDocument } from '../openapi/validate-document.js';
import { oneLine } from '../openapi/spec.js';

/** One side of a comparison: the document as written (external references pulled in) and where it came from. */
export interface LoadedDocument {
  /** A file, a URL, `-` for standard input, or a label for a document given as a value. */
  label: string;
  /** Bundled: every `$ref` points inside this object (`#/…`), so a JSON pointer names where a thing is written. */
  bundled: OpenAPIV3.Document;
  /** Dereferenced: every `$ref` replaced by what it points to (the document model's view, for replaying requests). */
  dereferenced: OpenAPIV3.Document;
  /** The text as written (YAML or JSON), for excerpts with line numbers; absent for a document given as a value. */
  text?: string;
}

/**
 * Where a document comes from: a file, an http(s) URL, the text of standard input (`-`), or a parsed value. A
 * document's relative `$ref`s resolve against its file or URL (standard input's against the working directory).
 */
export type DocumentSource =
  { path: string } | { url: string } | { label: string; text: string } | { label: string; value: object };

/** The largest document read from a URL: far above any real OpenAPI document, and a bound on memory. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
export const URL_TIMEOUT_MS = 30_000;

/**
 * Reads, checks and bundles an OpenAPI 3 document. A document that does not parse, breaks the OpenAPI schema, or
 * holds a `$ref` that does not resolve throws a DocumentError naming it: `compat` cannot judge it (exit 2).
 * @example await loadDocument({ path: 'openapi.yaml' })
 */
export async function loadDocument(source: DocumentSource): Promise<LoadedDocument> {
  const label = 'path' in source ? source.path : 'url' in source ? source.url : source.label;
  try {
    // A URL is fetched once, here: the text bundled is the text shown.
    const given = 'url' in source ? await fetchText(source.url) : 'text' in source ? source.text : '';
    const bundled = (await bundle(source, given)) as OpenAPIV3.Document;
    // A file's text is read again for excerpts once it has parsed; the parser's words stay those of a bad file.
    const text =
      'path' in source
        ? await readFile(source.path, 'utf8').catch(() => undefined)
        : 'value' in source
          ? undefined
          : given;
    const version = (bundled as { openapi?: unknown } | null)?.openapi;
    if (typeof bundled !== 'object' || bundled === null || typeof version !== 'string' || !version.startsWith('3.')) {
      throw new Error('not an OpenAPI 3 document (it has no "openapi: 3.x" at its top level)');
    }
    const dereferenced = await validateDocument(structuredClone(bundled));
    return { label, bundled, dereferenced, ...(text === undefined ? {} : { text }) };
  } catch (error) {
    if (error instanceof MissingBuildError) throw error;
    throw new DocumentError(`${label}: ${oneLine(error)}`);
  }
}

/** `text`: what a URL or standard input gave (unused for a file or a value). */
async function bundle(source: DocumentSource, text: string): Promise<unknown> {
  if ('path' in source) return new SwaggerParser().bundle(source.path);
  if ('value' in source) return new SwaggerParser().bundle(structuredClone(source.value) as OpenAPIV3.Document);
  // The parser reads the text through a resolver of its own, so YAML and JSON parse as a file would. The document
  // named on the command line is fetched here, loopback included (a mock's /docs/openapi.json); the $refs inside it
  // keep the parser's refusal of loopback and internal addresses, which a document from elsewhere could name.
  const base = 'url' in source ? source.url : STDIN_PATH;
  return new SwaggerParser().bundle(base, {
    resolve: {
      given: {
        order: 1,
        canRead: (file: { url: string }) => file.url === base || file.url.endsWith(`/${STDIN_PATH}`),
        read: () => text,
      },
    },
  } as unknown as SwaggerParser.Options);
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
    if (size > MAX_DOCUMENT_BYTES)
      throw new Error(`the document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const STDIN_PATH = 'petstore-kit-standard-input.yaml';
