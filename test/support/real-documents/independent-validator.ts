import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { deref, resolvePointer, type Document } from './read-document.js';
import { toJsonSchema2020 } from './schema-dialect.js';
import { hideData } from './hide-data.js';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as AddFormats;

const DOCUMENT_URI = 'https://real-documents.test/document.json';

/** Which way a value travels: `readOnly` properties are left out of requests, `writeOnly` ones out of answers. */
export type Direction = 'request' | 'response';

/**
 * A judge of values that shares nothing with the mock: its own parse of the document (3.0 rewritten as 2020-12 by
 * schema-dialect.ts), its own AJV 2020 instance, and every schema compiled by its JSON pointer into the document,
 * `$ref`s kept, so recursive schemas are compiled once, as they are written.
 */
export class IndependentValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | string>();

  constructor(readonly document: Document) {
    toJsonSchema2020(document);
    hideData(document);
    this.ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false, logger: false });
    addFormats(this.ajv);
    addOpenApiFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_URI);
  }

  /**
   * What is wrong with `value` against the schema at `pointer` (`#/components/schemas/Pet`), in at most two lines;
   * empty when it is valid. A `required` property that is `readOnly` (in a request) or `writeOnly` (in an answer)
   * may be absent: OAS 3.0.3 §4.7.24 "the required will take effect on the response only" (and the request only).
   */
  problems(pointer: string, value: unknown, direction: Direction): string[] {
    const validate = this.compile(pointer);
    if (typeof validate === 'string') return [`the judge cannot compile ${pointer}: ${validate}`];
    if (validate(value)) return [];
    const errors = (validate.errors ?? []).filter((error) => !this.absentByDirection(error, direction));
    if (errors.length === 0) return [];
    return errors.slice(0, 2).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
  }

  private compile(pointer: string): ValidateFunction | string {
    let validate = this.compiled.get(pointer);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile({ $ref: `${DOCUMENT_URI}${pointer}` });
      } catch (error) {
        validate = (error as Error).message.split('\n')[0] ?? 'unknown error';
      }
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private absentByDirection(error: ErrorObject, direction: Direction): boolean {
    if (error.keyword !== 'required') return false;
    const missing = (error.params as { missingProperty?: string }).missingProperty;
    const properties = error.parentSchema?.properties as Document | undefined;
    if (missing === undefined || properties === undefined) return false;
    const property = deref<Document>(this.document, properties[missing]);
    return direction === 'request' ? property?.readOnly === true : property?.writeOnly === true;
  }

  /** The schema object at `pointer`, for generating values. */
  schemaAt(pointer: string): unknown {
    return resolvePointer(this.document, pointer);
  }
}

const INT32 = 2 ** 31;

/**
 * The formats OpenAPI defines beyond JSON Schema's (OAS 3.0.3 and 3.1.0 §4.4 Data Types): int32 and int64
 * as ranges, float and double as any number, byte as base64 (RFC 4648 §4), binary and password as any string.
 */
function addOpenApiFormats(ajv: Ajv2020): void {
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat('binary', true);
  ajv.addFormat('password', true);
}
