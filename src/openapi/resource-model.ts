import type { OpenAPIV3 } from 'openapi-types';
import { mainType, someSchema } from './schema-keywords.js';
import { DocumentError } from '../input-errors.js';
import type { Operation } from './operations.js';
import { arrayItems, objectShape } from './schema-shape.js';
import { listShape } from './list-wrapper.js';
import {
  jsonRequest,
  notFoundAnswer,
  optedOut,
  patchFormats,
  patchRequest,
  roleOf,
  ROLE_EXTENSION,
  successAnswer,
  type PathPlace,
} from './resource-roles.js';
import type {
  Filter,
  IdKind,
  IdRule,
  LimitRule,
  OperationRole,
  ParentLink,
  ResourceCollection,
  ResourceModel,
  ResourceOperation,
  ResourceRole,
} from './resource-types.js';

export type * from './resource-types.js';
export { ROLE_EXTENSION } from './resource-roles.js';

/** Names the id property where the convention fails: on the collection's or the item's path item. */
export const ID_EXTENSION = 'x-petstore-kit-id';

/** What buildResourceModel reads of a Spec (so the browser build and tests can hand in just this). */
export interface ModelInputs {
  document: OpenAPIV3.Document;
  operations: Operation[];
}

interface PathCandidate {
  path: string;
  itemPath: string | undefined;
  itemParameter: string | undefined;
  /** The item path that prefixes a nested collection (`/pets/{petId}`), and its last parameter. */
  parentItemPath: string | undefined;
  parentParameter: string | undefined;
}

/**
 * The document's resources: every pair of paths `/X` and `/X/{param}` is a collection and its items (a lone `/X`
 * with both POST and a GET answering an array is one too); a collection under an item path belongs to that item's
 * collection. Every operation gets a role from its method and place (POST/GET on the collection: create/list;
 * GET/PUT/PATCH/DELETE on the item: read/replace/merge/delete) or `none` with the reason. Computed once when the
 * document loads; plain data.
 * @example buildResourceModel(spec).collections[0] // { name: 'pets', path: '/pets', itemPath: '/pets/{petId}', … }
 */
export function buildResourceModel(spec: ModelInputs): ResourceModel {
  const byPath = operationsByPath(spec.operations);
  const candidates = findCollections(spec.document, byPath);
  const collections: ResourceCollection[] = [];
  const roles = new Map<Operation, OperationRole>();
  const unplaced = new Map<Operation, string>();
  for (const candidate of candidates) {
    const parent = candidate.parentItemPath
      ? collections.find((c) => c.itemPath === candidate.parentItemPath)
      : undefined;
    const operations = [
      ...(byPath.get(candidate.path) ?? []).map((o) => [o, 'collection'] as const),
      ...(candidate.itemPath ? (byPath.get(candidate.itemPath) ?? []) : []).map((o) => [o, 'item'] as const),
    ];
    if (candidate.parentItemPath && !parent) {
      const reason = `${candidate.path} sits under ${candidate.parentItemPath}, which is the item path of no collection`;
      for (const [operation] of operations) unplaced.set(operation, reason);
      continue;
    }
    const built = buildCollection(spec.document, candidate, parent, operations, collections);
    if (typeof built === 'string') {
      for (const [operation] of operations) unplaced.set(operation, built);
      continue;
    }
    if (built.collection) collections.push(built.collection);
    for (const [operation, role] of built.roles) roles.set(operation, role);
  }
  return {
    collections,
    operations: spec.operations.map(
      (operation) =>
        roles.get(operation) ?? {
          ...where(operation),
          role: 'none',
          collection: undefined,
          reason: unplaced.get(operation) ?? noCollectionReason(operation),
        },
    ),
  };
}

function operationsByPath(operations: Operation[]): Map<string, Operation[]> {
  const byPath = new Map<string, Operation[]>();
  for (const operation of operations) {
    const list = byPath.get(operation.path) ?? [];
    list.push(operation);
    byPath.set(operation.path, list);
  }
  return byPath;
}

const TEMPLATE = /^\{([^{}]+)\}$/;

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/**
 * The collection paths, parents before their nested collections: `/X` (last segment literal) with an item path
 * `/X/{param}`, or with POST and a GET that answers an array. The item path of `/X` is the one `/X/{param}` path
 * the document has (two, `/X/{a}` and `/X/{b}`, cannot both be routed, so the first is taken).
 */
