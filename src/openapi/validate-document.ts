import SwaggerParser from '@apidevtools/swagger-parser';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import type { ErrorObject } from 'ajv';
import { packageRoot } from '../paths.js';
import { describeErrors, joinMessages } from './describe-errors.js';

type SchemaValidator = ((document: unknown) => boolean) & { errors?: ErrorObject[] | null };

let precompiled: SchemaValidator | null | undefined;

/** The OpenAPI 3.0 schema validator made at build time (scripts/build-openapi-validator.mjs), or null without one. */
function openApi30Validator(): SchemaValidator | null {
  if (precompiled === undefined) {
    try {
      precompiled = createRequire(import.meta.url)(join(packageRoot, 'dist', 'openapi', 'openapi-3.0-schema.cjs')) as SchemaValidator;
    } catch {
      precompiled = null;
    }
  }
  return precompiled;
}

/**
 * What `SwaggerParser.validate` does (check the document against the OpenAPI JSON Schema and its own rules, then
 * dereference), with the schema check done by a validator compiled at build time instead of at every start-up.
 * OpenAPI 3.0 only; other versions, or a build without the compiled validator, go through swagger-parser whole.
 */
export async function validateDocument(parsed: OpenAPIV3.Document): Promise<OpenAPIV3.Document> {
  const validate = String(parsed.openapi).startsWith('3.0.') ? openApi30Validator() : null;
  if (!validate) return (await SwaggerParser.validate(structuredClone(parsed))) as OpenAPIV3.Document;
  // Like swagger-parser: circular $refs stay references for the schema check, which could not walk a cycle.
  const shallow = await SwaggerParser.dereference(structuredClone(parsed), { dereference: { circular: 'ignore' } });
  if (!validate(shallow)) throw new Error(`the document breaks the OpenAPI 3.0 schema: ${joinMessages(describeErrors(validate.errors, 'document'))}`);
  return (await SwaggerParser.validate(structuredClone(parsed), { validate: { schema: false, spec: true } })) as OpenAPIV3.Document;
}
