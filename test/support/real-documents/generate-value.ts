import fc from 'fast-check';
import { resolvePointer, type Document } from './read-document.js';
import type { Direction } from './independent-validator.js';
import { hiddenData } from './hide-data.js';

/** How deep a generated value may nest before a branch gives up (recursive schemas end here). */
const MAX_DEPTH = 12;

/** `variant` rotates which oneOf/anyOf branch is tried first, for a second attempt when the first is refused. */
export interface GenerateOptions {
  direction: Direction;
  useExamples: boolean;
  variant?: number;
}

/** Thrown when no value can be made for a schema; the message names the schema's keyword. */
export class NoValue extends Error {}

/**
 * A value for a JSON Schema 2020-12 schema (a 3.0 document's schemas rewritten by schema-dialect.ts), written apart
 * from the kit's generators: the schema's own example first when `useExamples` (the caller checks the whole value
 * with the independent validator and asks again without examples when it fails), then the simplest value its
 * keywords allow. Only required properties; `readOnly` ones left out of requests, `writeOnly` ones out of answers.
 */
export function generateValue(document: Document, schema: unknown, options: GenerateOptions): unknown {
  return new ValueGenerator(document, options).value(schema, 0);
}

class ValueGenerator {
  constructor(
    private readonly document: Document,
    private readonly options: GenerateOptions,
  ) {}

  value(raw: unknown, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new NoValue(`nesting deeper than ${MAX_DEPTH}`);
    if (raw === true || raw === undefined) return 'corpus';
    if (raw === false) throw new NoValue('a false schema');
    const schema = this.flatten(raw as Document, depth);
    if (this.options.useExamples) {
      const example = exampleOf(schema);
      if (example !== undefined) return example;
    }
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
    const choice = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(choice)) return this.branch(schema, choice, depth);
    return this.typed(schema, typeOf(schema), depth);
  }

  /** `$ref` and `allOf` folded into one schema: properties and required merged, the other keywords first come first. */
  private flatten(schema: Document, depth: number): Document {
    if (depth > MAX_DEPTH) throw new NoValue(`references deeper than ${MAX_DEPTH}`);
    let merged: Document = { ...schema };
    if (typeof schema.$ref === 'string') {
      const target = resolvePointer(this.document, schema.$ref);
      if (target === undefined) throw new NoValue(`$ref ${schema.$ref} not found`);
      delete merged.$ref;
      merged = mergeSchemas(this.flatten(target as Document, depth + 1), merged);
    }
    if (Array.isArray(schema.allOf)) {
      delete merged.allOf;
      for (const part of schema.allOf) merged = mergeSchemas(merged, this.flatten(part as Document, depth + 1));
    }
    return merged;
  }

  /**
   * A oneOf/anyOf branch: the first that makes a value (from the `variant`-th on), with the discriminator set to the
   * branch's name; for oneOf, made unlike the other branches, since it "MUST, by validation, match exactly one" (OAS
   * 3.0.3 §4.7.25): the discriminator is only a hint to the reader.
   */
  private branch(schema: Document, branches: unknown[], depth: number): unknown {
    const rest = { ...schema };
    delete rest.oneOf;
    delete rest.anyOf;
    const start = this.options.variant ?? 0;
    for (let i = 0; i < branches.length; i++) {
      const index = (start + i) % branches.length;
      const branch = branches[index];
      try {
        const value = this.discriminated(
          schema,
          branch,
          this.value(mergeSchemas(rest, { allOf: [branch] }), depth + 1),
        );
        if (!schema.oneOf) return value;
        return this.unlike(
          value,
          branch,
          branches.filter((_, j) => j !== index),
          depth,
        );
      } catch (error) {
        if (!(error instanceof NoValue)) throw error;
      }
    }
    throw new NoValue('no oneOf/anyOf branch makes a value');
  }

  /**
   * An object value of one branch, given a property of the wrong type for each other branch that would take it too
   * (one the value's branch does not name and does not forbid), so that it matches its own branch only.
   */
  private unlike(value: unknown, mine: unknown, others: unknown[], depth: number): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const own = this.flatten(mine as Document, depth + 1);
    if (own.additionalProperties === false) return value;
    const result = { ...(value as Document) };
    for (const other of others) {
      let theirs: Document;
      try {
        theirs = this.flatten(other as Document, depth + 1);
      } catch {
        continue;
      }
      if (((theirs.required ?? []) as string[]).some((name) => !(name in result))) continue;
      const name = Object.keys(theirs.properties ?? {}).find((n) => !(n in (own.properties ?? {})) && !(n in result));
      if (name === undefined) continue;
      result[name] = typeOf(this.flatten(theirs.properties[name] as Document, depth + 1)) === 'string' ? 0 : 'corpus';
    }
    return result;
  }

  /** OAS 3.1.0 §4.8.25: the discriminator property names the branch, by `mapping` or by the schema's own name. */
  private discriminated(schema: Document, branch: unknown, value: unknown): unknown {
    const discriminator = schema.discriminator as Document | undefined;
    const ref = (branch as Document | undefined)?.$ref;
    if (!discriminator || typeof ref !== 'string' || value === null || typeof value !== 'object') return value;
    const mapping = Object.entries((discriminator.mapping ?? {}) as Record<string, string>);
    const name = mapping.find(([, target]) => target === ref)?.[0] ?? ref.split('/').pop();
    return { ...value, [discriminator.propertyName as string]: name };
  }

  private typed(schema: Document, type: string, depth: number): unknown {
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return true;
      case 'integer':
      case 'number':
        return numberFor(schema, type);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        return stringFor(schema);
    }
  }

  private array(schema: Document, depth: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const count = Math.max(Number(schema.minItems ?? 1), prefix.length);
    const length = Math.min(count, Number(schema.maxItems ?? count));
    return Array.from({ length }, (_, index) => {
      const item = this.value(prefix[index] ?? schema.items, depth + 1);
      // uniqueItems: make primitive items differ by their index.
      return schema.uniqueItems && typeof item === 'string' && index > 0 ? `${item}${index}` : item;
    });
  }

  private object(schema: Document, depth: number): Record<string, unknown> {
    const properties = (schema.properties ?? {}) as Document;
    const result: Record<string, unknown> = {};
    const hidden = this.options.direction === 'request' ? 'readOnly' : 'writeOnly';
    for (const name of (schema.required ?? []) as string[]) {
      const property = properties[name] ?? schema.additionalProperties;
      const flat = property && typeof property === 'object' ? this.flatten(property as Document, depth + 1) : {};
      if (flat[hidden] === true) continue;
      result[name] = this.value(property ?? true, depth + 1);
    }
    for (const name of Object.keys(properties)) {
      if (Object.keys(result).length >= Number(schema.minProperties ?? 0)) break;
      if (!(name in result)) result[name] = this.value(properties[name], depth + 1);
    }
    return result;
  }
}

