import type { ResourceOperation } from '../../openapi/resource-types.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { taggedName } from '../base/session.js';
import { show } from '../generate/same-pet.js';
import { refusedAsDeclared } from './collection-oracles.js';
import { differenceFrom, succeeded } from './resource-items.js';
import type { ModelItem, ResourceState } from './resource-state.js';
import {
  bodyFor,
  breakIf,
  ensureParent,
  judge,
  operation,
  pathOf,
  type Command,
  type SequenceReal,
} from './resource-commands.js';

/** One RFC 6902 operation as sent. */
interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test';
  path: string;
  value?: unknown;
}

/**
 * RFC 6902 JSON Patch, where the document's PATCH takes `application/json-patch+json`: a `test` of a field the item
 * holds, then `remove` of a field it may lack, `add` of a field it lacks and `replace` of one it holds, each on a
 * property the create declares, with values the create's schema allows. The model applies them in order. With
 * `failTest`, the `test` names a value the item does not hold: the whole patch must be refused with a 4xx the PATCH
 * declares (§5: the patch "SHALL NOT be deemed successful") and the item read back as it was.
 */
export class JsonPatchItemCommand implements Command {
  constructor(
    readonly pick: number,
    readonly variant: number,
    readonly failTest: boolean,
  ) {}
  check(model: Readonly<ResourceState>): boolean {
    return model.items.size > 0;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    const item = model.pick(this.pick)!;
    const merge = operation(real, 'merge');
    const format = merge.patchFormats.find((f) => f.format === 'json-patch');
    const patch = format && jsonPatchFor(real, item, this.variant, this.failTest);
    if (!format || !patch) return;
    if (this.failTest) return refusedPatch(real, item, merge, format.mediaType, patch);
    const sent = await real.trial.send({
      operation: merge.operationId,
      path: pathOf(real, item.id),
      json: patch,
      contentType: format.mediaType,
    });
    breakIf(real);
    judge(real, 'resource.json-patch', sent, succeeded(sent), `a 2xx to a valid JSON Patch ${show(patch)}`);
    const expected: Record<string, unknown> = { ...item.expected };
    for (const { op, path, value } of patch) {
      const name = path.slice(1);
      if (op === 'remove') {
        delete expected[name];
        item.absent.add(name);
      } else if (op !== 'test') {
        expected[name] = value;
        item.absent.delete(name);
      }
    }
    Object.assign(item, { expected, by: 'resource.json-patch', confirmed: false } satisfies Partial<ModelItem>);
  }
  toString(): string {
    return `jsonPatch(#${this.pick}, ${this.variant}${this.failTest ? ', failing test' : ''})`;
  }
}

/**
 * A JSON Patch of `item` the schemas allow, on the properties the create declares (its body is the item's writable
 * part): undefined when the item holds no scalar field to test.
 */
function jsonPatchFor(
  real: SequenceReal,
  item: ModelItem,
  variant: number,
  failTest: boolean,
): PatchOperation[] | undefined {
  const create = operation(real, 'create');
  const sample = bodyFor(real, create, variant);
  const tested = Object.keys(item.expected).find((name) => isScalar(item.expected[name]));
  if (!sample || tested === undefined) return undefined;
  const value = item.expected[tested];
  const patch: PatchOperation[] = [{ op: 'test', path: pointer(tested), value: failTest ? otherThan(value) : value }];
  const required = new Set([
    ...objectShape(real.collection.itemSchema).required,
    ...objectShape(create.request?.schema).required,
  ]);
  const removed = Object.keys(item.expected).find((name) => !required.has(name) && isScalar(item.expected[name]));
  if (removed !== undefined) patch.push({ op: 'remove', path: pointer(removed) });
  const added = Object.keys(sample).find((name) => !(name in item.expected) && name !== removed);
  if (added !== undefined) patch.push({ op: 'add', path: pointer(added), value: sample[added] });
  const replaced = Object.keys(item.expected).find((name) => name !== removed && name in sample);
  if (replaced !== undefined) patch.push({ op: 'replace', path: pointer(replaced), value: sample[replaced] });
  return patch;
}

