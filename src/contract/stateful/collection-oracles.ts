import type { Spec } from '../../openapi/load-spec.js';
import type { ResourceCollection, ResourceOperation, ResourceRole } from '../../openapi/resource-types.js';
import type { CheckId } from '../base/check-ids.js';
import type { CaseContext, ContractCase, Sent } from '../engine/run-case.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { show } from '../generate/same-pet.js';
import {
  differenceFrom,
  itemRequest,
  ItemRequests,
  judgesMoreFields,
  reachableParent,
  succeeded,
  type CreatedItem,
} from './resource-items.js';
import { rowsOf } from './gone-from-list.js';
import { createdIdOf } from '../transport/created-items.js';
import type { JudgedElsewhere } from './resource-oracles.js';

/**
 * The oracles of a collection as a whole, for every collection of the model with a create, nested ones included (each
 * under a parent item the case creates first): a refused create leaves nothing, ids are unique under parallel
 * creates, a nested item is not reached through another parent and is gone with its parent, `limit` and its
 * default as the document gives them, and a create answers every field sent. Beside resource-oracles.ts (the item
 * oracles), with the same rules: each writes, deletes what it created where the document has a delete, and judges
 * only what the document fixes.
 */

/** The items of one case: the collection's, and for a nested collection its parent's. */
export interface Scene {
  ctx: CaseContext;
  items: ItemRequests;
  /** The parent collection's requests (nested collections only); the parent item is made before the oracle runs. */
  parent: ItemRequests | undefined;
  parentItem: CreatedItem | undefined;
}

type CollectionOracle = (scene: Scene) => Promise<void>;

interface OracleRule {
  check: CheckId;
  title: string;
  /** Whether the oracle has something to judge on this collection. */
  applies: (collection: ResourceCollection, elsewhere: JudgedElsewhere) => boolean;
  run: CollectionOracle;
}

/** Parallel creates sent at once by resource.unique-ids: enough for two to meet on a target with one lock missing. */
export const PARALLEL_CREATES = 6;

/** The collection oracles of the document: each rule once per collection it applies to. */
export function collectionOracleCases(spec: Spec, elsewhere: JudgedElsewhere): ContractCase[] {
  const cases: ContractCase[] = [];
  for (const collection of spec.resources.collections) {
    if (!collection.operations.create || !collection.itemParameter) continue;
    const parent = reachableParent(spec, collection);
    if (collection.parent && !parent) continue;
    for (const rule of RULES) {
      if (!rule.applies(collection, elsewhere)) continue;
      cases.push(oracleCase(collection, parent, rule, elsewhere));
    }
  }
  return cases;
}

function oracleCase(
  collection: ResourceCollection,
  parent: ResourceCollection | undefined,
  rule: OracleRule,
  elsewhere: JudgedElsewhere,
): ContractCase {
  // What the case writes: creates and the clean-up's deletes (the parent's too), and through another parent every
  // item operation but the read (resource.nested-parent); the read-only skip names them. None of these is a GET.
  const roles: ResourceRole[] =
    rule.check === 'resource.nested-parent' ? ['create', 'replace', 'merge', 'delete'] : ['create', 'delete'];
  const operations = [
    ...Object.values(parent?.operations ?? {}).filter((o) => o.role === 'create' || o.role === 'delete'),
    ...roles.flatMap((role) => collection.operations[role] ?? []),
  ];
  return {
    id: `${rule.check}/${collection.name}`,
    check: rule.check,
    operation: collection.operations.create!.operationId,
    title: `${collection.path}: ${rule.title}`,
    writes: true,
    writeMethods: [...new Set(operations.map((o) => o.method.toUpperCase()))],
    run: (ctx) => runScene(ctx, collection, parent, rule, elsewhere),
  };
}

async function runScene(
  ctx: CaseContext,
  collection: ResourceCollection,
  parentCollection: ResourceCollection | undefined,
  rule: OracleRule,
  elsewhere: JudgedElsewhere,
): Promise<void> {
  const create = collection.operations.create!.operationId;
  const items = new ItemRequests(ctx, collection, elsewhere.fields.get(create) ?? []);
  const parent = parentCollection && new ItemRequests(ctx, parentCollection);
  try {
    const parentItem = parent && (await parent.create('parent', rule.check));
    if (parentItem) items.parentPath = { [collection.parent!.parameter]: parentItem.id };
    await rule.run({ ctx, items, parent, parentItem });
  } finally {
    await items.cleanUp();
    await parent?.cleanUp();
  }
}

/** The 4xx statuses an operation declares for a bad request (auth and not-found answers excepted). */
function declaredRefusals(operation: Pick<ResourceOperation, 'statuses'>): number[] {
  return operation.statuses.filter((s) => /^4\d\d$/.test(s) && s !== '401' && s !== '403' && s !== '404').map(Number);
}

