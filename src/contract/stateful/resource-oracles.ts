import type { Spec } from '../../openapi/load-spec.js';
import { mainType, nullablePatch } from '../../openapi/schema-keywords.js';
import type { ResourceCollection, ResourceOperation } from '../../openapi/resource-types.js';
import type { CaseContext, ContractCase } from '../engine/run-case.js';
import { show } from '../generate/same-pet.js';
import { objectShape } from '../../openapi/schema-shape.js';
import {
  brokenByName,
  differenceFrom,
  itemRequest,
  ItemRequests,
  judgesMoreFields,
  keyedAs,
  locationMismatch,
  reachableParent,
  succeeded,
} from './resource-items.js';
import { mayBeCutShort, unaskedBound } from '../engine/page-bounds.js';
import { announcesNextPage } from '../engine/next-page.js';
import { goneFromList, rowsOf } from './gone-from-list.js';
import { createdListed } from './created-listed.js';
import { filterValue, lookalikes, looseMatch } from './filter-lookalikes.js';
import { declaresSelfLink, selfLinkNamesItem } from './self-link.js';

type Oracle = (items: ItemRequests) => Promise<void>;
type Role = keyof ResourceCollection['operations'];

/**
 * What the fixed v1 cases already judge under their own ids (create.echo and create.persisted: a createPet's
 * name, categoryId and status; list.status-filter: listPets' status): the oracles judge the rest, so that one fault
 * shows under one id and the v1 verdicts stay as they were.
 */
export interface JudgedElsewhere {
  /** Fields of a create's body, by the create's operationId. */
  fields: ReadonlyMap<string, readonly string[]>;
  /** Filter parameters, by the list's operationId. */
  filters: ReadonlyMap<string, readonly string[]>;
  /** Item operations whose unknown id a fixed case judges (get.not-found: getPet). */
  operations?: readonly string[];
  /** Creates whose ids a model-based check judges unique (stateful.unique-ids: createPet). */
  uniqueIds?: readonly string[];
  /** Lists whose `limit` and default the fixed cases judge (list.limit, list.default-limit: listPets). */
  limits?: readonly string[];
}

const NOTHING_ELSE: JudgedElsewhere = { fields: new Map(), filters: new Map() };

/**
 * The stateful oracles of the resource model: for every collection of the document, each oracle whose roles the
 * collection has (a create and a read at least). A nested collection's items are reached through a parent item the
 * case creates first (its collection a top-level one with a create) and deletes last. Each writes, so a read-only run
 * skips and lists them; each deletes what it created where the document has a delete.
 */
export function resourceOracleCases(spec: Spec, elsewhere: JudgedElsewhere = NOTHING_ELSE): ContractCase[] {
  const cases: ContractCase[] = [];
  // The model computed once when the document loaded (Spec.resources), the one the mock serves by.
  for (const collection of spec.resources.collections) {
    const { create, read } = collection.operations;
    if (!create || !read || !collection.itemParameter) continue;
    const parent = reachableParent(spec, collection);
    if (collection.parent && !parent) continue;
    for (const [check, needs, title, oracle, alsoSends] of ORACLES) {
      if (!needs.every((role) => collection.operations[role])) continue;
      if (check === 'resource.filter' && filtersOf(collection, elsewhere).length === 0) continue;
      if (check === 'resource.created-readable' && !judgesMoreFields(collection, elsewhere.fields)) continue;
      if (check === 'resource.self-link' && !declaresSelfLink(collection)) continue;
      if (check === 'resource.unknown-id' && !hasUnknownIdRule(collection, elsewhere)) continue;
      if (check === 'resource.refused-unchanged' && !collection.operations.replace && !collection.operations.merge)
        continue;
      // A PATCH that takes only JSON Patch: the sequences send those (resource.json-patch).
      if (check === 'resource.merge-patch' && !hasMergePatch(collection)) continue;
      cases.push({
        id: `${check}/${collection.name}`,
        check,
        operation: needs.map((role) => collection.operations[role]!.operationId).join('+'),
        title: `${collection.path}: ${title}`,
        writes: true,
        writeMethods: writeMethodsOf(collection, parent, [...needs, ...alsoSends]),
        run: (ctx) => runOracle(ctx, collection, parent, check, oracle, elsewhere),
      });
    }
  }
  return cases;
}

