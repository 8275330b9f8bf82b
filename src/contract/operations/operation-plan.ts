import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { ResourceCollection, ResourceRole } from '../../openapi/resource-types.js';
import { examplesOf, isSchemaNode } from '../../openapi/schema-keywords.js';
import { itemActionOf } from '../../openapi/item-actions.js';
import { linksTo } from './operation-links.js';

/**
 * How the runner can address an operation that takes path parameters, decided from the document alone (plain data,
 * printable, tested on its own): an item of a collection the run creates, an item a list shows, a value the document
 * gives as an example, an item an action acts on (`POST /bookings/{bookingId}/payment`), or, where none of these
 * exists, the reason, in the document's terms. A write (PUT, PATCH,
 * DELETE, a POST under an item) is sent only to items the run created itself: the run never changes what it did not
 * make (docs/contract.md, "Clean-up, and what a run never touches").
 */
export type OperationPlan =
  | {
      kind: 'collection';
      operationId: string;
      role: ResourceRole;
      collection: ResourceCollection;
      item: Source;
      parent?: Source;
      /** A parent's own ancestors, outermost first, each made by the run (`/kennels` for a sticker of a bowl). */
      ancestors?: ResourceCollection[];
    }
  | {
      kind: 'examples';
      operationId: string;
      values: Record<string, string[]>;
      /** Parameters a link gives from another operation's answer, sent first (OpenAPI 3.0.3 §4.7.20). */
      link?: LinkedValues;
    }
  | {
      /**
       * An operation that acts on an item without being one of its collection's roles (`POST
       * /bookings/{bookingId}/payment`: item-actions.ts): sent to items the run makes, like a write to an item.
       */
      kind: 'action';
      operationId: string;
      collection: ResourceCollection;
      item: Source;
      parent?: Source;
      ancestors?: ResourceCollection[];
      /** The item path's parameter names mapped to the operation's own (`bookingId` → `id`), where they differ. */
      names: Record<string, string>;
    }
  | { kind: 'unaddressed'; operationId: string; reason: string };

/** Where an item (or a parent item) comes from. */
export type Source =
  | { from: 'created'; collection: ResourceCollection }
  | { from: 'listed'; collection: ResourceCollection }
  | { from: 'examples'; collection: ResourceCollection; values: string[] }
  | { from: 'none' };

/** A link's source operation, how to address it (the document's examples), and a body pointer per parameter. */
export interface LinkedValues {
  name: string;
  source: string;
  path: Record<string, string[]>;
  pointers: Record<string, string>;
}

/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE = new Set(['get', 'head', 'options']);

/** The plan of every operation with a path parameter (operations without one need none). */
export function operationPlans(spec: Spec): OperationPlan[] {
  return spec.operations.filter(hasPathParameter).map((operation) => planOf(spec, operation));
}

/** A path parameter, at the operation's level or its path's (`/pets/{petId}`): the template names it either way. */
export function hasPathParameter(operation: Operation): boolean {
  return operation.parameters.some((parameter) => parameter.in === 'path') || operation.path.includes('{');
}

function planOf(spec: Spec, operation: Operation): OperationPlan {
  const operationId = operation.id;
  const placed = spec.resources.operations.find((o) => o.operationId === operationId);
  const collection = spec.resources.collections.find((c) => c.name === placed?.collection);
  if (!placed || placed.role === 'none' || !collection) return actionOrExamples(spec, operation, placed?.reason);
  const role = placed.role;
  const safe = SAFE.has(operation.method);
  const onItem = role === 'read' || role === 'replace' || role === 'merge' || role === 'delete';
  if (!onItem) {
    const above = parentsOf(spec, operation, collection, safe);
    if ('reason' in above) return unaddressed(operationId, above.reason);
    return { kind: 'collection', operationId, role, collection, item: { from: 'none' }, ...above };
  }
  const addressed = addressItem(spec, operation, collection, safe);
  if ('reason' in addressed) {
    // A read the model cannot address may still be reached by a link from another operation's answer.
    const linked = safe && addressed.item ? byExamples(spec, operation, undefined) : undefined;
    if (linked?.kind === 'examples') return linked;
    const links = linked?.kind === 'unaddressed' ? /; the links? .*/.exec(linked.reason)?.[0] : undefined;
    return unaddressed(operationId, addressed.reason + (links ?? ''));
  }
  return { kind: 'collection', operationId, role, collection, ...addressed };
}

/**
 * An operation outside the resource model: an action on an item (item-actions.ts) is sent to items the run makes
 * (a safe one keeps the document's examples or links where it gives them, as before: they name items too); any
 * other takes its path parameters from the document's examples and links.
 */
