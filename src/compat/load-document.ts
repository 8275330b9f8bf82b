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
}

/** Where a document comes from: a path or an http(s) URL as given, standard input's text for `-`, or a parsed value. */
export type DocumentSource = { path: string } | { label: string; text: string } | { label: string; value: object };

/**
 * Reads, checks and bundles an OpenAPI 3 document. A document that does not parse, breaks the OpenAPI schema, or
 * holds a `$ref` that does not resolve throws a DocumentError naming it: `compat` cannot judge it (exit 2).
 * @example await loadDocument({ path: 'openapi.yaml' })
 */
export async function loadDocument(source: DocumentSource): Promise<LoadedDocument> {
  const label = 'path' in source ? source.path : source.label;
  try {
    const bundled = (await bundle(source)) as OpenAPIV3.Document;
    if (typeof bundled !== 'object' || bundled === null || !String((bundled as { openapi?: unknown }).openapi ?? '').startsWith('3.')) {
      throw new Error('not an OpenAPI 3 document (it has no "openapi: 3.x" at its top level)');
    }
    const dereferenced = await validateDocument(structuredClone(bundled));
    return { label, bundled, dereferenced };
  } catch (error) {
    if (error instanceof MissingBuildError) throw error;
    throw new DocumentError(`${label}: ${oneLine(error)}`);
  }
}

function bundle(source: DocumentSource): Promise<unknown> {
  if ('path' in source) return new SwaggerParser().bundle(source.path);
  if ('value' in source) return new SwaggerParser().bundle(structuredClone(source.value) as OpenAPIV3.Document);
  // Standard input has no path: the parser reads it through a resolver of its own, so YAML and JSON parse as a file
  // would, and a relative `$ref` in it resolves against the working directory.
  const { text } = source;
  return new SwaggerParser().bundle(STDIN_PATH, {
    resolve: { stdin: { order: 1, canRead: (file: { url: string }) => file.url.endsWith(STDIN_PATH), read: () => text } },
  } as unknown as SwaggerParser.Options);
}

const STDIN_PATH = 'petstore-kit-standard-input.yaml';