/**
 * What a case writes: the create it starts with, then the roles it sends (those it needs and those it tries where the
 * collection has them), cleaning up included (and for a nested collection its parent's create and delete).
 */
function writeMethodsOf(
  collection: ResourceCollection,
  parent: ResourceCollection | undefined,
  sends: Role[],
): string[] {
  const own = [...sends, 'delete' as const].flatMap((role) => collection.operations[role] ?? []);
  const all = [parent?.operations.create, ...own, parent?.operations.delete].flatMap((o) => o ?? []);
  return [...new Set(all.map((o) => o.method.toUpperCase()).filter((method) => method !== 'GET'))];
}

/** Whether the collection's PATCH (asked only of one that has it) takes a merge patch. */
function hasMergePatch(collection: ResourceCollection): boolean {
  return collection.operations.merge!.patchFormats.some((f) => f.format === 'merge-patch');
}

/** Whether an item operation the fixed cases do not judge declares an answer for an unknown id. */
function hasUnknownIdRule(collection: ResourceCollection, elsewhere: JudgedElsewhere): boolean {
  return (['read', 'replace', 'merge', 'delete'] as const).some((role) => {
    const operation = collection.operations[role];
    return operation?.notFound !== undefined && !(elsewhere.operations ?? []).includes(operation.operationId);
  });
}

/** The filters the fixed cases do not judge already. */
function filtersOf(collection: ResourceCollection, elsewhere: JudgedElsewhere): ResourceCollection['filters'] {
  // Asked only of a collection with a list (resource.filter needs one).
  const judged = elsewhere.filters.get(collection.operations.list!.operationId) ?? [];
  return collection.filters.filter((filter) => !judged.includes(filter.parameter));
}

async function runOracle(
  ctx: CaseContext,
  collection: ResourceCollection,
  parentCollection: ResourceCollection | undefined,
  check: ContractCase['check'],
  oracle: Oracle,
  elsewhere: JudgedElsewhere,
): Promise<void> {
  const items = new ItemRequests(
    ctx,
    collection,
    elsewhere.fields.get(collection.operations.create!.operationId) ?? [],
    elsewhere.filters.get(collection.operations.list?.operationId ?? '') ?? [],
    elsewhere.operations ?? [],
  );
  const parent = parentCollection && new ItemRequests(ctx, parentCollection);
  try {
    // A nested item is reached through its parent's address: the parent is made first (a create that fails ends the
    // case, under its check, as the collection oracles do).
    const parentItem = parent && (await parent.create('parent', check));
    if (parentItem) items.parentPath = { [collection.parent!.parameter]: parentItem.id };
    await oracle(items);
  } finally {
    await items.cleanUp(deletedBy.get(items));
    await parent?.cleanUp();
  }
}

/** Items an oracle deleted itself (the delete oracle), so that clean-up does not delete them again. */
const deletedBy = new WeakMap<ItemRequests, Set<string>>();

/**
 * RFC 9110 §15.3.2: "the primary resource created by the request is identified by either a Location header field
 * in the response or, if no Location header field is received, by the target URI"; §9.3.1 GET "requests transfer
 * of a current selected representation for the target resource". A created item reads back with every field sent.
 */
async function createdReadable(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  const item = await items.create('created', 'resource.created-readable');
  const create = items.role('create')!;
  if (item.created.status === 201 && create.success.headers.some((h) => h.toLowerCase() === 'location')) {
    const mismatch = locationMismatch(items, item.created, item.id);
    ctx.verify(
      'resource.created-readable',
      item.created,
      mismatch === undefined,
      `a Location naming the new item (${new URL(items.itemUrl(item.id)).pathname}), as ${create.operationId} declares`,
      mismatch,
    );
  }
  const read = await items.send('read', item.id);
  const judged = Object.fromEntries(
    Object.entries(item.sent).filter(([name]) => !items.judgedElsewhere.includes(name)),
  );
  const difference = succeeded(read) ? differenceFrom(judged, read.body) : `status ${read.status ?? 'none'}`;
  ctx.verify(
    'resource.created-readable',
    read,
    difference === undefined,
    `${collection.operations.read!.operationId} of the created ${collection.id.property} ${item.id}: every field as sent`,
    difference,
  );
  if (succeeded(read)) await createdListed(items, item.id);
}