function actionOrExamples(spec: Spec, operation: Operation, roleReason: string | undefined): OperationPlan {
  const action = itemActionOf(spec.resources, operation);
  if (!action) return byExamples(spec, operation, roleReason);
  const safe = SAFE.has(operation.method);
  const examples = safe ? byExamples(spec, operation, roleReason) : undefined;
  if (examples && examples.kind !== 'unaddressed') return examples;
  const body = unbuildableBody(operation);
  if (body) return unaddressed(operation.id, body);
  const addressed = addressItem(spec, operation, action.collection, safe);
  if ('reason' in addressed) return unaddressed(operation.id, addressed.reason);
  return {
    kind: 'action',
    operationId: operation.id,
    collection: action.collection,
    names: action.names,
    ...addressed,
  };
}

/**
 * Why no request to an action can be built from its body: a required body of no JSON media type (the runner builds
 * JSON bodies; an optional one is left out, OpenAPI 3.1 §4.8.13.1: `required` defaults to false).
 */
function unbuildableBody(operation: Operation): string | undefined {
  const body = operation.body;
  if (!body?.required || body.mediaTypes.some((type) => /^application\/(.+\+)?json$/i.test(type))) return undefined;
  return `${operation.method.toUpperCase()} ${operation.path} requires a body of ${body.mediaTypes.join(', ')}, and the runner builds JSON bodies only`;
}

type Above = { parent?: Source; ancestors?: ResourceCollection[] };

/**
 * The parent item (and its own ancestors, outermost first) an operation on `collection` is reached through, or why
 * none can be: an ancestor without a create, or a parent the run can neither make nor (for a safe operation) list
 * or take from the examples.
 */
function parentsOf(
  spec: Spec,
  operation: Operation,
  collection: ResourceCollection,
  safe: boolean,
): Above | { reason: string } {
  const parentCollection = collection.parent
    ? spec.resources.collections.find((c) => c.name === collection.parent!.collection)
    : undefined;
  const ancestors = parentCollection ? ancestorsOf(spec, parentCollection) : [];
  const lacking = ancestors.find((ancestor) => !ancestor.operations.create);
  if (lacking)
    return {
      reason: `${operation.path} sits under ${lacking.path}, and the document declares no create for ${lacking.path} to make the item it is reached through`,
    };
  // Under a parent whose own parent the run makes, the parent is made by the run too.
  const parent = parentCollection
    ? ancestors.length > 0
      ? parentCollection.operations.create
        ? ({ from: 'created', collection: parentCollection } as const)
        : ({ from: 'none' } as const)
      : sourceOf(spec, parentCollection, safe, collection.parent!.parameter)
    : undefined;
  if (parent?.from === 'none')
    return { reason: noItemReason(operation, parentCollection!, collection.parent!.parameter, safe) };
  return { ...(parent ? { parent } : {}), ...(ancestors.length > 0 ? { ancestors } : {}) };
}

/**
 * The item of `collection` an operation on one item is sent to, and what it is reached through; or why none can be
 * had (`item` set when the parents were found and only the item lacks a source).
 */
function addressItem(
  spec: Spec,
  operation: Operation,
  collection: ResourceCollection,
  safe: boolean,
): (Above & { item: Source }) | { reason: string; item?: 'none' } {
  const above = parentsOf(spec, operation, collection, safe);
  if ('reason' in above) return above;
  // An item made by the run needs its parent made by the run too (a child is never added under another's item).
  const createdUnder = !above.parent || above.parent.from === 'created';
  const item = sourceOf(spec, collection, safe, collection.itemParameter!, createdUnder);
  if (item.from === 'none')
    return { reason: noItemReason(operation, collection, collection.itemParameter!, safe), item: 'none' };
  return { ...above, item };
}

/** The collections above `collection` (not itself), outermost first. */
function ancestorsOf(spec: Spec, collection: ResourceCollection): ResourceCollection[] {
  const found: ResourceCollection[] = [];
  const seen = new Set<ResourceCollection>([collection]);
  let at = collection;
  while (at.parent) {
    const up = spec.resources.collections.find((c) => c.name === at.parent!.collection);
    if (!up || seen.has(up)) break;
    found.unshift(up);
    seen.add(up);
    at = up;
  }
  return found;
}

/**
 * Where items of `collection` come from for an operation: created by the run (it has a create), else, for a safe
 * operation only, listed (it has a list) or the document's examples of `parameter`.
 */
function sourceOf(
  spec: Spec,
  collection: ResourceCollection,
  safe: boolean,
  parameter: string,
  mayCreate = true,
): Source {
  if (mayCreate && collection.operations.create) return { from: 'created', collection };
  if (!safe) return { from: 'none' };
  if (collection.operations.list) return { from: 'listed', collection };
  const values = examplesOfParameter(spec, collection, parameter);
  return values.length > 0 ? { from: 'examples', collection, values } : { from: 'none' };
}

/** Why no item of `collection` can be addressed, in the document's terms. */
function noItemReason(operation: Operation, collection: ResourceCollection, parameter: string, safe: boolean): string {
  if (!safe)
    return `${operation.method.toUpperCase()} ${operation.path} writes to an item of ${collection.path}, and the document declares no create for ${collection.path} (a run writes only to items it made)`;
  return `${parameter}: the document declares no create and no list for ${collection.path} and gives no example of ${parameter}`;
}

