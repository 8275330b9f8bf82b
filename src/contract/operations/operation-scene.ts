import type { CaseContext, Sent } from '../engine/run-case.js';
import type { ResourceCollection, ResourceOperation } from '../../openapi/resource-types.js';
import type { Trial } from '../generate/run-property.js';
import { seedFor } from '../generate/budget.js';
import { ItemRequests, outOfReach, succeeded } from '../stateful/resource-items.js';
import { rowsOf } from '../stateful/gone-from-list.js';
import type { OperationPlan, Source } from './operation-plan.js';

/** The plan of an operation on a collection (an item operation, or a nested collection's create or list). */
export type CollectionPlan = Extract<OperationPlan, { kind: 'collection' }>;

/** The plan of an action on an item (`POST /bookings/{bookingId}/payment`). */
export type ActionPlan = Extract<OperationPlan, { kind: 'action' }>;

/** What a scene stands on: an operation of a collection, or an action on one of its items. */
export type ScenePlan = CollectionPlan | ActionPlan;

/** One item an example made for itself: the body it sent, its id as the target gave it, and the create's answer. */
export interface OwnItem {
  id: string;
  sent: Record<string, unknown>;
  created: Sent;
}

/**
 * What a generated case of one operation stands on: the parent item of a nested collection (made, listed or taken
 * from the document's examples once, when the case starts), and the items its examples make or read. Every item it
 * makes is deleted when the case ends, where the document has a delete (else a `resource.cleanup` note names it).
 */
export class OperationScene<P extends ScenePlan = CollectionPlan> {
  /** The parent's path parameter and id, `{ petId: '7' }`; empty for a top-level collection. */
  parentPath: Record<string, string> = {};
  readonly items: ItemRequests;
  readonly parent: ItemRequests | undefined;
  /** The requests of the parent's ancestors, outermost first (a sticker's kennel, for its bowl). */
  private readonly chain: ItemRequests[] = [];

  private constructor(
    readonly ctx: CaseContext,
    readonly plan: P,
    parentCollection: ResourceCollection | undefined,
  ) {
    this.items = new ItemRequests(ctx, plan.collection);
    this.parent = parentCollection && new ItemRequests(ctx, parentCollection);
  }

  /**
   * Opens the scene: the parent item first (a nested collection). The case is skipped, naming why, when no parent
   * could be had: a create that failed is judged by the oracles of that collection, not here.
   */
  static async open<P extends ScenePlan>(ctx: CaseContext, plan: P): Promise<OperationScene<P>> {
    const parentCollection = plan.parent && plan.parent.from !== 'none' ? plan.parent.collection : undefined;
    const scene = new OperationScene(ctx, plan, parentCollection);
    // The ancestors first, each under the one before: the path their items are reached through grows with each.
    let above: Record<string, string> = {};
    const ancestors = plan.ancestors ?? [];
    for (const [index, ancestor] of ancestors.entries()) {
      const requests = new ItemRequests(ctx, ancestor);
      requests.parentPath = { ...above };
      scene.chain.push(requests);
      const made = await requests.tryCreate(requests.body(ancestor.operations.create!, `ancestor-${index}`));
      if (!made) return ctx.skip(`no ${ancestor.path} item could be created to reach ${plan.collection.path} through`);
      const child = ancestors[index + 1] ?? parentCollection!;
      above = { ...above, [child.parent!.parameter]: made.id };
    }
    if (plan.parent && scene.parent) {
      scene.parent.parentPath = { ...above };
      const id = await scene.firstOf(plan.parent, scene.parent, 'parent');
      if (id === undefined)
        return ctx.skip(
          `no ${plan.parent.from === 'created' ? 'parent item could be created' : 'parent item was listed'} to put ${plan.collection.path} under`,
        );
      scene.parentPath = { ...above, [plan.collection.parent!.parameter]: id };
      scene.items.parentPath = scene.parentPath;
    }
    return scene;
  }

  /** An id from `source`: an item made now (ended by close()), the first listed, or the document's first example. */
  private async firstOf(source: Source, requests: ItemRequests, label: string): Promise<string | undefined> {
    if (source.from === 'created') {
      const create = requests.role('create')!;
      return (await requests.tryCreate(requests.body(create, label)))?.id;
    }
    if (source.from === 'listed') return (await this.listedIds(requests))[0];
    return source.from === 'examples' ? source.values[0] : undefined;
  }

  /** The ids a list of the collection shows now (under the scene's parent), at its largest page. */
  async listedIds(requests: ItemRequests = this.items): Promise<string[]> {
    const { collection } = requests;
    const limit = collection.limit;
    const query = limit?.maximum !== undefined ? { [limit.parameter]: String(limit.maximum) } : {};
    const rows = rowsOf(await requests.list(query), collection.operations.list?.wrapper) ?? [];
    return rows.flatMap((row) => {
      const id = row[collection.id.property];
      return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? [String(id)] : [];
    });
  }

  /** The path parameters of the operation for item `id` (or of the collection, without one). */
  path(id?: string): Record<string, string> {
    const { collection } = this.plan;
    return id === undefined ? { ...this.parentPath } : { ...this.parentPath, [collection.itemParameter!]: id };
  }

  /**
   * The path parameters of the plan's own operation for item `id`: as path() gives them, under the names the
   * operation's template uses where an action names them otherwise (`{id}` for the item path's `{bookingId}`).
   */
  operationPath(id?: string): Record<string, string> {
    const path = this.path(id);
    const plan: ScenePlan = this.plan;
    if (plan.kind !== 'action') return path;
    const names = plan.names;
    return Object.fromEntries(Object.entries(path).map(([name, value]) => [names[name] ?? name, value]));
  }

  role(role: keyof ResourceCollection['operations']): ResourceOperation | undefined {
    return this.plan.collection.operations[role];
  }

  /**
   * Makes an item for one example, through the example's own trial (so that its reproduction starts with it): the
   * collection's create with a sample body labelled for the example. Undefined when the target did not create it
   * (no 2xx, no id): the example then judges nothing; the create is judged where it is the subject.
   */
  async newItem(trial: Trial, kind: string): Promise<OwnItem | undefined> {
    const create = this.role('create')!;
    const label = `${kind}${(seedFor(0, trial.property) >>> 0).toString(36)}.${trial.example}`;
    const sent = this.items.body(create, label);
    const created = await trial.send({ operation: create.operationId, path: this.path(), json: sent });
    const id = (created.body as Record<string, unknown> | undefined)?.[this.plan.collection.id.property];
    if (!succeeded(created) || (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint'))
      return undefined;
    this.items.adopt(String(id));
    // An item the plan's operation cannot address by the document (its parameter's schema refuses the id): none.
    const plan: ScenePlan = this.plan;
    const operation = plan.kind === 'action' ? { operationId: plan.operationId } : this.role(plan.role);
    if (operation && outOfReach(this.ctx.session.spec, this.plan.collection, operation, String(id))) return undefined;
    return { id: String(id), sent, created };
  }

  /** Forgets an item an example deleted itself, so that clean-up does not delete it again. */
  forget(id: string): void {
    this.items.forget(id);
  }

  /** Deletes what the scene made: its items, then the parent, then the parent's ancestors, innermost first. */
  async close(): Promise<void> {
    await this.items.cleanUp();
    await this.parent?.cleanUp();
    for (const requests of [...this.chain].reverse()) await requests.cleanUp();
  }
}