/**
 * Every filter the model finds (a query parameter named like a property): the created item is listed under its own
 * value when the list is shorter than its limit (so complete), and every item listed holds the value filtered on.
 * A free string filter's value is one of the run's own (filter-lookalikes.ts), and beside the item the oracle creates
 * its lookalikes (the value followed by more, after a word, in upper case), so that a target matching substrings,
 * prefixes or letters in any case lists one of them and is seen: the document's filter keeps the items whose
 * property equals the value.
 */
async function filterKeeps(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  const create = items.role('create')!;
  const filters = collection.filters.filter((f) => !items.judgedFilters().includes(f.parameter));
  const own = ownFilterValues(items, filters);
  const item = await items.create('filter', 'resource.filter', own);
  for (const [property, value] of Object.entries(own))
    for (const [index, lookalike] of lookalikes(String(value)).entries()) {
      const body = { ...items.body(create, `filter-like-${property}-${index}`), [property]: lookalike.value };
      if (items.accepts(create, body)) await items.tryCreate(body);
    }
  const limit = collection.limit;
  for (const filter of filters) {
    const raw = item.sent[filter.property];
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') continue;
    const value = String(raw);
    const query: Record<string, string> = { [filter.parameter]: value };
    if (limit?.maximum !== undefined) query[limit.parameter] = String(limit.maximum);
    const listed = await items.list(query);
    const rows = rowsOf(listed, collection.operations.list?.wrapper);
    if (!rows) continue;
    const stranger = rows.find((row) => differenceFrom({ [filter.property]: raw }, row) !== undefined);
    const loose = stranger && looseMatch(value, stranger[filter.property]);
    ctx.verify(
      'resource.filter',
      listed,
      stranger === undefined,
      `every item listed with ${filter.parameter}=${value} has ${filter.property} ${show(raw)}`,
      stranger && `an item with ${filter.property} ${show(stranger[filter.property])}${loose ? ` (${loose})` : ''}`,
    );
    // Complete only below a page size the document fixes (page-bounds.ts): its maximum, asked for, else its default.
    const complete =
      !mayBeCutShort(rows.length, limit?.maximum ?? unaskedBound(limit), limit !== undefined) &&
      !announcesNextPage(listed, collection.operations.list?.wrapper);
    const found = rows.some((row) => String(row[collection.id.property]) === item.id);
    if (complete)
      ctx.verify(
        'resource.filter',
        listed,
        found,
        `the created ${collection.id.property} ${item.id} listed under ${filter.parameter}=${value} (a list shorter than its limit is complete)`,
        `${rows.length} items, not it`,
      );
  }
}

/**
 * The run's own value for each string filter the sample body fills, where the create's schema takes it (an enum, a
 * format or a pattern may not); the others keep the sample body's value, and get no lookalikes.
 */
function ownFilterValues(items: ItemRequests, filters: ResourceCollection['filters']): Record<string, string> {
  const create = items.role('create')!;
  const sample = items.body(create, 'filter');
  const own: Record<string, string> = {};
  for (const filter of filters) {
    if (filter.many || typeof sample[filter.property] !== 'string' || filter.property in own) continue;
    // Numbered by the filter's place among all the collection's filters: the same value whatever is judged elsewhere.
    const value = filterValue(items.ctx.session.config.runId, items.collection.filters.indexOf(filter));
    if (items.accepts(create, { ...sample, ...own, [filter.property]: value })) own[filter.property] = value;
  }
  return own;
}

/**
 * RFC 9110 §9.3.4: PUT "requests that the state of the target resource be created or replaced with the state
 * defined by the representation enclosed"; §9.2.2: PUT is idempotent. The item reads back exactly as sent, the
 * optional fields it had and the PUT left out gone, and a second identical PUT leaves it the same.
 */
