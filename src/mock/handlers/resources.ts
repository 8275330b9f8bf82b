import type { OpenAPIV3 } from 'openapi-types';
import type { Context, Handler } from '../front-door/context.js';
import type { Reply } from '../base/reply.js';
import type { ResourceCollection, ResourceModel, ResourceOperation } from '../../openapi/resource-types.js';
import type { CompileSchema } from '../../openapi/operations.js';
import type { ValidateFunction } from '../../openapi/ajv.js';
import { MAX_ITEM_ID, type Item, type ItemId, type ListFilter, type NewItem } from '../store/collection-store.js';
import { ApiError, apiError } from '../../errors.js';
import { isInt64, type Int64 } from '../../json/int64.js';
import { describeErrors } from '../../openapi/describe-errors.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { nounOf } from '../store/collection-rules.js';
import { fillValue } from './fill-value.js';
import type { Completer, CompleterFor } from './complete-required.js';
import { jsonPatch, mergePatch } from './apply-patch.js';
import type { WriteOnlyOmitterFor } from './omit-write-only.js';
import { listEnvelope, type WrapList } from './list-envelope.js';
import { listMaxItems } from '../../openapi/list-wrapper.js';

/** What a role's handler knows of its operation, made once per document model. */
interface Binding {
  collection: ResourceCollection;
  operation: ResourceOperation;
  noun: string;
  /** The parent collection's noun, for a nested collection's 404. */
  parentNoun: string | undefined;
  /**
   * The properties a client may not set: the id, a nested item's parent, and those `readOnly` in the item schema
   * (OpenAPI 3.0 §4.7.24.1).
   */
  notWritable: ReadonlySet<string>;
  /** The assigned properties and their schemas: filled in by the mock on create. */
  assigned: readonly (readonly [string, OpenAPIV3.SchemaObject | undefined])[];
  /** An operation on the item path (for a 201's Location), or undefined when the collection has no item path. */
  itemOperationId: string | undefined;
  /** A create answers `Location`: there is an item path, and the answer is a 201 or declares the header. */
  locates: boolean;
  /** The create's answer holds the item: it declares content (a schema or a media type). */
  answersItem: boolean;
  /** The item schema's validator, for what a merge makes (compiled only for the merge role). */
  validateItem: ValidateFunction | undefined;
  /** A list's most items: its answer schema's `maxItems`; undefined when unbounded. */
  maxItems: number | undefined;
  /** A list's answer made of its items: the array, or the object that holds it (list-envelope.ts). */
  wrap: WrapList | undefined;
  /** A create's refusal of a taken id in the status the document declares for it (IdRule.takenStatus). */
  takenAnswer: (error: unknown) => never;
  /** What is stored, with the members the item schema requires and no request supplied (complete-required.ts). */
  complete: Completer;
}

type RoleHandler = (binding: Binding, context: Context) => Reply | Promise<Reply>;

/**
 * The handlers of every operation with a role, keyed by operationId: one general handler per role, bound to its
 * collection. What has no role is not here (the pipeline serves it from the document's examples, prism-http).
 * @example resourceHandlers(buildResourceModel(spec), spec.compile).listPets
 */
