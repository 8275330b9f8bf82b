import type { AsyncCommand } from '../generate/fast-check.js';
import { toInteger } from '../../json/int64.js';
import { mainType, nullablePatch } from '../../openapi/schema-keywords.js';
import type { CheckId } from '../base/check-ids.js';
import type { Trial } from '../generate/run-property.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import type { ResourceCollection, ResourceOperation, ResourceRole } from '../../openapi/resource-types.js';
import { failure } from '../judge/judge-response.js';
import { taggedName } from '../base/session.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { show } from '../generate/same-pet.js';
import { Broken } from './commands.js';
import { sampleBody } from './sample-body.js';
import { refusedAsTaken, withFreshId } from '../base/fresh-ids.js';
import {
  brokenByName,
  declaredRefusal,
  differenceFrom,
  keyedAs,
  outOfReach,
  refusedForItsOwnReason,
  succeeded,
} from './resource-items.js';
import { rowsOf } from './gone-from-list.js';
import { mayBeCutShort, unaskedBound } from '../engine/page-bounds.js';
import { announcesNextPage } from '../engine/next-page.js';
import { createdIdOf } from '../transport/created-items.js';
import { itemDifference, ResourceState, stillThere, type ModelItem } from './resource-state.js';

/** What a command acts on: the sequence's trial, its case, the collection and, for a nested one, its parent item. */
export interface SequenceReal {
  trial: Trial;
  ctx: CaseContext;
  collection: ResourceCollection;
  /** The collection a nested collection's items live under. */
  parent: ResourceCollection | undefined;
  /** The parent item this sequence made for its items (nested collections), on the first create. */
  parentId?: string;
  /** Bodies made so far: each gets a label of its own, so a filter on a string field finds one item. */
  bodies: number;
  /** Every id of the collection this sequence created: deleted at the end, then the parent (resource-sequences.ts). */
  created: string[];
}

export type Command = AsyncCommand<ResourceState, SequenceReal, false>;

export function breakIf(real: SequenceReal): void {
  if (real.trial.failures.length > 0) throw new Broken(real.trial.failures[0]!.check);
}

/** Fails `check` on `sent` unless `ok`; a check that held is marked passed on the case (coverage counts it). */
export function judge(
  real: SequenceReal,
  check: CheckId,
  sent: Sent,
  ok: boolean,
  expected: string,
  actual?: string,
): void {
  if (ok) real.ctx.verify(check, sent, true, expected);
  else real.trial.fail(failure(check, sent, expected, actual ?? `status ${sent.status ?? 'none'}`));
  breakIf(real);
}

export function operation(real: SequenceReal, role: ResourceRole): ResourceOperation {
  return real.collection.operations[role]!;
}

/** The path parameters of the collection (its parent's id) and, given `id`, of one item. */
export function pathOf(real: SequenceReal, id?: string): Record<string, string> {
  const path: Record<string, string> = {};
  if (real.collection.parent && real.parentId !== undefined) path[real.collection.parent.parameter] = real.parentId;
  if (id !== undefined) path[real.collection.itemParameter!] = id;
  return path;
}

/**
 * A valid body for `op` with a label no other body of the run has (and a create's with an id of its own where the
 * client names ids); undefined when none can be made.
 */
export function bodyFor(
  real: SequenceReal,
  op: ResourceOperation,
  variant: number,
): Record<string, unknown> | undefined {
  const label = taggedName(real.ctx.session, `q${real.trial.example}.${real.bodies++}`);
  const sample = sampleBody(op.request?.schema, label, variant);
  const validate = real.ctx.session.spec.operationById.get(op.operationId)?.body?.validate;
  if (!sample || (validate && !validate(sample))) return undefined;
  // A create's id, where the client names it, is the run's own (fresh-ids.ts): `id: 1` twice is one item.
  const collection = [real.collection, real.parent].find((c) => c !== undefined && op === c.operations.create);
  return collection ? withFreshId(real.ctx.session, collection, sample, (body) => !validate || validate(body)) : sample;
}