async function replaceExact(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  const item = await items.create('replaced', 'resource.replace-exact');
  const replace = items.role('replace')!;
  const full = keyedAs(items.collection, items.body(replace, 'replacement', 1), item.sent, (json) =>
    items.accepts(replace, json),
  );
  const required = new Set((replace.request?.schema as { required?: string[] } | undefined)?.required ?? []);
  const sent = Object.fromEntries(Object.entries(full).filter(([name]) => required.has(name) || !(name in item.sent)));
  // The id property is the item's key, named by the path the PUT goes to (RFC 9110 §9.3.4: the state of the target
  // resource the URI identifies): left out of the replacement, it may stay as the path names it (judged below).
  const key = collection.id.property;
  const dropped = Object.keys(item.sent).filter(
    (name) => !(name in sent) && !collection.assigned.includes(name) && name !== key,
  );
  const put = await items.send('replace', item.id, { json: sent });
  if (!ctx.verify('resource.replace-exact', put, succeeded(put), `a 2xx to a valid ${replace.operationId}`)) return;
  const first = await items.send('read', item.id);
  const body = first.body as Record<string, unknown> | undefined;
  const kept = dropped.find((name) => body !== undefined && body[name] !== undefined);
  const answeredKey = body?.[key];
  const moved = !(key in sent) && answeredKey !== undefined && keyText(answeredKey) !== item.id;
  const difference =
    differenceFrom(sent, body) ??
    (kept && `${kept} ${show(body![kept])} kept, though the replacement left it out (a merge, not a replace)`) ??
    (moved ? `${key} ${show(answeredKey)}, though the PUT went to ${collection.itemParameter} ${item.id}` : undefined);
  if (
    !ctx.verify(
      'resource.replace-exact',
      first,
      difference === undefined,
      `the item exactly as replaced: ${show(sent)}`,
      difference,
    )
  )
    return;
  await items.send('replace', item.id, { json: sent });
  const second = await items.send('read', item.id);
  ctx.verify(
    'resource.replace-exact',
    second,
    differenceFrom(body!, second.body) === undefined,
    'the same item after the same PUT again (RFC 9110 §9.2.2: idempotent)',
    differenceFrom(body!, second.body),
  );
}

/** An id as a path names it: a string, a number or an int64 as its digits; anything else as JSON. */
function keyText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
    ? String(value)
    : show(value);
}

/**
 * RFC 7396 §2: "If the target does contain the member, the value is replaced. Null values in the merge patch are
 * given special meaning to indicate the removal of existing values in the target." Members not named stay.
 */
async function mergePatch(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  const merge = items.role('merge')!;
  // Listed only where the PATCH takes a merge patch (hasMergePatch).
  const format = merge.patchFormats.find((f) => f.format === 'merge-patch')!;
  // The item's body, known before it is created, so that a collection with nothing to patch is skipped having
  // written nothing. Removed: a field the item may lack (not required by the item schema); changed: a free string.
  const sent = items.body(items.role('create')!, 'merged');
  const itemRequired = objectShape(collection.itemSchema).required;
  const patchable = objectShape(merge.request?.schema).properties;
  const removed = Object.keys(sent).find(
    (name) => !itemRequired.includes(name) && typeof sent[name] !== 'object' && nullablePatch(patchable[name]),
  );
  const changed = Object.keys(sent).find(
    (name) => name !== removed && typeof sent[name] === 'string' && mainType(patchable[name]) === 'string',
  );
  const patch: Record<string, unknown> = {};
  if (removed !== undefined) patch[removed] = null;
  if (changed !== undefined) patch[changed] = `${String(sent[changed]).slice(0, -1)}m`;
  // A changed value the patch's schema refuses (an enum, a format, a pattern) is left out: the patch must be valid.
  if (changed !== undefined && !items.accepts(merge, patch)) delete patch[changed];
  if (Object.keys(patch).length === 0) ctx.skip('no field the patch could remove or change');
  const item = await items.create('merged', 'resource.merge-patch');
  const patched = await items.send('merge', item.id, { json: patch, contentType: format.mediaType });
  if (!ctx.verify('resource.merge-patch', patched, succeeded(patched), `a 2xx to a valid merge patch ${show(patch)}`))
    return;
  const read = await items.send('read', item.id);
  const body = read.body as Record<string, unknown> | undefined;
  const expected = Object.fromEntries(Object.entries({ ...item.sent, ...patch }).filter(([, v]) => v !== null));
  const stored =
    removed !== undefined && body !== undefined && removed in body
      ? `${removed} ${show(body[removed])} still there (a null in a merge patch removes it)`
      : undefined;
  const difference = stored ?? differenceFrom(expected, body);
  ctx.verify(
    'resource.merge-patch',
    read,
    difference === undefined,
    `the item with ${show(patch)} merged into it`,
    difference,
  );
}

