import type { ErrorObject } from 'ajv';

/** One schema violation: where (`body.categoryId`, `query.limit`), which rule, and a sentence naming both. */
export interface Violation {
  path: string;
  rule: string;
  message: string;
  /**
   * Where the rule is written, for reports that show it: its place in the document when the document wrote it
   * (`#/components/schemas/NewPet/properties/categoryId/type`, schema-compiler.ts), else AJV's path.
   */
  schemaPath?: string;
}

/**
 * Turns AJV errors into violations whose messages name the field and the rule, rooted at `where`
 * (`body`, `query.limit`, `response`).
 * @example describeErrors(validate.errors, 'body') // [{ path: 'body.name', rule: 'required', message: 'body.name is required' }]
 */
export function describeErrors(errors: ErrorObject[] | null | undefined, where: string): Violation[] {
  if (!errors) return [];
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    const violation = describeError(error, where);
    // allOf/anyOf repeat the same failure for each branch; say it once.
    if (!violation || seen.has(violation.message)) continue;
    seen.add(violation.message);
    violations.push({ ...violation, schemaPath: error.schemaPath });
  }
  // A failure whose every error is a combinator's (no branch said why): say the first rather than nothing.
  const first = errors[0];
  if (violations.length === 0 && first) {
    const base = where + jsonPointerToPath(first.instancePath);
    violations.push({
      path: base,
      rule: first.keyword,
      message: `${base} ${first.message ?? 'is invalid'}`,
      schemaPath: first.schemaPath,
    });
  }
  return violations;
}

function describeError(error: ErrorObject, where: string): Violation | undefined {
  const base = where + jsonPointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const path = `${base}.${String(params.missingProperty)}`;
      return { path, rule: 'required', message: `${path} is required` };
    }
    case 'type':
      return { path: base, rule: 'type', message: `${base} must be ${article(String(params.type))}` };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      return { path: base, rule: 'enum', message: `${base} must be one of ${allowed}` };
    }
    case 'format':
      return {
        path: base,
        rule: 'format',
        message: `${base} must match format "${String(params.format)}"${formatHint(params.format)}`,
      };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        path: base,
        rule: error.keyword,
        message: `${base} must be ${String(params.comparison)} ${String(params.limit)}`,
      };
    case 'additionalProperties': {
      const path = `${base}.${String(params.additionalProperty)}`;
      return { path, rule: 'additionalProperties', message: `${path} is not allowed` };
    }
    case 'oneOf': {
      // More than one branch passed (JSON Schema 2020-12 Core §10.2.1.3): no branch failed, so no branch error says
      // why; without this line the Error's message would be empty.
      const passing = params.passingSchemas;
      if (!Array.isArray(passing)) return undefined;
      return {
        path: base,
        rule: 'oneOf',
        message: `${base} must match exactly one schema in oneOf, but matches branches ${passing.join(' and ')}`,
      };
    }
    case 'if':
    case 'allOf':
    case 'anyOf':
      // The branch errors that caused these are reported on their own.
      return undefined;
    default:
      return { path: base, rule: error.keyword, message: `${base} ${error.message ?? 'is invalid'}` };
  }
}

function jsonPointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
}

function article(type: string): string {
  const types = type.split(',');
  const named = types.map((t) => (t === 'integer' || t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`));
  return named.join(' or ');
}

function formatHint(format: unknown): string {
  return format === 'int64'
    ? ' (an integer from -9223372036854775808 to 9223372036854775807, in plain digits beyond ±(2^53-1))'
    : '';
}

/** All violations as one message, for an Error body. */
export function joinMessages(violations: Violation[]): string {
  return violations.map((v) => v.message).join('; ');
}
