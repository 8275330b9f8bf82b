import { flatten, type SchemaLike } from './json-schema.js';

/**
 * A schema as a request must follow it: `readOnly` properties left out, and not required (OpenAPI 3.0 §4.7.25.4:
 * a readOnly property "SHOULD NOT be sent as part of the request"; if required, "the required property applies to
 * the response only"). Nested objects and array items alike. The generators send, and break, only what a client may.
 */
export function requestView(input: SchemaLike, views = new Map<object, SchemaLike>()): SchemaLike {
  // A recursive schema (a Node whose children are Nodes: the loader shares the object a $ref names) has a
  // recursive view: each schema's view is made once, and named before its parts are, so a cycle ends.
  const known = views.get(input);
  if (known) return known;
  const schema = flatten(input);
  const view: SchemaLike = { ...schema };
  views.set(input, view);
  // flatten() keeps the first part's `type`; every part's type still applies (2020-12 Core §10.2.1.1), so each is
  // kept beside the view: allOf [string, integer] stays a schema no value satisfies, not a string.
  const typed = schema === input ? [] : typedParts(input);
  if (typed.length > 1) view.allOf = typed.map((part) => ({ type: part.type }));
  if (schema.properties) {
    const kept = Object.entries(schema.properties).filter(([, property]) => !isReadOnly(property));
    view.properties = Object.fromEntries(kept.map(([name, property]) => [name, requestView(property, views)]));
    if (schema.required) view.required = schema.required.filter((name) => name in view.properties!);
  }
  if (schema.items) view.items = requestView(schema.items, views);
  return view;
}

function isReadOnly(schema: SchemaLike): boolean {
  return (schema as { readOnly?: boolean }).readOnly === true;
}

/** The parts of an allOf (its own allOfs too, each once) that name a type. */
function typedParts(input: SchemaLike, seen = new Set<SchemaLike>()): SchemaLike[] {
  if (seen.has(input)) return [];
  seen.add(input);
  const own = input.type !== undefined ? [input] : [];
  return [...own, ...(input.allOf ?? []).flatMap((part) => typedParts(part, seen))];
}
