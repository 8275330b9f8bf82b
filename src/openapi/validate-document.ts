import SwaggerParser from '@apidevtools/swagger-parser';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import type { ErrorObject } from 'ajv';
import { packageRoot } from '../paths.js';
import { describeErrors, joinMessages } from './describe-errors.js';

type SchemaValidator = ((document: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Where `npm run build` puts the OpenAPI 3.0 schema validator (scripts/build-openapi-validator.mjs). */
export const PRECOMPILED_VALIDATOR = join(packageRoot, 'dist', 'openapi', 'openapi-3.0-schema.cjs');

/** The build step's output is missing: a broken install or a checkout that was never built, not a bad document. */
export class MissingBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingBuildError';
  }
}

let precompiled: SchemaValidator | undefined;

/**
 * Loads the OpenAPI 3.0 schema validator made at build time. Without it this fails loudly, naming the file and the
 * fix, rather than falling back to compiling the schema at every start (about 180 ms, a different code path whose
 * messages differ): a missing build output is a broken install, and should be seen as one.
 */
export function loadOpenApi30Validator(file = PRECOMPILED_VALIDATOR): SchemaValidator {
  try {
    return createRequire(import.meta.url)(file) as SchemaValidator;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MissingBuildError(
      `${file} is missing or broken (${code ?? (error as Error).message}); run "npm run build" (npm install runs it)`,
    );
  }
}

/**
 * What `SwaggerParser.validate` does (check the document against the OpenAPI JSON Schema and its own rules, then
 * dereference), with the schema check done by a validator compiled at build time instead of at every start-up.
 * OpenAPI 3.0 only: other versions go through swagger-parser whole.
 */
export async function validateDocument(parsed: OpenAPIV3.Document): Promise<OpenAPIV3.Document> {
  if (!String(parsed.openapi).startsWith('3.0.'))
    return (await SwaggerParser.validate(structuredClone(parsed))) as OpenAPIV3.Document;
  const validate = (precompiled ??= loadOpenApi30Validator());
  // Like swagger-parser: circular $refs stay references for the schema check, which could not walk a cycle.
  const shallow = await SwaggerParser.dereference(structuredClone(parsed), { dereference: { circular: 'ignore' } });
  if (!validate(shallow))
    throw new Error(
      `the document breaks the OpenAPI 3.0 schema: ${joinMessages(describeErrors(validate.errors, 'document'))}`,
    );
  return (await SwaggerParser.validate(structuredClone(parsed), {
    validate: { schema: false, spec: true },
  })) as OpenAPIV3.Document;
}
