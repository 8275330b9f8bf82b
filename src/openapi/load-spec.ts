import type { OpenAPIV3 } from 'openapi-types';
import { createAjv } from './ajv.js';
import { specOf, type Spec, type SpecDocument } from './spec.js';
import { checkSchemas, createSchemaCompiler, type SchemaCompiler } from './schema-compiler.js';
import { DocumentError } from '../input-errors.js';
import { bigintAware } from './bigint-aware.js';
import { buildResourceModel } from './resource-model.js';
import { defaultSpecFile } from '../paths.js';
import { readDocument, type DocumentSource } from './read-document.js';

export { basePathOf, type Spec } from './spec.js';

/**
 * Loads, validates and resolves an OpenAPI 3.0 or 3.1 document (a file, an http(s) URL or a value) through the one
 * bounded reader (read-document.ts), then compiles every validator it needs, by reference (schema-compiler.ts).
 * @example const spec = await loadSpec(); spec.operationById.get('listPets')
 */
export async function loadSpec(source: string | OpenAPIV3.Document = defaultSpecFile): Promise<Spec> {
  const loaded = await readDocument(sourceOf(source));
  const compiler = compilerOf(loaded);
  return specOf(
    loaded,
    loaded.file ?? (typeof source === 'string' ? source : undefined),
    (schema, direction) => compiler.compile(schema, direction),
    buildResourceModel,
  );
}

/** The one AJV instance of a document, its schemas compiled by reference (schema-compiler.ts). */
export function compilerOf(loaded: SpecDocument & { label?: string }): SchemaCompiler {
  const ajv = createAjv(undefined, { verbose: true });
  try {
    checkSchemas(ajv, loaded.normalized);
  } catch (error) {
    throw new DocumentError(`${loaded.label ?? 'the OpenAPI document'}: ${(error as Error).message}`);
  }
  return createSchemaCompiler(ajv, loaded.normalized, loaded.pointerOf, bigintAware);
}

/** A string is a file, or a URL when it starts with http:// or https://. */
export function sourceOf(source: string | OpenAPIV3.Document): DocumentSource {
  if (typeof source !== 'string') return { label: 'the OpenAPI document', value: source };
  return /^https?:\/\//i.test(source) ? { url: source } : { path: source };
}
