import type { Operation, Parameter } from '../../openapi/operations.js';
import { describeErrors, joinMessages } from '../../openapi/describe-errors.js';
import { apiError } from '../../errors.js';
import { toInteger } from '../../json/int64.js';

export interface Parameters {
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  header: Record<string, unknown>;
}

export interface RawParameters {
  query: URLSearchParams;
  path: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Converts and validates an operation's parameters. Strings become numbers or booleans by strict rules
 * (`"1.5"`, `" 5"`, `"0x10"` and `""` are not integers), then the compiled schema checks range and enum, so an
 * error names the parameter and the rule. A bad path parameter identifies no resource and answers 404; a bad
 * query or header parameter answers 400.
 */
export function parseParameters(operation: Operation, raw: RawParameters): Parameters {
  // An operation without parameters (createPet) shares one frozen, empty answer.
  if (operation.parameters.length === 0) return NO_PARAMETERS;
  const parsed: Parameters = { query: {}, path: {}, header: {} };
  for (const parameter of operation.parameters) {
    if (parameter.in === 'cookie') continue;
    const values = rawValues(parameter, raw);
    if (values.length === 0) {
      if (parameter.required) throw fail(parameter, `${whereOf(parameter)} is required`);
      if (parameter.default !== undefined) parsed[parameter.in][parameter.name] = parameter.default;
      continue;
    }
    if (values.length > 1 && parameter.type !== 'array') {
      throw fail(parameter, `${whereOf(parameter)} must be given once (got ${values.length} values)`);
    }
    const value = parameter.type === 'array' ? values : convert(values[0]!, parameter.type, parameter);
    if (!parameter.validate(value)) {
      throw fail(parameter, joinMessages(describeErrors(parameter.validate.errors, whereOf(parameter))));
    }
    parsed[parameter.in][parameter.name] = value;
  }
  return parsed;
}

const NO_PARAMETERS: Parameters = Object.freeze({
  query: Object.freeze({}),
  path: Object.freeze({}),
  header: Object.freeze({}),
});

/** `query.limit`: how a message names a parameter; built only when there is something to say. */
function whereOf(parameter: Parameter): string {
  return `${parameter.in}.${parameter.name}`;
}

function rawValues(parameter: Parameter, raw: RawParameters): string[] {
  switch (parameter.in) {
    case 'query':
      return raw.query.getAll(parameter.name);
    case 'path': {
      const value = raw.path[parameter.name];
      return value === undefined ? [] : [value];
    }
    default: {
      const value = raw.headers[parameter.name.toLowerCase()];
      if (value === undefined) return [];
      return Array.isArray(value) ? value : [value];
    }
  }
}

function convert(value: string, type: string | undefined, parameter: Parameter): unknown {
  switch (type) {
    case 'integer':
      // Plain decimal only: no sign but a minus, no leading zeros (`+5` and `007` are not how an integer is written).
      if (!/^(0|-?[1-9]\d*)$/.test(value))
        throw fail(parameter, `${whereOf(parameter)} must be an integer (got ${quote(value)})`);
      // Beyond ±(2^53−1) a bigint with the digits sent (src/json/int64.ts): an int64 `petId` such as 2^53 + 1 finds
      // the pet with exactly that id, never one a double would round it onto (2^53).
      return toInteger(value);
    case 'number': {
      const number = value.trim() === '' ? Number.NaN : Number(value);
      if (!Number.isFinite(number))
        throw fail(parameter, `${whereOf(parameter)} must be a number (got ${quote(value)})`);
      return number;
    }
    case 'boolean':
      if (value !== 'true' && value !== 'false')
        throw fail(parameter, `${whereOf(parameter)} must be true or false (got ${quote(value)})`);
      return value === 'true';
    default:
      return value;
  }
}

function fail(parameter: Parameter, message: string) {
  if (parameter.in === 'path') return apiError('not_found', `${message}, so it identifies no resource`);
  return apiError('invalid_parameter', message);
}

/**
 * A client's value in a message, JSON-quoted; a long one is not quoted at all (an error never grows with the input,
 * and a cut-off prefix of a key put in a parameter would escape the redaction of whole keys in error messages).
 */
function quote(value: string): string {
  return value.length > 40 ? `a value of ${value.length} characters` : JSON.stringify(value);
}