function findCollections(document: OpenAPIV3.Document, byPath: Map<string, Operation[]>): PathCandidate[] {
  const paths = Object.keys(document.paths ?? {});
  const candidates: PathCandidate[] = [];
  const seen = new Set<string>();
  const consider = (path: string, itemPath: string | undefined): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const segments = segmentsOf(path);
    let parentEnd = -1;
    for (let i = segments.length - 1; i >= 0; i--) {
      if (TEMPLATE.test(segments[i]!)) {
        parentEnd = i;
        break;
      }
    }
    const parentItemPath = parentEnd >= 0 ? '/' + segments.slice(0, parentEnd + 1).join('/') : undefined;
    candidates.push({
      path,
      itemPath,
      itemParameter: itemPath ? TEMPLATE.exec(segmentsOf(itemPath).at(-1)!)![1] : undefined,
      parentItemPath,
      parentParameter: parentEnd >= 0 ? TEMPLATE.exec(segments[parentEnd]!)![1] : undefined,
    });
  };
  // Item paths first, so that a collection with both an item path and a list + create pair keeps its item path.
  for (const path of paths) {
    const segments = segmentsOf(path);
    const last = segments.at(-1);
    const before = segments.at(-2);
    if (last !== undefined && TEMPLATE.test(last) && before !== undefined && !TEMPLATE.test(before)) {
      consider('/' + segments.slice(0, -1).join('/'), path);
    }
  }
  for (const path of paths) {
    const last = segmentsOf(path).at(-1);
    if (last !== undefined && !TEMPLATE.test(last) && isListAndCreate(byPath.get(path) ?? [])) {
      consider(path, undefined);
    }
  }
  // Parents first: a nested collection's path is longer than its parent's item path.
  return candidates.sort((a, b) => segmentsOf(a.path).length - segmentsOf(b.path).length);
}

function isListAndCreate(operations: Operation[]): boolean {
  const get = operations.find((o) => o.method === 'get');
  const post = operations.find((o) => o.method === 'post');
  if (!get || !post) return false;
  return listShape(successAnswer(get, 'list')?.schema, successAnswer(post, 'create')?.schema) !== undefined;
}

function buildCollection(
  document: OpenAPIV3.Document,
  candidate: PathCandidate,
  parentCollection: ResourceCollection | undefined,
  operations: (readonly [Operation, PathPlace])[],
  siblings: ResourceCollection[],
): { collection: ResourceCollection | undefined; roles: [Operation, OperationRole][] } | string {
  const at = (role: ResourceRole): Operation | undefined =>
    operations.find(([o, place]) => !optedOut(o) && roleOf(o.method, place) === role && !readsArray(o, role))?.[0];
  const reference = itemReference(at);
  const itemSchema = itemSchemaOf(at, reference);
  const shape = itemSchema ? objectShape(itemSchema) : undefined;
  const itemProperties = shape?.known ? Object.keys(shape.properties) : undefined;
  const found = idRule(document, candidate, shape?.known ? shape : undefined);
  if (typeof found === 'string') return found;
  const parent: ParentLink | undefined = parentCollection
    ? {
        collection: parentCollection.name,
        parameter: candidate.parentParameter!,
        property:
          itemProperties?.includes(candidate.parentParameter!) && candidate.parentParameter !== found.property
            ? candidate.parentParameter
            : undefined,
      }
    : undefined;
  const name = uniqueName(candidate.path, siblings);
  const { roleOperations, roles } = rolesOf(operations, reference, name);
  // A collection no operation acts on holds nothing the mock could serve: each operation keeps why it has no role.
  if (Object.keys(roleOperations).length === 0) return { collection: undefined, roles };
  const id: IdRule = { ...found, ...clientIds(roleOperations.create, shape, found.property) };
  const list = roleOperations.list;
  const listOperation = list ? operations.find(([o]) => o.id === list.operationId)?.[0] : undefined;
  const query = listOperation ? queryParameters(document, listOperation, itemProperties) : undefined;
  const createProperties = roleOperations.create?.request?.properties ?? [];
  const assigned = (shape?.required ?? []).filter(
    (property) =>
      property !== id.property &&
      property !== parent?.property &&
      (!createProperties.includes(property) || shape?.properties[property]?.readOnly === true),
  );
  return {
    collection: {
      name,
      path: candidate.path,
      itemPath: candidate.itemPath,
      itemParameter: candidate.itemParameter,
      parent,
      id,
      itemSchema,
      itemProperties,
      assigned,
      operations: roleOperations,
      filters: query?.filters ?? [],
      limit: query?.limit,
      ignoredParameters: query?.ignored ?? [],
      answersWriteOnly: Object.values(roleOperations).some((operation) =>
        someSchema(operation.success.schema, (schema) => schema.writeOnly === true),
      ),
      completesItems: mayLackMembers(itemSchema),
    },
    roles,
  };
}

