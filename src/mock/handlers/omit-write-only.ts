import { isSchemaNode, type SchemaNode } from '../../openapi/schema-keywords.js';

/**
 * A `writeOnly` property "MAY be sent as part of a request but SHOULD NOT be sent as part of the response" (OAS 3.0.3
 * §4.7.25; 3.1 reads JSON Schema 2020-12 Validation §9.4 the same way). The mock keeps what a client sent (a password,
 * a card number) and answers from what it keeps: this takes such members out of an answer, following the answer's
 * schema through `properties`, `items` and the parts of `allOf`/`oneOf`/`anyOf`. A document whose answers mark
 * nothing writeOnly (v1's; the resource model says so, `answersWriteOnly`) never loads this module
 * (document-model.ts): its answers are sent as stored, their JSON text cached.
 * @example writeOnlyOmitter(userSchema)({ id: 1, name: 'a', password: 's' }) // { id: 1, name: 'a' }
 */
export function writeOnlyOmitter(schema: unknown): (body: unknown) => unknown {
  return (body) => omitIn(body, [schema], 0);
}

/** What resourceHandlers takes to leave writeOnly members out of the answers of one operation. */
export type WriteOnlyOmitterFor = typeof writeOnlyOmitter;

/** Deeper than any answer the mock builds from a document; a guard, not a limit anyone meets. */
const MAX_DEPTH = 64;

/** `value` without the members the schemas (all of which describe it) mark writeOnly; `value` itself when none. */
function omitIn(value: unknown, schemas: readonly unknown[], depth: number): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  const parts = schemas.flatMap((schema) => partsOf(schema, 0));
  if (Array.isArray(value)) {
    const itemSchemas = parts.map((part) => part.items).filter(isSchemaNode);
    if (itemSchemas.length === 0) return value;
    let changed = false;
    const items = value.map((item) => {
      const omitted = omitIn(item, itemSchemas, depth + 1);
      if (omitted !== item) changed = true;
      return omitted;
    });
    return changed ? items : value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [name, member] of Object.entries(record)) {
    const memberSchemas = parts
      .map((part) => (isSchemaNode(part.properties) ? part.properties[name] : undefined))
      .filter(isSchemaNode);
    if (memberSchemas.length === 0) continue;
    if (memberSchemas.some((schema) => schema.writeOnly === true)) {
      copy ??= { ...record };
      delete copy[name];
      continue;
    }
    const omitted = omitIn(member, memberSchemas, depth + 1);
    if (omitted === member) continue;
    copy ??= { ...record };
    copy[name] = omitted;
  }
  return copy ?? value;
}

/** A schema and the parts of its `allOf`, `oneOf` and `anyOf`, which all may describe the same value. */
function partsOf(schema: unknown, depth: number): SchemaNode[] {
  if (!isSchemaNode(schema) || depth > MAX_DEPTH) return [];
  const parts = [schema];
  for (const keyword of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const part of list) parts.push(...partsOf(part, depth + 1));
  }
  return parts;
}
