import type { OpenAPIV3 } from 'openapi-types';
import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { ValidateFunction } from '../../openapi/ajv.js';
import { isJsonMediaType } from '../../openapi/operations.js';
import { describeErrors, joinMessages } from '../../openapi/describe-errors.js';
import { DocumentError } from '../../input-errors.js';
import { errorKinds } from '../../errors.js';

/** What one documented response can serve when a `Prefer` forces it: its named examples and its default body. */
export interface Servable {
  status: number;
  examples: Map<string, unknown>;
  /** The first named example, else the media type's or the schema's `example`, else undefined. */
  fallback: unknown;
  hasBody: boolean;
  /** Whether our Error shape fits the response schema: read only when a forced answer has no example. */
  readonly isError: boolean;
}

/** One operation's servable responses, keyed by status as written (`200`, `4XX`, `DEFAULT`). */
export type ScenarioTable = Map<string, Servable>;

/**
 * The scenario tables of a document, part of its model: for every operation, what each documented response can
 * serve. For operations the mock answers itself (`answersItself`), every example is checked against its response
 * schema here, once: a document whose example breaks its own schema is refused, so a forced answer always keeps
 * the contract. prism-http serves the others as the document has them (the journal then shows a broken example).
 */
export function buildScenarioTables(
  spec: Spec,
  answersItself: (operationId: string) => boolean,
): Map<string, ScenarioTable> {
  return new Map(
    spec.operations.map((operation) => [operation.id, servableResponses(operation, answersItself(operation.id))]),
  );
}

function servableResponses(operation: Operation, check: boolean): ScenarioTable {
  const table = new Map<string, Servable>();
  const responses = operation.object.responses ?? {};
  for (const [key, value] of Object.entries(responses)) {
    const status = /^\d{3}$/.test(key) ? Number(key) : undefined;
    const response = value as OpenAPIV3.ResponseObject;
    const json = Object.keys(response.content ?? {}).find(isJsonMediaType);
    const media = json ? response.content![json]! : undefined;
    const validate = operation.responses.get(key.toUpperCase())?.validate;
    const examples = new Map<string, unknown>();
    for (const [name, example] of Object.entries(media?.examples ?? {})) {
      examples.set(
        name,
        checked(
          (example as OpenAPIV3.ExampleObject).value,
          check ? validate : undefined,
          `${operation.id} response ${key} example "${name}"`,
        ),
      );
    }
    const schemaExample: unknown = (media?.schema as OpenAPIV3.SchemaObject | undefined)?.example;
    const single: unknown = media?.example ?? schemaExample;
    const hasBody = media !== undefined;
    table.set(key.toUpperCase(), {
      status: status ?? 0,
      examples,
      fallback:
        examples.values().next().value ??
        (single === undefined
          ? undefined
          : checked(single, check ? validate : undefined, `${operation.id} response ${key} example`)),
      hasBody,
      // Asked on first use, not here: it compiles the response's validator, which on a large document (Stripe's
      // 395 operations) was most of the start-up (issue 52 item 6), for an answer only `Prefer: code=` wants.
      get isError() {
        const value = hasBody && isErrorSchema(validate);
        Object.defineProperty(this, 'isError', { value, enumerable: true });
        return value;
      },
    });
  }
  return table;
}

/** A documented example the response schema rejects would make the mock break its own contract: refuse at start-up. */
function checked(value: unknown, validate: ValidateFunction | undefined, label: string): unknown {
  if (validate && !validate(value)) {
    throw new DocumentError(`${label} breaks its schema: ${joinMessages(describeErrors(validate.errors, 'example'))}`);
  }
  return Object.freeze(structuredClone(value));
}

export function isErrorSchema(validate: ValidateFunction | undefined): boolean {
  return validate !== undefined && validate(forcedError(400));
}

/** `Prefer: code=418` on an operation documenting `4XX` or `default`: served with that code. */
export function rangeServable(table: Map<string, Servable>, code: number): Servable | undefined {
  const range = table.get(`${String(code)[0]}XX`) ?? table.get('DEFAULT');
  return range && { ...range, status: code };
}

/** The example named `name`, searched in documented order among responses with an exact status. */
export function findExample(table: Map<string, Servable>, name: string): Servable | undefined {
  for (const servable of table.values()) if (servable.status !== 0 && servable.examples.has(name)) return servable;
  return undefined;
}

export function exampleNames(table: Map<string, Servable>): string {
  const names = [...table.values()].flatMap((servable) => [...servable.examples.keys()]);
  return names.join(', ') || 'none';
}

// The code of a forced Error without a documented example: the mock's own kind for that status, if it has one.
const kindByStatus = new Map<number, string>();
// Not a refused CORS preflight's: that kind names what happened to a browser, not what a 403 of the document means.
for (const [kind, status] of Object.entries(errorKinds))
  if (kind !== 'cors_refused' && !kindByStatus.has(status)) kindByStatus.set(status, kind);

export function forcedError(status: number) {
  return {
    code: kindByStatus.get(status) ?? `http_${status}`,
    message: `forced by the request's "Prefer: code=${status}" header`,
    status,
  };
}