/**
 * RFC 9110 §9.3.5: DELETE "requests that the origin server remove the association between the target resource and
 * its current functionality". Afterwards a read gets the document's 404 (use after free), and so does a second
 * delete where the delete declares one.
 */
async function deleteGone(items: ItemRequests): Promise<void> {
  const { ctx } = items;
  const item = await items.create('deleted', 'resource.delete-gone');
  const deleted = await items.send('delete', item.id);
  items.stopIfDeleteRefused(deleted);
  if (!ctx.verify('resource.delete-gone', deleted, succeeded(deleted), 'a 2xx to the delete of an item just created'))
    return;
  deletedBy.set(items, new Set([item.id]));
  const read = await items.send('read', item.id);
  const readGone = items.role('read')!.notFound?.status;
  ctx.verifyStatus(
    'resource.delete-gone',
    read,
    readGone === undefined ? read.status! >= 400 && read.status! < 500 : read.status === readGone,
    `${readGone ?? 'a 4xx'} for the read of the deleted item (it was still there: use after free)`,
  );
  await goneFromList(items, item.id);
  const again = await items.send('delete', item.id);
  const deleteGone = items.role('delete')!.notFound?.status;
  if (deleteGone !== undefined)
    ctx.verifyStatus(
      'resource.delete-gone',
      again,
      again.status === deleteGone,
      `${deleteGone} for a second delete, as the document declares`,
    );
}

/**
 * RFC 9110 §15.5.1: a 400 means the server "cannot or will not process the request", so a refused update must
 * leave the item as it was: a PUT without its required fields and a patch that breaks the schema are answered with
 * a 4xx, and the item reads back unchanged (EvoMaster's failed modification with side effects).
 */
async function refusedUnchanged(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  // The field each refused request breaks: the first string of the item (a number in its place breaks the schema),
  // known before anything is created, so that a collection with none is skipped having written nothing.
  // Only a break the update's own schema refuses is one (museum's PATCH declares no eventId: a number there is valid).
  const sample = items.body(items.role('create')!, 'refused');
  const broken = (operation: ResourceOperation, valid: Record<string, unknown>) =>
    brokenByName(sample, valid, (json) => items.accepts(operation, json));
  // Each refused request also changes valid fields: a target that applies part of what it refuses is seen.
  const attempts: { json: unknown; name: string; contentType?: string; role: 'replace' | 'merge' }[] = [];
  const replace = items.role('replace');
  const put = replace && broken(replace, items.body(replace, 'refused-put', 1));
  if (put) attempts.push({ role: 'replace', ...put });
  const merge = items.role('merge');
  const format = merge?.patchFormats.find((f) => f.format === 'merge-patch');
  const patch = merge && format && broken(merge, items.body(merge, 'refused-patch', 2));
  if (patch) attempts.push({ role: 'merge', ...patch, contentType: format.mediaType });
  if (attempts.length === 0) ctx.skip(`${collection.path}: no update this oracle can break`);
  const item = await items.create('refused', 'resource.refused-unchanged');
  let before = await items.send('read', item.id);
  for (const { role, name, ...request } of attempts) {
    const refused = await items.send(role, item.id, request);
    if (
      !ctx.verifyStatus(
        'resource.refused-unchanged',
        refused,
        refused.status! >= 400 && refused.status! < 500,
        `a 4xx to ${show(request.json)}, whose ${name} breaks the schema`,
      )
    ) {
      // Accepted, it may have changed the item: the next attempt is judged against the item as it now is.
      before = await items.send('read', item.id);
      continue;
    }
    const after = await items.send('read', item.id);
    const difference = differenceFrom(before.body as Record<string, unknown>, after.body);
    ctx.verify(
      'resource.refused-unchanged',
      after,
      difference === undefined,
      `the item unchanged after the refused ${items.role(role)!.operationId}`,
      difference,
    );
  }
}

