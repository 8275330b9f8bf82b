import { Ajv, type CodeOptions, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { bigintAware, int64Format } from './bigint-aware.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;

/**
 * The one AJV setup, shared by the mock and the contract suite. It never coerces: path and query strings are
 * converted by `coerceParameter` with rules we can name in error messages, and bodies and responses must have the
 * right JSON types as sent.
 */
export function createAjv(code?: CodeOptions): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, discriminator: true, ...(code ? { code } : {}) });
  addFormats(ajv);
  // Range of the whole int64: see bigint-aware.ts and forValidation.
  ajv.addFormat('int64', int64Format);
  // OpenAPI 3.0 annotation keywords that are not JSON Schema.
  ajv.addVocabulary(['example', 'xml', 'externalDocs']);
  // Every validator compiled here sees bigints as forValidation presents them: the one place AJV meets them.
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object, meta?: boolean) => bigintAware(compile(schema, meta))) as Ajv['compile'];
  return ajv;
}

export type { ErrorObject, ValidateFunction };