/**
 * A patch whose `test` fails: a declared 4xx (400, 409, 422, … whatever the PATCH declares; any 4xx where it
 * declares none), then the item reads back exactly as it did before (resource.refused-unchanged).
 */
async function refusedPatch(
  real: SequenceReal,
  item: ModelItem,
  merge: ResourceOperation,
  contentType: string,
  patch: PatchOperation[],
): Promise<void> {
  const read = operation(real, 'read');
  const before = await real.trial.send({ operation: read.operationId, path: pathOf(real, item.id) });
  breakIf(real);
  const refused = await real.trial.send({
    operation: merge.operationId,
    path: pathOf(real, item.id),
    json: patch,
    contentType,
  });
  breakIf(real);
  judge(
    real,
    'resource.json-patch',
    refused,
    refusedAsDeclared(merge, refused.status),
    `a 4xx ${merge.operationId} declares for ${show(patch)}, whose test fails (RFC 6902 §5: the whole patch refused)`,
  );
  const after = await real.trial.send({ operation: read.operationId, path: pathOf(real, item.id) });
  breakIf(real);
  const difference = succeeded(before) ? differenceFrom(before.body as Record<string, unknown>, after.body) : undefined;
  judge(
    real,
    'resource.refused-unchanged',
    after,
    difference === undefined,
    `${real.collection.id.property} ${item.id} unchanged after the refused JSON Patch`,
    difference,
  );
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A value of the same JSON type that differs from `value`. */
function otherThan(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return `${String(value)}-not`;
}

/** RFC 6901: a member's JSON Pointer (`~` and `/` escaped). */
function pointer(name: string): string {
  return `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * RFC 9110 §9.3.4: a PUT to an id no item has may create the item ("the origin server MUST inform the user agent by
 * sending a 201"), where the document declares 201 for the PUT. Where it declares 404 too, either answer passes: the
 * model follows the target (201: the item exists as sent, cleaned up like any other; 404: nothing). The id is one
 * no item of any run holds: 2^52 and up (a counter never gets there), a run-tagged string, or a UUID from the tag; it
 * is read first, and an id that names an item after all is left alone (the run never writes what it did not make).
 */
export class PutCreateCommand implements Command {
  constructor(readonly variant: number) {}
  check(): boolean {
    return true;
  }
  async run(model: ResourceState, real: SequenceReal): Promise<void> {
    await ensureParent(real);
    if (real.parent && real.parentId === undefined) return;
    const replace = operation(real, 'replace');
    const json = bodyFor(real, replace, this.variant);
    if (!json) return;
    const id = freshId(real);
    // Never a PUT on an item the run did not make: an id some other client's item holds is left alone.
    const read = operation(real, 'read');
    const taken = await real.trial.send({ operation: read.operationId, path: pathOf(real, id) });
    breakIf(real);
    if (taken.status === undefined || taken.status < 400 || taken.status > 499) return;
    const sent = await real.trial.send({ operation: replace.operationId, path: pathOf(real, id), json });
    breakIf(real);
    const allowed = [201, ...(replace.notFound ? [replace.notFound.status] : [])];
    judge(
      real,
      'resource.put-create',
      sent,
      allowed.includes(sent.status!),
      `${allowed.join(' or ')} for ${replace.operationId} of ${real.collection.id.property} ${id}, which no item has (as the document declares)`,
    );
    if (sent.status !== 201) return;
    real.created.push(id);
    model.add(id, json, 'resource.put-create');
  }
  toString(): string {
    return `putCreate(${this.variant})`;
  }
}

/** An id for an item the sequence makes with a PUT, as the collection's id kind is; the same for the same seed. */
function freshId(real: SequenceReal): string {
  const tag = taggedName(real.ctx.session, `put${real.trial.example}.${real.bodies++}`);
  let hash = 0n;
  for (const char of tag) hash = (hash * 131n + BigInt(char.codePointAt(0)!)) % 2n ** 40n;
  const { kind } = real.collection.id;
  if (kind === 'int64') return String(2n ** 52n + hash);
  if (kind === 'string') return tag;
  const hex = hash.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}