/** Each operation of a path pair with its role in collection `name`, or none and why. */
function rolesOf(
  operations: (readonly [Operation, PathPlace])[],
  reference: ReturnType<typeof itemReference>,
  name: string,
): { roleOperations: Partial<Record<ResourceRole, ResourceOperation>>; roles: [Operation, OperationRole][] } {
  const roleOperations: Partial<Record<ResourceRole, ResourceOperation>> = {};
  const roles: [Operation, OperationRole][] = [];
  for (const [operation, place] of operations) {
    const classified = classify(operation, place, reference);
    if (typeof classified === 'string') {
      roles.push([operation, { ...where(operation), role: 'none', collection: undefined, reason: classified }]);
      continue;
    }
    roleOperations[classified.role] = classified;
    roles.push([
      operation,
      {
        ...where(operation),
        role: classified.role,
        collection: name,
        reason: `${operation.method.toUpperCase()} on the ${place} path of ${name}`,
      },
    ]);
  }
  return { roleOperations, roles };
}

/** Whether an item of `itemSchema` may be stored without a member it requires (ResourceCollection.completesItems). */
function mayLackMembers(itemSchema: unknown): boolean {
  if (itemSchema === undefined) return false;
  const shape = objectShape(itemSchema);
  if (!shape.known || shape.required.some((name) => shape.properties[name] === undefined)) return true;
  return Object.values(shape.properties).some(
    (schema) => schema.allOf || schema.oneOf || schema.anyOf || !PLAIN_TYPES.has(mainType(schema) ?? ''),
  );
}

const PLAIN_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/**
 * A GET on an item path whose success answer is a JSON array reads no one item (`GET /repositories/{owner}` lists an
 * owner's repositories): it has no role, and its answer is not taken for the item's schema.
 */
function readsArray(operation: Operation, role: ResourceRole): boolean {
  return role === 'read' && arrayItems(successAnswer(operation, 'read')?.schema) !== undefined;
}

/**
 * Whether the client names the id (the create's body declares the id property, `readOnly` nowhere: OpenAPI 3.0.3
 * §4.7.24.1 says a readOnly property SHOULD NOT be sent), and the status of a taken one: the create's declared 409,
 * else its declared 400, else 409 (RFC 9110 §15.5.10: a conflict with the target resource's current state).
 */
function clientIds(
  create: ResourceOperation | undefined,
  itemShape: { properties: Record<string, OpenAPIV3.SchemaObject> } | undefined,
  property: string,
): Pick<IdRule, 'clientSends' | 'takenStatus'> {
  const requestSchema = create?.request?.schema;
  const requested = requestSchema ? objectShape(requestSchema).properties[property] : undefined;
  const clientSends =
    requested !== undefined && requested.readOnly !== true && itemShape?.properties[property]?.readOnly !== true;
  const statuses = create?.statuses ?? [];
  const takenStatus = statuses.includes('400') && !statuses.includes('409') ? 400 : 409;
  return { clientSends, takenStatus };
}

function where(operation: Operation): { operationId: string; method: string; path: string } {
  return { operationId: operation.id, method: operation.method, path: operation.path };
}