/** Whether `status` refuses a bad request as `operation` declares (any 4xx when it declares none, or 4XX). */
export function refusedAsDeclared(operation: Pick<ResourceOperation, 'statuses'>, status: number | undefined): boolean {
  if (status === undefined || status < 400 || status > 499) return false;
  const declared = declaredRefusals(operation);
  return declared.length === 0 || operation.statuses.includes('4XX') || declared.includes(status);
}

/** A number no item of another run holds by chance: from the run id, within int32, above the usual small values. */
function distinctiveInteger(runId: string): number {
  let hash = 0;
  for (const char of runId) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_000;
  return 1_000_000_000 + hash;
}

/**
 * A create body with one field of the wrong JSON type (a string sent as a number, else an integer as a string),
 * and the fields left valid made distinctive (a run-tagged string, else a run-derived integer where the schema
 * sets no maximum), so that an item stored from it is recognised wherever it shows. Undefined when the body has
 * neither a field to break nor a distinctive one.
 */
export function refusedBody(
  create: ResourceOperation,
  valid: Record<string, unknown>,
  runId: string,
): { json: Record<string, unknown>; broken: string; marker: Record<string, unknown> } | undefined {
  const names = Object.keys(valid);
  const broken =
    names.find((name) => typeof valid[name] === 'string') ?? names.find((name) => Number.isInteger(valid[name]));
  if (broken === undefined) return undefined;
  const marker = Object.fromEntries(Object.entries(valid).filter(([name]) => name !== broken));
  const tagged = Object.values(marker).some((value) => typeof value === 'string' && value.includes(runId));
  if (!tagged) {
    const properties = objectShape(create.request?.schema).properties;
    const free = Object.keys(marker).find(
      (name) =>
        Number.isInteger(marker[name]) &&
        properties[name]?.maximum === undefined &&
        properties[name]?.enum === undefined,
    );
    if (free === undefined) return undefined;
    marker[free] = distinctiveInteger(runId);
  }
  const wrong = typeof valid[broken] === 'string' ? 12345 : 'not-a-number';
  return { json: { ...marker, [broken]: wrong }, broken, marker };
}

/**
 * A stored item found is a verdict even in an answer that also broke the document (a refused body stored as sent
 * breaks the item schema: schema.response says so, and this check says it was stored).
 */
function verifyNotStored(ctx: CaseContext, sent: Sent, ok: boolean, expected: string, actual: string): boolean {
  return sent.usable
    ? ctx.verify('resource.refused-create', sent, ok, expected, actual)
    : ctx.verifyStatus('resource.refused-create', sent, ok, expected);
}

/** The list query that shows an item best: its filters set to the marker's values, the largest page. */
function listQuery(collection: ResourceCollection, marker: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const filter of collection.filters) {
    const value = marker[filter.property];
    if (typeof value === 'string' && !filter.many) query[filter.parameter] = value;
  }
  if (collection.limit?.maximum !== undefined) query[collection.limit.parameter] = String(collection.limit.maximum);
  return query;
}

/**
 * RFC 9110 §15.5.1: a 400 means the server "cannot or will not process the request"; a refused create stores
 * nothing (RESTler's LeakageRule, EvoMaster's failed modification with side effects). A create with one field of
 * the wrong type gets a 4xx the create declares; then no item made of its valid fields is listed, and the id just
 * below the next item created (where ids are integers) reads as no such item. Under a parent the case created,
 * nothing at all may appear.
 */
async function refusedCreate({ ctx, items, parentItem }: Scene): Promise<void> {
  const { collection } = items;
  const create = items.role('create')!;
  const refused = refusedBody(create, items.body(create, 'refused-create'), ctx.session.config.runId);
  if (!refused) return ctx.skip(`${create.operationId}: no field to break and none to recognise a stored item by`);
  const sent = await ctx.send({ operation: create.operationId, ...items.under(), json: refused.json });
  const refusedOk = ctx.verifyStatus(
    'resource.refused-create',
    sent,
    refusedAsDeclared(create, sent.status),
    `a 4xx ${create.operationId} declares, for ${refused.broken} of the wrong type (${show(refused.json[refused.broken])})`,
  );
  if (!refusedOk) return;
  const stored = (row: unknown) => parentItem !== undefined || differenceFrom(refused.marker, row) === undefined;
  if (items.role('list')) {
    const listed = await items.list(listQuery(collection, refused.marker));
    const leaked = rowsOf(listed, collection.operations.list?.wrapper)?.find(stored);
    verifyNotStored(
      ctx,
      listed,
      leaked === undefined,
      `no item made of the refused ${create.operationId} listed`,
      `listed: ${show(leaked)}`,
    );
  }
  if (collection.id.kind !== 'int64' || !items.role('read')) return;
  const next = await items.create('after-refused', 'resource.refused-create');
  const below = BigInt(next.id) - 1n;
  if (below < 1n) return;
  const read = await items.send('read', String(below));
  const leaked = succeeded(read) && stored(read.body);
  verifyNotStored(
    ctx,
    read,
    !leaked,
    `${collection.id.property} ${below} (just below the next item created) not an item made of the refused create`,
    `read: ${show(read.body)}`,
  );
}