export function resourceHandlers(
  model: ResourceModel,
  compile: CompileSchema,
  writeOnlyOmitter?: WriteOnlyOmitterFor,
  completerFor?: CompleterFor,
): Record<string, Handler> {
  const handlers: Record<string, Handler> = {};
  for (const collection of model.collections) {
    const shape = objectShape(collection.itemSchema);
    // The store assigns these: the id, and a nested item's parent.
    const assignedByStore = new Set([collection.id.property, collection.parent?.property ?? collection.id.property]);
    const complete =
      completerFor && collection.itemSchema ? completerFor(collection.itemSchema, compile, assignedByStore) : asStored;
    const itemOperation = (['read', 'replace', 'merge', 'delete'] as const)
      .map((role) => collection.operations[role])
      .find((operation) => operation !== undefined);
    const parent = collection.parent
      ? model.collections.find((c) => c.name === collection.parent!.collection)
      : undefined;
    for (const operation of Object.values(collection.operations)) {
      const binding: Binding = {
        collection,
        operation,
        noun: nounOf(collection.name),
        parentNoun: parent ? nounOf(parent.name) : undefined,
        notWritable: new Set([
          ...assignedByStore,
          ...Object.entries(shape.properties)
            .filter(([, s]) => s.readOnly === true)
            .map(([n]) => n),
        ]),
        assigned: collection.assigned.map((name) => [name, shape.properties[name]] as const),
        itemOperationId: itemOperation?.operationId,
        locates:
          itemOperation !== undefined &&
          (operation.success.status === 201 || operation.success.headers.some((h) => h.toLowerCase() === 'location')),
        answersItem: operation.success.schema !== undefined || operation.success.mediaType !== undefined,
        validateItem: operation.role === 'merge' && collection.itemSchema ? compile(collection.itemSchema) : undefined,
        maxItems: operation.role === 'list' ? listMaxItems(operation) : undefined,
        wrap: operation.role === 'list' ? listEnvelope(operation, compile) : undefined,
        takenAnswer: takenAnswer(collection),
        complete,
      };
      const serve = ROLE_HANDLERS[operation.role];
      const omit = collection.answersWriteOnly ? writeOnlyOmitter?.(operation.success.schema) : undefined;
      handlers[operation.operationId] = omit
        ? (context) => withBody(serve(binding, context), omit)
        : (context) => serve(binding, context);
    }
  }
  return handlers;
}

/** An item as the request made it: nothing to complete (no completer loaded, or no item schema). */
const asStored: Completer = (item) => item;

/** A reply with its body passed through `change` (a promise of one for a promise). */
function withBody(reply: Reply | Promise<Reply>, change: (body: unknown) => unknown): Reply | Promise<Reply> {
  const apply = (done: Reply): Reply => (done.body === undefined ? done : { ...done, body: change(done.body) });
  return reply instanceof Promise ? reply.then(apply) : apply(reply);
}

/** Rethrows a store's `id_taken` as the document's 400 when it declares 400 and not 409 for the create. */
function takenAnswer(collection: ResourceCollection): (error: unknown) => never {
  return (error) => {
    if (collection.id.takenStatus === 400 && error instanceof ApiError && error.code === 'id_taken') {
      throw apiError('invalid_body', error.message);
    }
    throw error;
  };
}

// `.then` rather than async functions: one promise a request fewer on the path every API call takes.

/**
 * list: at most `limit` items in ascending id order, those matching every filter given (and of the parent), and
 * never more than the answer's schema allows (`maxItems`, JSON Schema 2020-12 validation §6.4.1).
 */
function listItems(binding: Binding, context: Context): Reply | Promise<Reply> {
  const { collection, operation } = binding;
  const query = context.params.query;
  const asked = collection.limit ? (query[collection.limit.parameter] as Int64 | undefined) : undefined;
  const limit = pageSize(asked, binding.maxItems);
  let filters: ListFilter[] | undefined;
  for (const filter of collection.filters) {
    const value = query[filter.parameter];
    if (value === undefined) continue;
    (filters ??= []).push({ property: filter.property, values: filter.many ? (value as unknown[]) : [value] });
  }
  const store = context.store.collection(collection.name);
  const parent = parentIdOf(binding, context);
  const list = () =>
    store
      .list({ limit, filters, parent })
      .then((items) => ({ status: operation.success.status, body: binding.wrap!(items) }));
  return parent === undefined ? list() : checkParent(binding, context, parent).then(list);
}

/**
 * create: the request's declared properties (readOnly ones dropped) and the assigned ones, under the id the client
 * named when the document lets it name one (docs/mock.md, Ids), else a new id.
 */
function createItem(binding: Binding, context: Context): Promise<Reply> {
  const { collection, operation } = binding;
  const stored = binding.complete(createFields(binding, context.body));
  const named = namedId(binding, context.body);
  const parent = parentIdOf(binding, context);
  const store = context.store.collection(collection.name);
  const create = () =>
    store.create(stored, parent, named).then((item): Reply => {
      const id = item[collection.id.property] as ItemId;
      const status = operation.success.status;
      // Literals of a fixed shape, no spreads: the path every create takes.
      if (!binding.locates) return binding.answersItem ? { status, body: item } : { status };
      const headers = { Location: context.urlFor(binding.itemOperationId!, itemPath(binding, context, id)) };
      return binding.answersItem ? { status, headers, body: item } : { status, headers };
    }, binding.takenAnswer);
  return parent === undefined ? create() : checkParent(binding, context, parent).then(create);
}