/** The literal segments joined by `/` (`pets/photos`); the whole path when two collections would share a name. */
function uniqueName(path: string, siblings: ResourceCollection[]): string {
  const name = segmentsOf(path)
    .filter((segment) => !TEMPLATE.test(segment))
    .join('/');
  return siblings.some((c) => c.name === name) ? path.replace(/^\//, '') : name;
}

/**
 * One item as an operation on one item answers it: read's success schema, else create's, replace's or merge's. A list
 * wrapped in an object is told from the object's other members by it (list-wrapper.ts).
 */
function itemReference(at: (role: ResourceRole) => Operation | undefined): object | undefined {
  for (const role of ['read', 'create', 'replace', 'merge'] as const) {
    const operation = at(role);
    const schema = operation && successAnswer(operation, role)?.schema;
    if (schema !== undefined) return schema;
  }
  return undefined;
}

/** An item as answered: read's success schema, else create's, else the list's items, else replace's. */
function itemSchemaOf(
  at: (role: ResourceRole) => Operation | undefined,
  reference: object | undefined,
): object | undefined {
  const read = at('read');
  const create = at('create');
  const list = at('list');
  const replace = at('replace');
  return (
    (read && successAnswer(read, 'read')?.schema) ??
    (create && successAnswer(create, 'create')?.schema) ??
    (list && listShape(successAnswer(list, 'list')?.schema, reference)?.items) ??
    (replace && successAnswer(replace, 'replace')?.schema) ??
    undefined
  );
}

/**
 * The id property: named by `x-petstore-kit-id` on the collection's or the item's path item, else by convention —
 * a parameter `id`, or one ending in `Id`/`_id` (`petId`, `order_id`), means the item's `id`; else the property
 * named like the parameter. The item schema must declare it when its shape is known.
 */
function idRule(
  document: OpenAPIV3.Document,
  candidate: PathCandidate,
  shape: { properties: Record<string, OpenAPIV3.SchemaObject> } | undefined,
): Omit<IdRule, 'clientSends' | 'takenStatus'> | string {
  const named = extensionId(document, candidate);
  const parameter = candidate.itemParameter;
  if (named !== undefined) {
    if (shape && !(named in shape.properties)) {
      throw new DocumentError(
        `paths.${candidate.itemPath ?? candidate.path}.${ID_EXTENSION} names "${named}", which the item schema of ${candidate.path} does not declare (it declares ${Object.keys(shape.properties).join(', ') || 'no property'})`,
      );
    }
    return { property: named, kind: idKind(shape?.properties[named], document, candidate), source: 'extension' };
  }
  const conventional =
    parameter === undefined || parameter === 'id' || /(Id|_id|ID|-id)$/.test(parameter) ? ['id'] : [];
  if (parameter !== undefined && parameter !== 'id') conventional.push(parameter);
  const property = shape ? conventional.find((name) => name in shape.properties) : conventional[0];
  if (property === undefined) {
    return `its item schema declares none of ${conventional.map((n) => `"${n}"`).join(', ')} to hold the id; name the property with ${ID_EXTENSION}`;
  }
  return { property, kind: idKind(shape?.properties[property], document, candidate), source: 'convention' };
}

function extensionId(document: OpenAPIV3.Document, candidate: PathCandidate): string | undefined {
  const read = (path: string | undefined): unknown =>
    path === undefined ? undefined : (document.paths?.[path] as Record<string, unknown> | undefined)?.[ID_EXTENSION];
  const onCollection = read(candidate.path);
  const onItem = read(candidate.itemPath);
  for (const [path, value] of [
    [candidate.path, onCollection],
    [candidate.itemPath, onItem],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new DocumentError(
        `paths.${path}.${ID_EXTENSION} must be a property name (a string), not ${JSON.stringify(value)}`,
      );
    }
  }
  if (onCollection !== undefined && onItem !== undefined && onCollection !== onItem) {
    throw new DocumentError(
      `paths.${candidate.path}.${ID_EXTENSION} (${JSON.stringify(onCollection)}) and paths.${candidate.itemPath}.${ID_EXTENSION} (${JSON.stringify(onItem)}) name different properties`,
    );
  }
  return (onCollection ?? onItem) as string | undefined;
}

/** int64 counter for an integer id, a UUID for `format: uuid`, a counter as a string for any other string. */
function idKind(
  schema: OpenAPIV3.SchemaObject | undefined,
  document: OpenAPIV3.Document,
  candidate: PathCandidate,
): IdKind {
  const source = schema ?? itemParameterSchema(document, candidate);
  if (mainType(source) === 'string') return source!.format === 'uuid' ? 'uuid' : 'string';
  return 'int64';
}

function itemParameterSchema(
  document: OpenAPIV3.Document,
  candidate: PathCandidate,
): OpenAPIV3.SchemaObject | undefined {
  if (!candidate.itemPath || !candidate.itemParameter) return undefined;
  const item = document.paths?.[candidate.itemPath];
  const parameters = [
    ...(item?.parameters ?? []),
    ...(['get', 'put', 'patch', 'delete'] as const).flatMap((m) => item?.[m]?.parameters ?? []),
  ] as OpenAPIV3.ParameterObject[];
  return parameters.find((p) => p.in === 'path' && p.name === candidate.itemParameter)?.schema as
    OpenAPIV3.SchemaObject | undefined;
}

function classify(operation: Operation, place: PathPlace, item: object | undefined): ResourceOperation | string {
  const method = operation.method.toUpperCase();
  if (optedOut(operation)) return `${ROLE_EXTENSION}: none`;
  const role = roleOf(operation.method, place);
  if (role === undefined) {
    return place === 'collection'
      ? `${method} on a collection has no role (POST creates, GET lists)`
      : `${method} on an item has no role (GET reads, PUT replaces, PATCH merges, DELETE deletes)`;
  }
  const success = successAnswer(operation, role);
  if (!success) return `${method} ${operation.path} declares no 2xx answer`;
  const base = {
    operationId: operation.id,
    method: operation.method,
    path: operation.path,
    role,
    patchFormats: [] as ResourceOperation['patchFormats'],
    success,
    notFound: notFoundAnswer(operation),
    statuses: Object.keys(operation.object.responses ?? {}),
  };
  if (readsArray(operation, role)) {
    return `its ${success.declared} answer is a JSON array, so it reads no one item`;
  }
  if (role === 'list') {
    const list = listShape(success.schema, item);
    if (list === undefined) {
      return `its ${success.declared} answer is neither a JSON array of items nor an object with one array property of the item schema`;
    }
    return list.wrapper === undefined
      ? { ...base, request: undefined }
      : { ...base, request: undefined, wrapper: list.wrapper };
  }
  if (role === 'create' || role === 'replace') {
    const request = jsonRequest(operation);
    if (!request) return `${method} ${operation.path} takes no JSON request body`;
    return { ...base, request };
  }
  if (role === 'merge') {
    const formats = patchFormats(operation);
    if (formats.length === 0) {
      return `PATCH ${operation.path} takes neither application/merge-patch+json, application/json-patch+json nor application/json`;
    }
    const merge = formats.find((f) => f.format === 'merge-patch') ?? formats[0]!;
    return { ...base, patchFormats: formats, request: patchRequest(operation, merge.mediaType) };
  }
  return { ...base, request: undefined };
}

/** The list's query parameters: filters (named like an item property), the limit, and those the mock ignores. */
function queryParameters(
  document: OpenAPIV3.Document,
  list: Operation,
  itemProperties: string[] | undefined,
): { filters: Filter[]; limit: LimitRule | undefined; ignored: { parameter: string; reason: string }[] } {
  const filters: Filter[] = [];
  const ignored: { parameter: string; reason: string }[] = [];
  let limit: LimitRule | undefined;
  for (const parameter of rawParameters(document, list)) {
    if (parameter.in !== 'query') continue;
    const schema = (parameter.schema ?? {}) as OpenAPIV3.SchemaObject;
    if (parameter.name === LIMIT_PARAMETER && mainType(schema) === 'integer' && limit === undefined) {
      limit = {
        parameter: parameter.name,
        minimum: numberOr(schema.minimum),
        maximum: numberOr(schema.maximum),
        default: numberOr(schema.default),
      };
    } else if (itemProperties?.includes(parameter.name)) {
      filters.push({ parameter: parameter.name, property: parameter.name, many: mainType(schema) === 'array' });
    } else {
      ignored.push({
        parameter: parameter.name,
        reason: itemProperties
          ? 'named like no property of the item, so it is not a filter'
          : "the item schema's properties are unknown (oneOf/anyOf), so it is not a filter",
      });
    }
  }
  return { filters, limit, ignored };
}

/** The page size parameter, by name (the interface's §4.1 `limit`). */
const LIMIT_PARAMETER = 'limit';

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** The operation's parameters as written, path-level ones overridden by the operation's (OpenAPI 3.0 §4.7.10). */
function rawParameters(document: OpenAPIV3.Document, operation: Operation): OpenAPIV3.ParameterObject[] {
  const merged = new Map<string, OpenAPIV3.ParameterObject>();
  const pathLevel = (document.paths?.[operation.path]?.parameters ?? []) as OpenAPIV3.ParameterObject[];
  const own = (operation.object.parameters ?? []) as OpenAPIV3.ParameterObject[];
  for (const parameter of [...pathLevel, ...own]) merged.set(`${parameter.in}:${parameter.name}`, parameter);
  return [...merged.values()];
}

function noCollectionReason(operation: Operation): string {
  const segments = segmentsOf(operation.path);
  const last = segments.at(-1);
  if (last === undefined) return `${operation.path} is the root, no collection`;
  if (TEMPLATE.test(last)) {
    return `${operation.path} is no item path: the segment before {…} must be a literal collection name`;
  }
  return `${operation.path} is no collection: no item path ${operation.path}/{…} and no POST beside a GET answering an array`;
}
