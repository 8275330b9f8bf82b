import type { OpenAPIV3 } from 'openapi-types';
import type { CompileSchema, Operation } from '../../openapi/operations.js';
import { declaredResponseKey, isJsonMediaType } from '../../openapi/operations.js';
import { describeErrors } from '../../openapi/describe-errors.js';
import { isSchemaNode } from '../../openapi/schema-keywords.js';
import { apiError } from '../../errors.js';
import { minimalValue, type Accepts } from '../base/minimal-value.js';

/**
 * Keeps a body made up for an operation without a handler (by prism-http, or from the document by
 * answer-from-document.ts) to its response's schema: returns `made` when the schema of the status and media type
 * it answers accepts it, else the least body the schema accepts built with only the examples that keep their own
 * subschemas (minimal-value.ts), else throws a 500 naming the operation and the first rule that body breaks.
 *
 * Why: OpenAPI 3.0.3 §4.7.24.2 and JSON Schema 2020-12 Validation §9.5 ask examples to match their schema (SHOULD),
 * they do not make it so, and Prism composes a body from the examples of its properties as written: Box's
 * `shared_link` example lacks its required `accessed`, Asana's `download_url` example is no URI. A mock that sent
 * them would break the very document it mocks; the client is owed a body the document allows (OAS 3.0.3 §4.7.17:
 * the schema "defining the content"), and when none can be made, an error that says so rather than a silent lie.
 */
export type BodyCheck = (operation: Operation, status: number, mediaType: string | undefined, made: unknown) => unknown;

/** The body check of one document: its schemas compiled by `compile` (the document's own validators, once each). */
export function createBodyCheck(compile: CompileSchema): BodyCheck {
  const accepts: Accepts = (schema, value) => compile(schema, 'response')(value);
  return function validBody(operation, status, mediaType, made) {
    const schema = declaredSchema(operation, status, mediaType);
    if (schema === undefined) return made;
    const validate = compile(schema, 'response');
    if (validate(made)) return made;
    const remade = minimalValue(schema, { accepts });
    if (validate(remade)) return remade;
    const [first] = describeErrors(validate.errors, 'response');
    throw apiError(
      'internal_error',
      `${operation.id}: no ${status} body the mock can make validates against its schema: ${first?.message ?? 'refused'}`,
    );
  };
}

/**
 * The schema of the JSON body an operation declares for `status` (exact code, then range, then `default`: OAS 3.0.3
 * §4.7.16) and `mediaType` (its own entry, else the first JSON one); undefined where it declares none to check.
 */
export function declaredSchema(
  operation: Operation,
  status: number,
  mediaType: string | undefined,
): object | undefined {
  const responses = (operation.object.responses ?? {}) as Record<string, OpenAPIV3.ResponseObject>;
  const key = declaredResponseKey(Object.keys(responses), status);
  const content = key === undefined ? undefined : responses[key]?.content;
  if (!content) return undefined;
  const essence = mediaType?.split(';')[0]!.trim().toLowerCase();
  const types = Object.keys(content);
  const type = types.find((t) => t.split(';')[0]!.trim().toLowerCase() === essence) ?? types.find(isJsonMediaType);
  if (type === undefined || !isJsonMediaType(type)) return undefined;
  const schema: unknown = content[type]?.schema;
  return isSchemaNode(schema) ? schema : undefined;
}