/** The id property's value in an answer, as text for a path; undefined when it has none. */
export function idOf(body: unknown, property: string): string | undefined {
  const id = (body as Record<string, unknown> | undefined)?.[property];
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : undefined;
}

/** A nested collection's parent item, created once by the parent's own create (judged like any create). */
export async function ensureParent(real: SequenceReal): Promise<void> {
  if (!real.parent || real.parentId !== undefined) return;
  const create = real.parent.operations.create!;
  const json = bodyFor(real, create, 0);
  if (!json) return;
  const sent = await real.trial.send({ operation: create.operationId, json });
  breakIf(real);
  const id = createdIdOf(sent, real.parent);
  judge(
    real,
    'resource.created-readable',
    sent,
    succeeded(sent) && id !== undefined,
    `a 2xx and an id to a valid ${create.operationId}`,
  );
  real.parentId = id;
}

/** RFC 9110 §15.3.2: the created item, readable by the id the answer gives, with every field sent. */
export class CreateItemCommand implements Command {
  constructor(readonly variant: number) {}
  check(): boolean {
    return true;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    await ensureParent(real);
    const create = operation(real, 'create');
    const json = bodyFor(real, create, this.variant);
    if (!json) return;
    const sent = await real.trial.send({ operation: create.operationId, path: pathOf(real), json });
    breakIf(real);
    // A declared refusal for a reason of the server's own (an item the body refers to missing), or of an id an item
    // has already (a seed's: RFC 9110 §15.5.10): no item, no verdict.
    if (refusedForItsOwnReason(real.collection, sent.status)) return;
    const read = real.collection.operations.read;
    if (
      await refusedAsTaken(real.collection, json, sent.status, (id) =>
        real.trial.send({ operation: read!.operationId, path: pathOf(real, id) }),
      )
    )
      return;
    // Named by its id in the body, else by its Location (RFC 9110 §15.3.2; a 201 declared without content).
    const id = createdIdOf(sent, real.collection);
    judge(
      real,
      'resource.created-readable',
      sent,
      succeeded(sent) && id !== undefined,
      `a 2xx and an id (in the body or a Location) to a valid ${create.operationId}`,
    );
    real.created.push(id!);
    // An id the read cannot take (its parameter's schema refuses it): the item is out of the model's reach.
    if (outOfReach(real.ctx.session.spec, real.collection, operation(real, 'read'), id!)) return;
    const clash = model.items.get(id!);
    judge(
      real,
      'stateful.unique-ids',
      sent,
      clash === undefined,
      'a new id for every created item',
      `id ${id} was already given to an item of this sequence`,
    );
    model.add(id!, json);
  }
  toString(): string {
    return `create(${this.variant})`;
  }
}

/** RFC 9110 §9.3.1: a read shows the item as its last write left it; a deleted one gets the document's 404. */
export class ReadItemCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<ResourceState>): boolean {
    return model.items.size + model.deleted.size > 0;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const ids = [...model.items.keys(), ...model.deleted.keys()];
    const id = ids[this.pick % ids.length]!;
    const read = operation(real, 'read');
    const sent = await real.trial.send({ operation: read.operationId, path: pathOf(real, id) });
    breakIf(real);
    const item = model.items.get(id);
    if (!item) return judgeGone(real, model, sent, read, id);
    judge(
      real,
      item.by,
      sent,
      succeeded(sent),
      `200 with ${real.collection.id.property} ${id}, which this sequence created`,
    );
    const difference = itemDifference(item, sent.body);
    judge(
      real,
      item.by,
      sent,
      difference === undefined,
      `${real.collection.id.property} ${id} as its last write left it`,
      difference,
    );
    item.confirmed = true;
  }
  toString(): string {
    return `read(#${this.pick})`;
  }
}

/**
 * RFC 9110 §9.3.5 (use after free): a deleted item reads as the document's 404, or a 4xx where it declares none. A
 * 2xx with another item is an id reused after the delete (allowed): not judged.
 */
