import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

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
  // JSON numbers beyond 2^53 - 1 do not survive a JavaScript client (or this mock) unchanged, so an int64 that
  // must round-trip is held to the safe-integer range.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  // OpenAPI 3.0 annotation keywords that are not JSON Schema.
  ajv.addVocabulary(['example', 'xml', 'externalDocs']);
  return ajv;
}

export type { ErrorObject, ValidateFunction };
