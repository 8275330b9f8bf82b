import type { Operation, Parameter } from '../../openapi/operations.js';
import { describeErrors, joinMessages } from '../../openapi/describe-errors.js';
import { apiError } from '../../errors.js';
import { parameterValue } from '../../openapi/parameter-text.js';

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
 * Converts and validates an operation's parameters. Strings become numbers, booleans or arrays by the rules of
 * parameter-text.ts (the runner's too), then the compiled schema checks range and enum, so an
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
    const read = parameterValue(parameter, values);
    if ('message' in read) throw fail(parameter, read.message);
    const value = read.value;
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

function fail(parameter: Parameter, message: string) {
  if (parameter.in === 'path') return apiError('not_found', `${message}, so it identifies no resource`);
  return apiError('invalid_parameter', message);
}