function judgeGone(real: SequenceReal, model: ResourceState, sent: Sent, read: ResourceOperation, id: string): void {
  const gone = read.notFound?.status;
  if (succeeded(sent) && !stillThere(model, id, sent.body)) return;
  const ok = gone === undefined ? sent.status! >= 400 && sent.status! < 500 : sent.status === gone;
  judge(
    real,
    'resource.delete-gone',
    sent,
    ok,
    `${gone ?? 'a 4xx'} for ${real.collection.id.property} ${id}, which this sequence deleted`,
  );
}

/**
 * A list, with one filter set to the value an item of the sequence holds, or none: no deleted item in it, every item
 * of the sequence as its last write left it, every row matching the filter, and, when shorter than its limit (so
 * complete), every item of the sequence a read confirmed and the filter matches.
 */
export class ListItemsCommand implements Command {
  constructor(
    readonly pick: number,
    readonly filter: number | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const { collection } = real;
    const list = operation(real, 'list');
    const on = filterOf(model, collection, this.pick, this.filter);
    const query: Record<string, string> = on ? { [on.parameter]: String(on.value) } : {};
    const max = collection.limit?.maximum;
    if (collection.limit && max !== undefined) query[collection.limit.parameter] = String(max);
    if (real.parent && real.parentId === undefined) return;
    const sent = await real.trial.send({ operation: list.operationId, path: pathOf(real), query });
    breakIf(real);
    const rows = rowsOf(sent, list.wrapper);
    if (!rows) return;
    const key = (row: Record<string, unknown>) => idOf(row, collection.id.property) ?? '';
    const undead = rows.find((row) => !model.items.has(key(row)) && stillThere(model, key(row), row));
    judge(
      real,
      'resource.delete-gone',
      sent,
      undead === undefined,
      'no item this sequence deleted in a list',
      `${collection.id.property} ${key(undead ?? {})} is listed`,
    );
    for (const row of rows) {
      const item = model.items.get(key(row));
      const difference = item && itemDifference(item, row);
      if (item)
        judge(
          real,
          item.by,
          sent,
          difference === undefined,
          `${collection.id.property} ${item.id} listed as its last write left it`,
          difference,
        );
    }
    if (on) {
      const stranger = rows.find((row) => differenceFrom({ [on.property]: on.value }, row) !== undefined);
      judge(
        real,
        'resource.filter',
        sent,
        stranger === undefined,
        `every item listed with ${on.parameter}=${String(on.value)} has ${on.property} ${show(on.value)}`,
        stranger && `${collection.id.property} ${key(stranger)} has ${on.property} ${show(stranger[on.property])}`,
      );
    }
    // Complete only below a page size the document fixes (its maximum, asked for, else its default; page-bounds.ts),
    // and where the answer links to no next page (next-page.ts).
    if (mayBeCutShort(rows.length, max ?? unaskedBound(collection.limit), collection.limit !== undefined)) return;
    if (announcesNextPage(sent, list.wrapper)) return;
    const missing = [...model.items.values()].find(
      (item) =>
        item.confirmed &&
        (!on || differenceFrom({ [on.property]: on.value }, item.expected) === undefined) &&
        !rows.some((row) => key(row) === item.id),
    );
    judge(
      real,
      on ? 'resource.filter' : 'resource.created-readable',
      sent,
      missing === undefined,
      `every item of this sequence${on ? ` with ${on.property} ${show(on.value)}` : ''} in a list shorter than its limit`,
      `${collection.id.property} ${missing?.id} is not in it (${rows.length} items)`,
    );
  }
  toString(): string {
    return `list(#${this.pick}${this.filter === undefined ? '' : `, filter ${this.filter}`})`;
  }
}

