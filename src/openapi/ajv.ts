import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv, CodeOptions, ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { int64Format } from './bigint-aware.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;

/**
 * The one AJV setup, shared by the mock, the proxy and the contract suite: JSON Schema 2020-12 (OpenAPI 3.1's
 * dialect; a 3.0 document's schemas are rewritten into it once, by dialect.ts). It never coerces: path and query
 * strings are converted by `coerceParameter` with rules we can name in error messages, and bodies and responses
 * must have the right JSON types as sent. `discriminator` is an annotation here: the `oneOf`/`anyOf` it annotates
 * is what validates (AJV's own discriminator keyword refuses a `mapping`, and demands what OpenAPI does not).
 * Validators are wrapped by schema-compiler.ts to meet bigints (bigint-aware.ts). Nothing is logged: an unknown format is only read (docs/mock.md, the keyword table), and a schema AJV refuses is a
 * one-line DocumentError naming where it is (operations.ts). `verbose` (the server's instance) gives each error the
 * schema it failed in, which schema-compiler.ts turns into a path in the document.
 */
export function createAjv(code?: CodeOptions, options: { verbose?: boolean } = {}): Ajv {
  const ajv: Ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    logger: false,
    ...(options.verbose ? { verbose: true } : {}),
    ...(code ? { code } : {}),
  });
  addFormats(ajv);
  // Range of the whole int64: see bigint-aware.ts and forValidation.
  ajv.addFormat('int64', int64Format);
  // OpenAPI annotation keywords that are not JSON Schema 2020-12's.
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
  return ajv;
}

export type { ErrorObject, ValidateFunction };