/**
 * The id the client named in a create's body, when the model says a client names it (IdRule.clientSends); else
 * undefined, and the store assigns one. An int64 id must leave room for the counter above it (at most 2^63 − 2, as
 * a fixture's: check-fixtures.ts), else the body is refused and nothing stored.
 */
function namedId(binding: Binding, body: unknown): ItemId | undefined {
  const { id } = binding.collection;
  if (!id.clientSends || typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[id.property];
  if (value === undefined || value === null) return undefined;
  if (id.kind !== 'int64' && typeof value === 'string') return value;
  if (id.kind === 'int64' && isInt64(value) && value <= MAX_ITEM_ID) return value;
  const rule = id.kind === 'int64' ? `an int64 of at most ${MAX_ITEM_ID} (2^63 − 2)` : 'a string';
  throw apiError('invalid_body', `body.${id.property} must be ${rule}; nothing was stored`);
}

/**
 * The page size: the client's `limit` (the document's bounds already checked by parse-parameters; an int64 past
 * 2^53 arrives as a bigint and means "all"), never below 0, never above the answer's `maxItems`.
 */
function pageSize(asked: Int64 | undefined, maxItems: number | undefined): number | undefined {
  const wanted = asked === undefined ? undefined : asked < 0 ? 0 : Number(asked > MAX_SAFE ? MAX_SAFE : asked);
  if (maxItems === undefined) return wanted;
  return wanted === undefined ? maxItems : Math.min(wanted, maxItems);
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** read: the item, or the document's 404 when no item has that id. */
function readItem(binding: Binding, context: Context): Promise<Reply> {
  const id = itemIdOf(binding, context);
  return parentFirst(binding, context, () =>
    context.store
      .collection(binding.collection.name)
      .get(id, parentIdOf(binding, context))
      .then((item) => {
        if (!item) throw notFound(binding, id);
        return { status: binding.operation.success.status, body: item };
      }),
  );
}

/** replace (PUT): the request's properties replace the item's whole; the id and the assigned ones are kept. */
function replaceItem(binding: Binding, context: Context): Promise<Reply> {
  const fields = writable(binding, context.body);
  return changeItem(binding, context, (current) => {
    for (const [name] of binding.assigned) if (current[name] !== undefined) fields[name] = current[name];
    return binding.complete(fields, current);
  });
}

/**
 * merge (PATCH): an RFC 7396 merge patch (or an RFC 6902 JSON Patch, by Content-Type) applied to the item; the id,
 * the parent's property and readOnly properties cannot be patched. A result the item schema refuses is a 400 and
 * changes nothing.
 */
function mergeItem(binding: Binding, context: Context): Promise<Reply> {
  const contentType = String(context.headers['content-type'] ?? '').toLowerCase();
  const asJsonPatch =
    contentType.startsWith('application/json-patch+json') ||
    (binding.operation.patchFormats.length === 1 && binding.operation.patchFormats[0]!.format === 'json-patch');
  return changeItem(binding, context, (current) => {
    const patched = (
      asJsonPatch ? jsonPatch(current, context.body) : mergePatch(current, writable(binding, context.body, true))
    ) as Record<string, unknown>;
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
      throw apiError('invalid_body', `the patch must leave the ${binding.noun} a JSON object`);
    }
    // What cannot be patched keeps its value (a JSON Patch could have touched it).
    for (const name of binding.notWritable) {
      if (current[name] === undefined) delete patched[name];
      else patched[name] = current[name];
    }
    const validate = binding.validateItem;
    if (validate && !validate(patched)) {
      const [first] = describeErrors(validate.errors, binding.noun);
      throw apiError(
        'invalid_body',
        `the ${binding.noun} after the patch would break its schema: ${first?.message ?? 'invalid'}; nothing was changed`,
      );
    }
    return patched;
  });
}

/**
 * delete: the item is gone (its id never handed out again), and every item nested under it; 204, or 200 with the
 * deleted item when declared.
 */
function deleteItem(binding: Binding, context: Context): Promise<Reply> {
  const id = itemIdOf(binding, context);
  const { success } = binding.operation;
  return parentFirst(binding, context, () =>
    context.store.removeItem(binding.collection.name, id, parentIdOf(binding, context)).then((item) => {
      if (!item) throw notFound(binding, id);
      return success.schema === undefined ? { status: success.status } : { status: success.status, body: item };
    }),
  );
}

const ROLE_HANDLERS: Record<ResourceOperation['role'], RoleHandler> = {
  list: listItems,
  create: createItem,
  read: readItem,
  replace: replaceItem,
  merge: mergeItem,
  delete: deleteItem,
};

function changeItem(binding: Binding, context: Context, change: (current: Item) => NewItem): Promise<Reply> {
  const id = itemIdOf(binding, context);
  const { success } = binding.operation;
  return parentFirst(binding, context, () =>
    context.store
      .collection(binding.collection.name)
      .update(id, change, parentIdOf(binding, context))
      .then((item) => {
        if (!item) throw notFound(binding, id);
        // No body where the answer declares no content (swagger's PUT /user/{username}: 200, a description only),
        // as a create's; never one with a 204 (RFC 9110 §15.3.5).
        const declaresNone = success.schema === undefined && success.mediaType === undefined;
        return declaresNone || success.status === 204
          ? { status: success.status }
          : { status: success.status, body: item };
      }),
  );
}

/**
 * A create's fields: the body itself when it holds nothing to drop and the mock assigns nothing (the store copies
 * what it keeps, and nothing writes to a request's body), else a copy with the assigned members filled in.
 */
function createFields(binding: Binding, body: unknown): Record<string, unknown> {
  if (binding.assigned.length === 0 && keepsEverything(binding, body)) return body as Record<string, unknown>;
  const fields = writable(binding, body);
  for (const [name, schema] of binding.assigned) fields[name] = fillValue(schema);
  return fields;
}

function keepsEverything(binding: Binding, body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const given = body as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (binding.notWritable.has(name) || given[name] === null) return false;
  }
  return true;
}

