import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { packageRoot } from '../paths.js';
import { describeErrors, joinMessages } from './describe-errors.js';
import type { Dialect } from './dialect.js';

type SchemaValidator = ((document: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Where `npm run build` puts the OpenAPI schema validators (scripts/build-openapi-validator.mjs). */
export const PRECOMPILED_VALIDATORS: Record<Dialect['version'], string> = {
  '3.0': join(packageRoot, 'dist', 'openapi', 'openapi-3.0-schema.cjs'),
  '3.1': join(packageRoot, 'dist', 'openapi', 'openapi-3.1-schema.cjs'),
};
export const PRECOMPILED_VALIDATOR = PRECOMPILED_VALIDATORS['3.0'];

/** The build step's output is missing: a broken install or a checkout that was never built, not a bad document. */
export class MissingBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingBuildError';
  }
}

const precompiled = new Map<string, SchemaValidator>();

/**
 * Loads an OpenAPI schema validator made at build time. Without it this fails loudly, naming the file and the fix,
 * rather than falling back to compiling the schema at every start (100–200 ms, a different code path whose messages
 * differ): a missing build output is a broken install, and should be seen as one.
 */
export function loadOpenApiValidator(file: string): SchemaValidator {
  const known = precompiled.get(file);
  if (known) return known;
  try {
    const validate = createRequire(import.meta.url)(file) as SchemaValidator;
    precompiled.set(file, validate);
    return validate;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MissingBuildError(
      `${file} is missing or broken (${code ?? (error as Error).message}); run "npm run build" (npm install runs it)`,
    );
  }
}

/** The OpenAPI 3.0 schema validator (kept for callers that name the version). */
export function loadOpenApi30Validator(file = PRECOMPILED_VALIDATOR): SchemaValidator {
  return loadOpenApiValidator(file);
}

/**
 * Checks a bundled document against the OpenAPI JSON Schema of its version (the ones swagger-parser uses, compiled
 * at build time). References stay references: the schemas allow a Reference Object wherever the specification does,
 * so nothing is expanded to be checked, and a recursive schema is no obstacle.
 */
export function validateDocument(bundled: object, dialect: Dialect): void {
  const validate = loadOpenApiValidator(PRECOMPILED_VALIDATORS[dialect.version]);
  if (!validate(bundled))
    throw new Error(
      `the document breaks the OpenAPI ${dialect.version} schema: ${joinMessages(describeErrors(validate.errors, 'document'))}`,
    );
}
