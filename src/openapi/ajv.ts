import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { forValidation } from '../json/for-validation.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as AddFormats;

/**
 * The one AJV setup, shared by the mock and the contract suite. It never coerces: path and query strings are
 * converted by `coerceParameter` with rules we can name in error messages, and bodies and responses must have the
 * right JSON types as sent.
 */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true });
  addFormats(ajv);
  // An int64 beyond ±(2^53−1) is held as a bigint (src/json/int64.ts), which reaches AJV as a stand-in number
  // (forValidation); a *number* beyond that range came from a fraction or an exponent and may not be exact, so it
  // is refused. Range of the whole int64: see forValidation.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  // OpenAPI 3.0 annotation keywords that are not JSON Schema.
  ajv.addVocabulary(['example', 'xml', 'externalDocs']);
  // Every validator compiled here sees bigints as forValidation presents them: the one place AJV meets them.
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object, meta?: boolean) => bigintAware(compile(schema, meta))) as Ajv['compile'];
  return ajv;
}

/** A validator that judges a value holding bigints through forValidation; errors point at the same paths. */
function bigintAware(validate: ValidateFunction): ValidateFunction {
  const wrapped = function validateWithBigints(data: unknown): boolean {
    const valid = validate(forValidation(data)) as boolean;
    wrapped.errors = validate.errors;
    return valid;
  } as ValidateFunction;
  wrapped.schema = validate.schema;
  wrapped.schemaEnv = validate.schemaEnv;
  wrapped.errors = null;
  return wrapped;
}

export type { ErrorObject, ValidateFunction };