/** A body's properties a client may set, the others dropped (`keepNull`: a merge patch's null removes). */
function writable(binding: Binding, body: unknown, keepNull = false): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fields;
  const given = body as Record<string, unknown>;
  // Keys, not entries: no pair allocated per member on every create.
  for (const name of Object.keys(given)) {
    if (binding.notWritable.has(name)) continue;
    const value = given[name];
    if (value === null && !keepNull) continue;
    fields[name] = value;
  }
  return fields;
}

function itemIdOf(binding: Binding, context: Context): ItemId {
  // An int64 as parse-parameters gives it: a bigint past ±(2^53−1), looked up exactly.
  return context.params.path[binding.collection.itemParameter!] as ItemId;
}

function parentIdOf(binding: Binding, context: Context): ItemId | undefined {
  const parent = binding.collection.parent;
  return parent ? (context.params.path[parent.parameter] as ItemId) : undefined;
}

/**
 * A nested item is reached through its parent: once the parent is deleted, its items are gone with it (they stay
 * stored, unreachable: docs/decisions.md). A top-level item goes straight on.
 */
function parentFirst(binding: Binding, context: Context, then: () => Promise<Reply>): Promise<Reply> {
  const parent = parentIdOf(binding, context);
  return parent === undefined ? then() : checkParent(binding, context, parent).then(then);
}

/** A nested collection's list or create needs its parent: the document's 404 when no parent item has that id. */
function checkParent(binding: Binding, context: Context, parent: ItemId): Promise<void> {
  return context.store
    .collection(binding.collection.parent!.collection)
    .get(parent)
    .then((item) => {
      if (!item) throw apiError('not_found', `no ${binding.parentNoun} has id ${String(parent)}`);
    });
}

/** The path values of the created item's own URL: the request's (a nested item's parent) and its new id. */
function itemPath(binding: Binding, context: Context, id: ItemId): Record<string, string> {
  const values: Record<string, string> = {};
  const path = context.params.path;
  for (const name in path) values[name] = String(path[name]);
  values[binding.collection.itemParameter!] = String(id);
  return values;
}

function notFound(binding: Binding, id: ItemId) {
  return apiError('not_found', `no ${binding.noun} has id ${String(id)}`);
}