/**
 * Interface §2 (v1's Pet, and every collection's id by the same rule): the id is "Unique identifier assigned by the
 * service on creation". One create, then several at once: every id differs (Schemathesis and RESTler have no
 * counterpart; our stateful.unique-ids judges v1's createPet).
 */
async function uniqueIds({ ctx, items }: Scene): Promise<void> {
  const first = await items.create('unique-0', 'resource.unique-ids');
  const create = items.role('create')!;
  const bodies = Array.from({ length: PARALLEL_CREATES }, (_, i) => items.body(create, `unique-${i + 1}`));
  const answers = await Promise.all(
    bodies.map((json) => ctx.send({ operation: create.operationId, ...items.under(), json })),
  );
  const seen = new Map<string, string>([[first.id, 'the first item']]);
  const property = items.collection.id.property;
  answers.forEach((answer, index) => {
    if (!succeeded(answer)) return;
    const key = createdIdOf(answer, items.collection);
    if (key === undefined) return;
    items.adopt(key);
    const other = seen.get(key);
    ctx.verify(
      'resource.unique-ids',
      answer,
      other === undefined,
      `a new ${property} for every item created (${PARALLEL_CREATES} creates sent at once)`,
      `${property} ${key}, already given to ${other ?? ''}`,
    );
    seen.set(key, `parallel create ${index + 1}`);
  });
}

/** Sends `role` for `id` under another parent item than the scene's, then puts the scene's parent back. */
async function sendUnder(
  items: ItemRequests,
  parentId: string,
  role: 'read' | 'replace' | 'merge' | 'delete',
  id: string,
  extra: { json?: unknown; contentType?: string } = {},
): Promise<Sent> {
  const own = items.parentPath;
  items.parentPath = { [items.collection.parent!.parameter]: parentId };
  try {
    return await items.send(role, id, extra);
  } finally {
    items.parentPath = own;
  }
}

/**
 * RFC 9110 §15.5.5: 404 "the origin server did not find a current representation for the target resource": an item
 * of a nested collection is a resource under its own parent's path only (RESTler's ResourceHierarchy checker).
 * Read, replace, merge and delete of a child through another parent get the 404 each declares, and the child is
 * still there under its own parent afterwards.
 */
async function nestedParent({ ctx, items, parent }: Scene): Promise<void> {
  const child = await items.create('child', 'resource.nested-parent');
  const other = await parent!.create('other-parent', 'resource.nested-parent');
  for (const role of ['read', 'replace', 'merge', 'delete'] as const) {
    const operation = items.role(role);
    const request = operation?.notFound && itemRequest(items, operation, `cross-${role}`);
    if (!operation?.notFound || !request) continue;
    const sent = await sendUnder(items, other.id, role, child.id, request);
    ctx.verifyStatus(
      'resource.nested-parent',
      sent,
      sent.status === operation.notFound.status,
      `${operation.notFound.status} for ${operation.operationId} of ${child.id} through ${items.collection.parent!.parameter} ${other.id}, another parent (as the document declares)`,
    );
  }
  if (!items.role('read')) return;
  const read = await items.send('read', child.id);
  ctx.verify(
    'resource.nested-parent',
    read,
    succeeded(read),
    `${child.id} still read through its own parent after the requests through another`,
  );
}

/**
 * RFC 9110 §9.3.5: DELETE removes "the association between the target resource and its current functionality",
 * and a nested item's address runs through its parent's: once the parent is deleted, the child reads as the 404 its
 * read declares, and the parent's list of children is the 404 its list declares or lists it no more (the document
 * declares both, so either passes).
 */
async function childrenGone({ ctx, items, parent, parentItem }: Scene): Promise<void> {
  const child = await items.create('orphan', 'resource.children-gone');
  const deleted = await parent!.send('delete', parentItem!.id);
  parent!.stopIfDeleteRefused(deleted);
  if (!ctx.verify('resource.children-gone', deleted, succeeded(deleted), 'a 2xx to the delete of the parent')) return;
  parent!.forget(parentItem!.id);
  items.forget(child.id);
  const read = await items.send('read', child.id);
  const gone = items.role('read')!.notFound?.status;
  ctx.verifyStatus(
    'resource.children-gone',
    read,
    gone === undefined ? read.status! >= 400 && read.status! < 500 : read.status === gone,
    `${gone ?? 'a 4xx'} for the read of ${child.id}, whose parent ${parentItem!.id} was deleted`,
  );
  const list = items.role('list');
  if (!list) return;
  const listed = await items.list({});
  const ids = rowsOf(listed, list.wrapper)?.map((row) => String(row[items.collection.id.property]));
  ctx.verifyStatus(
    'resource.children-gone',
    listed,
    listed.status === list.notFound?.status || (ids !== undefined && !ids.includes(child.id)),
    `${list.notFound ? `${list.notFound.status} or ` : ''}a list without ${child.id} for the deleted parent ${parentItem!.id}`,
  );
}

