import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import type { ErrorObject } from 'ajv';
import { createAjv } from './ajv.js';
import { DocumentError } from '../input-errors.js';
import { oneLine, specOf, type Spec } from './spec.js';
import { MissingBuildError, validateDocument } from './validate-document.js';
import { defaultSpecFile } from '../paths.js';
import { describeErrors, joinMessages } from './describe-errors.js';

export { basePathOf, type Spec } from './spec.js';

/**
 * Loads, validates and dereferences an OpenAPI 3 document, then compiles every validator it needs.
 * @example const spec = await loadSpec(); spec.operationById.get('listPets')
 */
export async function loadSpec(source: string | OpenAPIV3.Document = defaultSpecFile): Promise<Spec> {
  const file = typeof source === 'string' ? source : undefined;
  const label = file ?? 'the OpenAPI document';
  let parsed: OpenAPIV3.Document;
  let document: OpenAPIV3.Document;
  const parser = new SwaggerParser();
  try {
    parsed = (await parser.parse(typeof source === 'string' ? source : structuredClone(source))) as OpenAPIV3.Document;
    document = await validateDocument(parsed);
  } catch (error) {
    if (error instanceof MissingBuildError) throw error;
    // $RefParser keeps what it parsed on the instance, so a refused document can still be inspected.
    throw new DocumentError(`${label}: ${explain(error, (parser as unknown as { schema?: unknown }).schema)}`);
  }
  if (!('openapi' in document) || !String(document.openapi).startsWith('3.')) {
    throw new DocumentError(`${label}: only OpenAPI 3 documents are supported`);
  }
  const ajv = createAjv();
  return specOf(document, parsed, file, (schema) => ajv.compile(schema));
}

/**
 * The reason a document was refused, with where it is. swagger-parser's own words lack both in two cases: a
 * document without `paths` ("… is not a valid Openapi API definition") and its schema check for OpenAPI 3.1 and
 * Swagger 2.0, whose AJV errors sit in `details`.
 */
function explain(error: unknown, parsed: unknown): string {
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details) && details.length > 0) {
    const version =
      (parsed as { openapi?: unknown; swagger?: unknown } | null)?.openapi ??
      (parsed as { swagger?: unknown } | null)?.swagger;
    return `the document breaks the ${version === undefined ? 'OpenAPI' : `OpenAPI ${typeof version === 'string' ? version : JSON.stringify(version)}`} schema: ${joinMessages(describeErrors(details as ErrorObject[], 'document'))}`;
  }
  if (/is not a valid (Openapi API definition|JSON Schema)/.test(oneLine(error))) return notAnOpenApiDocument(parsed);
  return oneLine(error);
}

function notAnOpenApiDocument(parsed: unknown): string {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return 'not an OpenAPI document: the file must hold a YAML or JSON object with openapi, info and paths';
  }
  const missing = ['openapi', 'info', 'paths']
    .filter((key) => !(key in parsed))
    .map((key) => `document.${key} is required`);
  return `not an OpenAPI document: ${missing.length ? missing.join('; ') : 'document.paths is required'} (an OpenAPI 3 document has openapi, info and paths at its top level)`;
}
