import type { OpenAPIV3 } from 'openapi-types';
import { isSchemaNode, mainType, type SchemaNode } from './schema-keywords.js';
import { arrayItems } from './schema-shape.js';
import type { ResourceOperation } from './resource-types.js';

/** Where a list answer holds its items: the answer itself (a JSON array), or one property of an object (`data`). */
export interface ListShape {
  /** The schema of one listed item. */
  items: OpenAPIV3.SchemaObject;
  /** The property of the answer object that holds the items (`data` in `{data: [...], links: {...}}`), or undefined. */
  wrapper: string | undefined;
}

// allOf compositions nest a few levels in real documents (Train Travel: allOf[Wrapper-Collection, {data}, {links}]);
// the bound only stops a pathological chain, the cycle guard a recursive one.
const MAX_PARTS_DEPTH = 16;

/**
 * How a list answer holds its items. A JSON array holds them itself. An object (`type: object`, or a schema of
 * `allOf` parts without a type) holds them when exactly one of its properties, in any of its `allOf` parts (JSON
 * Schema 2020-12 §10.2.1.1: an instance is valid against every part, so every part's declaration of a property
 * applies), is an array whose items are the collection's item schema `item` — the same schema object (the loader
 * keeps a `$ref` as the very object it names), or one that is an `allOf` part of the other (an item read as
 * `allOf: [Booking, {links}]` and listed as `Booking`). Two such properties, `oneOf`/`anyOf` at the top, or no `item`
 * to compare with: no list, rather than a guess.
 * @example listShape({allOf: [{properties: {data: {type: 'array', items: Booking}}}]}, Booking) // {items: Booking, wrapper: 'data'}
 */
export function listShape(schema: unknown, item: object | undefined): ListShape | undefined {
  const items = arrayItems(schema);
  if (items !== undefined) return { items, wrapper: undefined };
  if (item === undefined || !isSchemaNode(schema) || schema.oneOf || schema.anyOf) return undefined;
  const type = mainType(schema);
  if (type !== undefined && type !== 'object') return undefined;
  const holding = [...propertyDeclarations(schema)].flatMap(([name, declarations]) => {
    const listed = declarations.map(arrayItems).find((each) => each !== undefined && sameItem(each, item));
    return listed === undefined ? [] : [{ name, listed }];
  });
  if (holding.length !== 1) return undefined;
  return { items: holding[0]!.listed, wrapper: holding[0]!.name };
}

/**
 * Every declaration of each property of an object schema, in document order, across its `allOf` parts (each part
 * once: cycle-safe). The wrapper's array is declared by all of them together (`maxItems` in one, `items` in another).
 */
export function propertyDeclarations(schema: unknown): Map<string, OpenAPIV3.SchemaObject[]> {
  const declarations = new Map<string, OpenAPIV3.SchemaObject[]>();
  for (const part of allOfParts(schema)) {
    const properties = part.properties;
    if (!isSchemaNode(properties)) continue;
    for (const [name, property] of Object.entries(properties)) {
      if (!isSchemaNode(property)) continue;
      const known = declarations.get(name) ?? [];
      known.push(property);
      declarations.set(name, known);
    }
  }
  return declarations;
}

/** The most items the wrapper's array may hold: the least `maxItems` any declaration of it gives; undefined if none. */
export function wrapperMaxItems(schema: unknown, wrapper: string): number | undefined {
  const bounds = (propertyDeclarations(schema).get(wrapper) ?? [])
    .flatMap((declaration) => allOfParts(declaration))
    .map((part) => part.maxItems)
    .filter((value): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);
  return bounds.length === 0 ? undefined : Math.min(...bounds);
}

/** A list's most items: its array's `maxItems`, the wrapper's when it has one; undefined when unbounded. */
export function listMaxItems(list: Pick<ResourceOperation, 'success' | 'wrapper'>): number | undefined {
  const schema = list.success.schema;
  if (list.wrapper !== undefined) return wrapperMaxItems(schema, list.wrapper);
  const value = (schema as { maxItems?: unknown } | undefined)?.maxItems;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The items of a list answer's body: the body when the list is no wrapper, else its wrapper property; undefined when
 * the body does not hold an array there.
 * @example listedItems({data: [{id: 1}], links: {}}, 'data') // [{id: 1}]
 */
export function listedItems(body: unknown, wrapper: string | undefined): unknown[] | undefined {
  const held = wrapper === undefined ? body : isSchemaNode(body) ? body[wrapper] : undefined;
  return Array.isArray(held) ? held : undefined;
}

/** A schema and its `allOf` parts, depth first, each schema object once. */
function allOfParts(schema: unknown): SchemaNode[] {
  const parts: SchemaNode[] = [];
  const seen = new Set<SchemaNode>();
  const visit = (node: unknown, depth: number): void => {
    if (!isSchemaNode(node) || seen.has(node) || depth > MAX_PARTS_DEPTH) return;
    seen.add(node);
    parts.push(node);
    if (Array.isArray(node.allOf)) for (const part of node.allOf) visit(part, depth + 1);
  };
  visit(schema, 0);
  return parts;
}

/** Whether two schemas describe one item: the same object, or one is an `allOf` part (at any depth) of the other. */
function sameItem(listed: object, item: object): boolean {
  return allOfParts(item).includes(listed as SchemaNode) || allOfParts(listed).includes(item as SchemaNode);
}