/** The filter `index` picks, with the value item `pick` holds for it; undefined when none applies. */
function filterOf(
  model: ResourceState,
  collection: ResourceCollection,
  pick: number,
  index: number | undefined,
): { parameter: string; property: string; value: string | number | boolean } | undefined {
  const item = model.pick(pick);
  if (index === undefined || !item || collection.filters.length === 0) return undefined;
  const filter = collection.filters[index % collection.filters.length]!;
  const value = item.expected[filter.property];
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  return { parameter: filter.parameter, property: filter.property, value };
}

/** RFC 9110 §9.3.4: PUT replaces the item with what it carries; the optional fields it leaves out (`drop`) are gone. */
export class ReplaceItemCommand implements Command {
  constructor(
    readonly pick: number,
    readonly variant: number,
    readonly drop: number,
  ) {}
  check(model: Readonly<ResourceState>): boolean {
    return model.items.size > 0;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const item = model.pick(this.pick)!;
    const replace = operation(real, 'replace');
    const sample = bodyFor(real, replace, this.variant);
    if (!sample) return;
    const validate = real.ctx.session.spec.operationById.get(replace.operationId)?.body?.validate;
    // The key as the path names it: the model's, else the id as its kind writes it (a PUT may have left it out).
    const { property, kind } = real.collection.id;
    const key = item.expected[property] ?? (kind === 'int64' && /^-?\d+$/.test(item.id) ? toInteger(item.id) : item.id);
    const full = keyedAs(real.collection, sample, { [property]: key }, (body) => !validate || validate(body));
    const required = objectShape(replace.request?.schema).required;
    const json = Object.fromEntries(
      Object.entries(full).filter(([name], index) => required.includes(name) || !((this.drop >> index) & 1)),
    );
    const sent = await real.trial.send({ operation: replace.operationId, path: pathOf(real, item.id), json });
    breakIf(real);
    judge(real, 'resource.replace-exact', sent, succeeded(sent), `a 2xx to a valid ${replace.operationId}`);
    const kept = new Set([
      ...Object.keys(json),
      real.collection.id.property,
      ...real.collection.assigned,
      real.collection.parent?.property ?? '',
    ]);
    Object.assign(item, {
      expected: json,
      absent: new Set((real.collection.itemProperties ?? []).filter((name) => !kept.has(name))),
      by: 'resource.replace-exact',
      confirmed: false,
    } satisfies Partial<ModelItem>);
  }
  toString(): string {
    return `replace(#${this.pick}, ${this.variant}, drop ${this.drop})`;
  }
}

/** RFC 7396 §2: a merge patch changes the members it names and removes those it sets to null; the rest stays. */
export class MergeItemCommand implements Command {
  constructor(
    readonly pick: number,
    readonly change: boolean,
  ) {}
  check(model: Readonly<ResourceState>): boolean {
    return model.items.size > 0;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const item = model.pick(this.pick)!;
    const merge = operation(real, 'merge');
    const format = merge.patchFormats.find((f) => f.format === 'merge-patch');
    const patch = format && mergePatchFor(real, item, this.change);
    if (!format || !patch) return;
    const sent = await real.trial.send({
      operation: merge.operationId,
      path: pathOf(real, item.id),
      json: patch,
      contentType: format.mediaType,
    });
    breakIf(real);
    judge(real, 'resource.merge-patch', sent, succeeded(sent), `a 2xx to a valid merge patch ${show(patch)}`);
    const expected: Record<string, unknown> = { ...item.expected };
    for (const [name, value] of Object.entries(patch)) {
      if (value === null) {
        delete expected[name];
        item.absent.add(name);
      } else {
        expected[name] = value;
        item.absent.delete(name);
      }
    }
    Object.assign(item, { expected, by: 'resource.merge-patch', confirmed: false } satisfies Partial<ModelItem>);
  }
  toString(): string {
    return `merge(#${this.pick}${this.change ? ', change' : ''})`;
  }
}

/**
 * A merge patch of `item` that the schemas allow: null for a field the item holds and may lack (not required by the
 * item schema, nullable in the patch's), and, when `change`, a new value for a free string field (no enum).
 */