function unaddressed(operationId: string, reason: string): OperationPlan {
  return { kind: 'unaddressed', operationId, reason };
}

/**
 * An operation outside the resource model: each path parameter from the document's examples (OpenAPI 3.0.3
 * §4.7.12: a parameter's `example` and `examples`, its schema's `example`, `enum`, `default`), and those without one
 * from a link (§4.7.20) whose source operation is safe and addressed by examples alone: the source is sent first,
 * and its answer gives the values. A write is never sent with them (they name items the run did not make).
 */
function byExamples(spec: Spec, operation: Operation, roleReason: string | undefined): OperationPlan {
  const operationId = operation.id;
  const names = pathParameterNames(operation);
  const values: Record<string, string[]> = {};
  const missing: string[] = [];
  for (const name of names) {
    const found = parameterExamples(spec, operation, name);
    if (found.length > 0) values[name] = found;
    else missing.push(name);
  }
  const outside = roleReason ? ` (it fits no collection: ${roleReason})` : '';
  if (!SAFE.has(operation.method))
    return unaddressed(
      operationId,
      `${operation.method.toUpperCase()} ${operation.path} writes, and its path parameters come only from the document's examples${missing.length > 0 ? ' and links' : ''}, which name items the run did not make${outside}`,
    );
  if (missing.length === 0) return { kind: 'examples', operationId, values };
  const links = linksTo(spec, operationId).filter((link) => missing.every((name) => name in link.parameters));
  for (const link of links) {
    const source = spec.operationById.get(link.source);
    const path = source && SAFE.has(source.method) ? examplesOfEvery(spec, source) : undefined;
    if (path) return { kind: 'examples', operationId, values, link: { ...link, path, pointers: link.parameters } };
  }
  const linked =
    links.length > 0
      ? `; the link${links.length === 1 ? '' : 's'} ${links.map((l) => `${l.name} from ${l.source}`).join(', ')} that give${links.length === 1 ? 's' : ''} ${missing.length === 1 ? 'it' : 'them'} start${links.length === 1 ? 's' : ''} where no request reaches either`
      : '';
  return unaddressed(
    operationId,
    `${missing.join(', ')}: the document gives no example, enum or default for ${missing.length === 1 ? 'it' : 'them'}${linked}${outside}`,
  );
}

/** Every path parameter of `operation` from the document's examples, or undefined when one has none. */
function examplesOfEvery(spec: Spec, operation: Operation): Record<string, string[]> | undefined {
  const values: Record<string, string[]> = {};
  for (const name of pathParameterNames(operation)) {
    const found = parameterExamples(spec, operation, name);
    if (found.length === 0) return undefined;
    values[name] = found;
  }
  return values;
}

/** The path parameters the operation's template names, in order. */
export function pathParameterNames(operation: Operation): string[] {
  return [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/**
 * The parameter object of `operation` named `name` in the path: its own, else its path item's (OpenAPI 3.0.3 §4.7.9:
 * path-level parameters apply to every operation under the path unless overridden).
 */
function pathParameterObject(spec: Spec, operation: Operation, name: string): Record<string, unknown> | undefined {
  const own = (operation.object.parameters ?? []) as unknown as Record<string, unknown>[];
  const item = spec.document.paths?.[operation.path] as { parameters?: unknown[] } | undefined;
  const shared = (item?.parameters ?? []) as Record<string, unknown>[];
  return [...own, ...shared].find((p) => p.name === name && p.in === 'path');
}

/** The values the document gives for one path parameter of `operation`, as text, without repeats. */
export function parameterExamples(spec: Spec, operation: Operation, name: string): string[] {
  const parameter = pathParameterObject(spec, operation, name);
  if (!parameter) return [];
  const found: unknown[] = [];
  if ('example' in parameter) found.push(parameter.example);
  if (isSchemaNode(parameter.examples))
    for (const example of Object.values(parameter.examples))
      if (isSchemaNode(example) && 'value' in example) found.push(example.value);
  const schema = parameter.schema;
  found.push(...examplesOf(schema));
  if (isSchemaNode(schema)) {
    if (Array.isArray(schema.enum)) found.push(...(schema.enum as unknown[]));
    if ('const' in schema) found.push(schema.const);
    if ('default' in schema) found.push(schema.default);
  }
  const texts = found.flatMap((value) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
      ? [String(value)]
      : [],
  );
  return [...new Set(texts)];
}

/** The examples of a collection's item (or parent) parameter, from any operation that takes it. */
function examplesOfParameter(spec: Spec, collection: ResourceCollection, parameter: string): string[] {
  const paths = [collection.itemPath, collection.path].filter((p): p is string => p !== undefined);
  const operations = spec.operations.filter((o) => paths.includes(o.path));
  return [...new Set(operations.flatMap((o) => parameterExamples(spec, o, parameter)))];
}