function exampleOf(schema: Document): unknown {
  const data = hiddenData(schema);
  if (Array.isArray(data.examples) && data.examples.length > 0) return data.examples[0];
  if ('example' in data) return data.example;
  return 'default' in data ? data.default : undefined;
}

function typeOf(schema: Document): string {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== undefined && t !== 'null') ?? types[0];
  if (type !== undefined) return type;
  if (schema.properties || schema.required || schema.additionalProperties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  return 'string';
}

function mergeSchemas(a: Document, b: Document): Document {
  const merged = { ...a, ...b };
  if (a.properties || b.properties) merged.properties = { ...a.properties, ...b.properties };
  if (a.required || b.required) merged.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  if (a.allOf && b.allOf) merged.allOf = [...a.allOf, ...b.allOf];
  return merged;
}

function numberFor(schema: Document, type: string): number {
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : type === 'integer' ? 1 : 0.5;
  let low = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  if (typeof schema.exclusiveMinimum === 'number') low = schema.exclusiveMinimum + step;
  let value = low === undefined ? Math.max(step, 1) : Math.ceil(low / step) * step;
  const high = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - step : schema.maximum;
  if (typeof high === 'number' && value > high) value = Math.floor(high / step) * step;
  return type === 'integer' ? Math.round(value) : value;
}

const FORMATS: Record<string, string> = {
  'date-time': '2024-01-02T03:04:05Z',
  date: '2024-01-02',
  time: '03:04:05Z',
  duration: 'P1D',
  email: 'corpus@example.com',
  'idn-email': 'corpus@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/corpus',
  url: 'https://example.com/corpus',
  'uri-reference': '/corpus',
  iri: 'https://example.com/corpus',
  'iri-reference': '/corpus',
  'uri-template': '/corpus/{id}',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  byte: 'Y29ycHVz',
  regex: '^corpus$',
  'json-pointer': '/corpus',
};

function stringFor(schema: Document): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  if (typeof schema.pattern === 'string') return matching(schema.pattern, schema);
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  return 'corpus'.padEnd(min, 'x').slice(0, max);
}

/** fast-check's stringMatching, seeded so a run repeats; lengths checked by the validator afterwards. */
function matching(pattern: string, schema: Document): string {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    throw new NoValue(`pattern ${pattern} is not a JavaScript regular expression`);
  }
  const max = Number(schema.maxLength ?? Infinity);
  const min = Number(schema.minLength ?? 0);
  const samples = fc.sample(fc.stringMatching(regex), { numRuns: 50, seed: 52 });
  const fits = samples.find((s) => s.length >= min && s.length <= max);
  if (fits === undefined) throw new NoValue(`no string of pattern ${pattern} within its lengths`);
  return fits;
}