/** How many items a list without `limit` may hold at most, as the document sets it: the default, else the maximum. */
function pageBound(collection: ResourceCollection): number | undefined {
  return collection.limit?.default ?? collection.limit?.maximum;
}

/**
 * The document's `limit` on a list other than the fixed cases' (list.limit, list.default-limit judge listPets): a
 * page holds at most `limit` items, exactly `limit` when more exist, and without `limit` its default. Under a parent
 * the case created, the case knows how many exist; at the top level, at least the ones it created.
 */
async function limitKept({ ctx, items }: Scene): Promise<void> {
  const rule = items.collection.limit!;
  const bound = pageBound(items.collection);
  const made = Math.max(2, Math.min((bound ?? 1) + 1, 21));
  for (let i = 0; i < made; i++) await items.create(`limit-${i}`, 'resource.limit');
  const askFor = [1, ...(rule.maximum === undefined ? [] : [rule.maximum])];
  for (const limit of askFor) {
    const listed = await items.list({ [rule.parameter]: String(limit) });
    const rows = rowsOf(listed, items.collection.operations.list?.wrapper);
    if (!rows) continue;
    const expected = Math.min(limit, made);
    ctx.verify(
      'resource.limit',
      listed,
      rows.length <= limit && rows.length >= expected,
      `${limit === expected ? `exactly ${limit}` : `${expected} to ${limit}`} items for ${rule.parameter}=${limit} (${made} created)`,
      `${rows.length} items`,
    );
  }
  if (rule.default === undefined) return;
  const listed = await items.list({});
  const rows = rowsOf(listed, items.collection.operations.list?.wrapper);
  if (!rows) return;
  const exact = made > rule.default;
  ctx.verify(
    'resource.limit',
    listed,
    exact ? rows.length === rule.default : rows.length <= rule.default,
    `${exact ? 'exactly' : 'at most'} ${rule.default} items without ${rule.parameter} (its default; ${made} created)`,
    `${rows.length} items`,
  );
}

/**
 * RFC 9110 §15.3.2: a 201's content "typically describes and links to the resource(s) created"; where the document
 * declares the item as the create's answer, it holds every field sent (v1's create.echo, for every create). Fields
 * the fixed cases judge (createPet's name, categoryId, status) are left to them.
 */
async function createEcho({ ctx, items }: Scene): Promise<void> {
  const item = await items.create('echo', 'resource.create-echo');
  const judged = Object.fromEntries(
    Object.entries(item.sent).filter(([name]) => !items.judgedElsewhere.includes(name)),
  );
  const difference = differenceFrom(judged, item.created.body);
  ctx.verify(
    'resource.create-echo',
    item.created,
    difference === undefined,
    `${items.role('create')!.operationId} answers the item with every field sent: ${show(judged)}`,
    difference,
  );
}

export const RULES: OracleRule[] = [
  {
    check: 'resource.refused-create',
    title: 'a refused create stores nothing',
    applies: (collection, elsewhere) => judgesMoreFields(collection, elsewhere.fields),
    run: refusedCreate,
  },
  {
    check: 'resource.unique-ids',
    title: 'ids are unique, also under parallel creates',
    applies: (collection, elsewhere) =>
      !(elsewhere.uniqueIds ?? []).includes(collection.operations.create!.operationId),
    run: uniqueIds,
  },
  {
    check: 'resource.nested-parent',
    title: 'an item is not reached through another parent',
    applies: (collection) => collection.parent !== undefined,
    run: nestedParent,
  },
  {
    check: 'resource.children-gone',
    title: 'the items of a deleted parent are gone',
    applies: (collection) => collection.parent !== undefined && collection.operations.read !== undefined,
    run: childrenGone,
  },
  {
    check: 'resource.limit',
    title: 'limit and its default as the document gives them',
    // The limit is a parameter of the list (resource-model.ts): a collection with one has a list.
    applies: (collection, elsewhere) =>
      collection.limit !== undefined && !(elsewhere.limits ?? []).includes(collection.operations.list!.operationId),
    run: limitKept,
  },
  {
    check: 'resource.create-echo',
    title: 'a create answers every field sent',
    applies: (collection, elsewhere) =>
      objectShape(collection.operations.create!.success.schema).known && judgesMoreFields(collection, elsewhere.fields),
    run: createEcho,
  },
];
