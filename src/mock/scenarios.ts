import type { OpenAPIV3 } from 'openapi-types';
import type { Spec } from '../openapi/load-spec.js';
import type { Operation } from '../openapi/operations.js';
import type { ValidateFunction } from '../openapi/ajv.js';
import type { Reply } from './context.js';
import type { Preference } from './prefer.js';
import { findResponse, isJsonMediaType } from '../openapi/operations.js';
import { describeErrors, joinMessages } from '../openapi/describe-errors.js';
import { SpecError } from '../openapi/errors.js';
import { apiError, errorKinds } from '../errors.js';
import { REALM } from './authenticate.js';
import { MAX_DELAY_MS } from './faults.js';

/** What one documented response can serve when forced: its named examples and the body served by default. */
interface Servable {
  status: number;
  examples: Map<string, unknown>;
  /** The first named example, else the media type's or the schema's `example`, else undefined. */
  fallback: unknown;
  hasBody: boolean;
  isError: boolean;
}

const RULE = 'code must be a three-digit status the operation documents, delay whole milliseconds from 0 to ' + MAX_DELAY_MS;

/**
 * The scenario stage: `Prefer: code=401`, `Prefer: example=empty` and `Prefer: delay=500` (Prism's convention,
 * RFC 7240, extended with `delay`). For operations with a stateful handler it answers a forced status or example
 * from the document *instead of* the handler, so a forced scenario never touches the store; for operations the
 * prism fallback serves, it only checks the header and leaves the choice to Prism. Every body it can serve is
 * taken from the document and checked against the response schema once, at start-up.
 */
export function createScenarios(spec: Spec, stateful: (operationId: string) => boolean) {
  const tables = new Map<string, Map<string, Servable>>();
  for (const operation of spec.operations) {
    if (stateful(operation.id)) tables.set(operation.id, servableResponses(operation));
  }

  /**
   * Checks the request's preference against the operation; returns the forced reply, or undefined when the
   * operation's own handler (or Prism) is to answer. Throws a 400 `Error` naming the header and the rule.
   */
  return function forceScenario(operation: Operation, preference: Preference): Reply | undefined {
    if (preference.invalid) throw badPrefer(`${preference.invalid} is malformed`);
    if (preference.delay !== undefined && preference.delay > MAX_DELAY_MS) throw badPrefer(`delay=${preference.delay} is over ${MAX_DELAY_MS}`);
    const { code, example } = preference;
    if (code === undefined && example === undefined) return undefined;
    if (code !== undefined && !findResponse(operation, code)) {
      throw badPrefer(`code=${code}: ${operation.id} documents no ${code} response (documented: ${[...operation.responses.keys()].join(', ')})`);
    }
    const table = tables.get(operation.id);
    if (!table) return undefined;
    const servable = code !== undefined ? (table.get(String(code)) ?? rangeServable(table, code)) : findExample(table, example!);
    if (!servable) throw badPrefer(`example=${example}: ${operation.id} documents no example named "${example}" (documented: ${exampleNames(table)})`);
    const applied = [code !== undefined && `code=${code}`, example !== undefined && `example=${example}`].filter(Boolean).join(', ');
    // RFC 7240 §3: say which preferences were honoured.
    const headers: Record<string, string> = { 'Preference-Applied': applied };
    // RFC 9110 §15.5.2: a 401 carries a challenge.
    if (servable.status === 401) headers['WWW-Authenticate'] = REALM;
    if (example !== undefined) {
      if (!servable.examples.has(example)) {
        throw badPrefer(`example=${example}: ${operation.id} documents no example named "${example}" for ${servable.status} (documented: ${[...servable.examples.keys()].join(', ') || 'none'})`);
      }
      return { status: servable.status, headers, body: servable.examples.get(example) };
    }
    if (!servable.hasBody) return { status: servable.status, headers };
    if (servable.fallback !== undefined) return { status: servable.status, headers, body: servable.fallback };
    if (servable.isError) return { status: servable.status, headers, body: forcedError(servable.status) };
    throw badPrefer(`code=${code}: ${operation.id} documents no example for ${code}, so the mock has no body to serve`);
  };
}

export type ForceScenario = ReturnType<typeof createScenarios>;

function servableResponses(operation: Operation): Map<string, Servable> {
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
      examples.set(name, checked((example as OpenAPIV3.ExampleObject).value, validate, `${operation.id} response ${key} example "${name}"`));
    }
    const schemaExample = (media?.schema as OpenAPIV3.SchemaObject | undefined)?.example;
    const single = media?.example ?? schemaExample;
    table.set(key.toUpperCase(), {
      status: status ?? 0,
      examples,
      fallback: examples.values().next().value ?? (single === undefined ? undefined : checked(single, validate, `${operation.id} response ${key} example`)),
      hasBody: media !== undefined,
      isError: media !== undefined && isErrorSchema(validate),
    });
  }
  return table;
}

/** A documented example the response schema rejects would make the mock break its own contract: refuse at start-up. */
function checked(value: unknown, validate: ValidateFunction | undefined, label: string): unknown {
  if (validate && !validate(value)) {
    throw new SpecError(`${label} breaks its schema: ${joinMessages(describeErrors(validate.errors, 'example'))}`);
  }
  return Object.freeze(structuredClone(value));
}

function isErrorSchema(validate: ValidateFunction | undefined): boolean {
  return validate !== undefined && validate(forcedError(400));
}

/** `Prefer: code=418` on an operation documenting `4XX` or `default`: served with that code. */
function rangeServable(table: Map<string, Servable>, code: number): Servable | undefined {
  const range = table.get(`${String(code)[0]}XX`) ?? table.get('DEFAULT');
  return range && { ...range, status: code };
}

/** The example named `name`, searched in documented order among responses with an exact status. */
function findExample(table: Map<string, Servable>, name: string): Servable | undefined {
  for (const servable of table.values()) if (servable.status !== 0 && servable.examples.has(name)) return servable;
  return undefined;
}

function exampleNames(table: Map<string, Servable>): string {
  const names = [...table.values()].flatMap((servable) => [...servable.examples.keys()]);
  return names.join(', ') || 'none';
}

// The code of a forced Error without a documented example: the mock's own kind for that status, if it has one.
const kindByStatus = new Map<number, string>();
for (const [kind, status] of Object.entries(errorKinds)) if (!kindByStatus.has(status)) kindByStatus.set(status, kind);

function forcedError(status: number) {
  return { code: kindByStatus.get(status) ?? `http_${status}`, message: `forced by the request's "Prefer: code=${status}" header`, status };
}

function badPrefer(problem: string) {
  return apiError('invalid_parameter', `header.Prefer ${problem}; ${RULE}`);
}