/** An id no item has: the largest int64, a nil-like UUID, or a run-tagged string, as the id's kind is. */
export function unknownId(items: ItemRequests): string {
  const { kind } = items.collection.id;
  if (kind === 'int64') return '9223372036854775807';
  return kind === 'uuid' ? '00000000-0000-4000-8000-00000000dead' : `${items.ctx.session.config.runId}-unknown`;
}

/**
 * The document's answer for an unknown id, on every item operation it declares one for (RFC 9110 §15.5.5: 404 "the
 * origin server did not find a current representation for the target resource"): read, replace, merge and delete
 * with a valid body (an empty JSON Patch where the PATCH takes only that), so that the id is the only thing wrong. Where a PUT also declares 201, creating is allowed
 * too (RFC 9110 §9.3.4), and either answer passes: the document leaves it open. The fixed case get.not-found judges
 * v1's getPet.
 */
async function unknownIdAnswered(items: ItemRequests): Promise<void> {
  const { ctx, collection } = items;
  const id = unknownId(items);
  // The PUT last: where it may create, the id it created is no longer unknown to the roles after it.
  for (const role of ['read', 'merge', 'delete', 'replace'] as const) {
    const operation = items.role(role);
    if (!operation?.notFound || items.judgedElsewhereOperations.includes(operation.operationId)) continue;
    const request = itemRequest(items, operation, `unknown-${role}`);
    if (!request) continue;
    const sent = await items.send(role, id, request);
    // A PUT answered 201 created an item, declared or not: the run cleans it up like the others.
    if (role === 'replace' && sent.status === 201) items.adopt(id);
    const creates = role === 'replace' && operation.statuses.includes('201');
    const allowed = creates ? [operation.notFound.status, 201] : [operation.notFound.status];
    ctx.verifyStatus(
      'resource.unknown-id',
      sent,
      allowed.includes(sent.status!),
      `${allowed.join(' or ')} for ${operation.operationId} of ${collection.id.property} ${id}, which no item has (as the document declares)`,
    );
  }
}

/** Each oracle: its check, the roles it needs, its title, the oracle, and the roles it also sends where they exist. */
const ORACLES: [ContractCase['check'], Role[], string, Oracle, Role[]][] = [
  [
    'resource.created-readable',
    ['create', 'read'],
    'a created item reads back with every field sent',
    createdReadable,
    [],
  ],
  ['resource.self-link', ['create', 'read'], "an item's links.self names the item itself", selfLinkNamesItem, []],
  ['resource.filter', ['create', 'list'], 'every filter keeps exactly the items that match', filterKeeps, []],
  [
    'resource.replace-exact',
    ['create', 'read', 'replace'],
    'a PUT replaces the item exactly, twice the same',
    replaceExact,
    [],
  ],
  [
    'resource.merge-patch',
    ['create', 'read', 'merge'],
    'a merge patch changes, removes (null) and leaves the rest',
    mergePatch,
    [],
  ],
  ['resource.delete-gone', ['create', 'read', 'delete'], 'a deleted item is gone (no use after free)', deleteGone, []],
  [
    'resource.refused-unchanged',
    ['create', 'read'],
    'a refused update or patch changes nothing',
    refusedUnchanged,
    ['replace', 'merge'],
  ],
  [
    'resource.unknown-id',
    ['read'],
    "an unknown id gets the document's 404 on every item operation",
    unknownIdAnswered,
    ['merge', 'delete', 'replace'],
  ],
];