function mergePatchFor(real: SequenceReal, item: ModelItem, change: boolean): Record<string, unknown> | undefined {
  const required = objectShape(real.collection.itemSchema).required;
  const patchable = objectShape(operation(real, 'merge').request?.schema).properties;
  const patch: Record<string, unknown> = {};
  const removed = Object.keys(item.expected).find(
    (name) => !required.includes(name) && typeof item.expected[name] !== 'object' && nullablePatch(patchable[name]),
  );
  if (removed !== undefined) patch[removed] = null;
  const changed = Object.keys(item.expected).find(
    (name) =>
      name !== removed &&
      typeof item.expected[name] === 'string' &&
      mainType(patchable[name]) === 'string' &&
      patchable[name]?.enum === undefined &&
      patchable[name]?.format === undefined,
  );
  if (change && changed !== undefined) patch[changed] = `${String(item.expected[changed]).slice(0, -1)}m`;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** RFC 9110 §9.3.5: a delete of an item the sequence created is a 2xx, and the item is gone from then on. */
export class DeleteItemCommand implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<ResourceState>): boolean {
    return model.items.size > 0;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const item = model.pick(this.pick)!;
    const remove = operation(real, 'delete');
    const sent = await real.trial.send({ operation: remove.operationId, path: pathOf(real, item.id) });
    breakIf(real);
    // A refusal the delete declares for the item's state (409): allowed, and the item stays as it was.
    if (declaredRefusal(remove, sent.status)) return;
    judge(
      real,
      'resource.delete-gone',
      sent,
      succeeded(sent),
      `a 2xx to the delete of ${real.collection.id.property} ${item.id}`,
    );
    model.remove(item.id);
  }
  toString(): string {
    return `delete(#${this.pick})`;
  }
}

/**
 * RFC 9110 §15.5.1: a refused update changes nothing. The item is read, sent an update whose first string field is a
 * number (with valid values for the rest, so a target that applies part of it is seen), and read again: a 4xx, then
 * the same item.
 */
export class RefusedUpdateCommand implements Command {
  constructor(
    readonly pick: number,
    readonly role: 'replace' | 'merge',
  ) {}
  check(model: Readonly<ResourceState>): boolean {
    return model.items.size > 0;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const item = model.pick(this.pick)!;
    const update =
      real.collection.operations[this.role] ?? real.collection.operations.replace ?? real.collection.operations.merge!;
    const format = update.patchFormats.find((f) => f.format === 'merge-patch');
    const valid = bodyFor(real, update, 1);
    if (!valid || (update.role === 'merge' && !format)) return;
    // Only a break the update's own schema refuses is one (a field it does not declare may take a number).
    const validate = real.ctx.session.spec.operationById.get(update.operationId)?.body?.validate;
    const broken = brokenByName(item.expected, valid, (body) => !validate || validate(body));
    if (!broken) return;
    const { json, name } = broken;
    const read = operation(real, 'read');
    const before = await real.trial.send({ operation: read.operationId, path: pathOf(real, item.id) });
    breakIf(real);
    const refused = await real.trial.send({
      operation: update.operationId,
      path: pathOf(real, item.id),
      json,
      ...(format ? { contentType: format.mediaType } : {}),
    });
    breakIf(real);
    judge(
      real,
      'resource.refused-unchanged',
      refused,
      refused.status! >= 400 && refused.status! < 500,
      `a 4xx to ${show(json)}, whose ${name} breaks the schema`,
    );
    const after = await real.trial.send({ operation: read.operationId, path: pathOf(real, item.id) });
    breakIf(real);
    const difference = succeeded(before)
      ? differenceFrom(before.body as Record<string, unknown>, after.body)
      : undefined;
    judge(
      real,
      'resource.refused-unchanged',
      after,
      difference === undefined,
      `${real.collection.id.property} ${item.id} unchanged after the refused ${update.operationId}`,
      difference,
    );
  }
  toString(): string {
    return `refused${this.role === 'replace' ? 'Replace' : 'Merge'}(#${this.pick})`;
  }
}
