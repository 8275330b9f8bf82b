import { fc, type Arbitrary, type AsyncCommand } from '../generate/fast-check.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { ResourceCollection, ResourceRole } from '../../openapi/resource-types.js';
import type { CaseContext } from '../engine/run-case.js';
import type { Trial } from '../generate/run-property.js';
import { runProperty } from '../generate/run-property.js';
import { generatedCase, tallyOf, type GeneratedContractCase, type PhaseTally } from '../generate/generated-case.js';
import { Broken } from './commands.js';
import { sampleBody } from './sample-body.js';
import { ResourceState } from './resource-state.js';
import {
  CreateItemCommand,
  DeleteItemCommand,
  ListItemsCommand,
  MergeItemCommand,
  ReadItemCommand,
  RefusedUpdateCommand,
  ReplaceItemCommand,
  type SequenceReal,
} from './resource-commands.js';
import { JsonPatchItemCommand, PutCreateCommand } from './patch-and-put-commands.js';

/** The roles in the order a case names them. */
const ROLES: ResourceRole[] = ['create', 'list', 'read', 'replace', 'merge', 'delete'];
/** A sequence holds at most this many commands (before shrinking). */
const MAX_COMMANDS = 12;

/**
 * Model-based sequences over every role of every collection the resource model finds (create, list, read, replace,
 * merge, delete; a nested collection under a parent item the sequence creates): fast-check's commands, each checked
 * against a model of what the sequence created, shrunk to the shortest failing sequence and replayed by `--seed`.
 * A failure is reported under the id of the role it broke (resource.*). A collection v1's pet sequences judge whole
 * (create, list and read of createPet) gets none: on v1 the run is as it was.
 */
export function resourceSequenceCases(spec: Spec): GeneratedContractCase[] {
  return spec.resources.collections.filter((c) => sequenced(spec, c)).map((c) => sequenceCase(spec, c));
}

/** Whether a collection has what a sequence needs (a create and a read by id) and is not v1's pets alone. */
function sequenced(spec: Spec, collection: ResourceCollection): boolean {
  const { create, read, replace, merge, delete: remove } = collection.operations;
  if (!create || !read || !collection.itemParameter) return false;
  const parent = collection.parent && spec.resources.collections.find((c) => c.name === collection.parent!.collection);
  // The parent item is made by its own create, at the top level: a parent that is itself nested (a bowl of a
  // kennel, for its stickers) would need its own parent first, which the sequences do not make. Such a collection's
  // operations are sent by the per-operation cases (src/contract/operations/), which make the whole chain.
  if (collection.parent && (!parent?.operations.create || parent.parent)) return false;
  const petSequences =
    create.operationId === 'createPet' && spec.operationById.has('listPets') && read.operationId === 'getPet';
  return !petSequences || Boolean(replace ?? merge ?? remove);
}

function sequenceCase(spec: Spec, collection: ResourceCollection): GeneratedContractCase {
  const roles = ROLES.filter((role) => collection.operations[role]);
  const contractCase = generatedCase(
    {
      id: `sequence/${collection.name}`,
      check: 'stateful.sequence',
      operation: roles.map((role) => collection.operations[role]!.operationId).join('+'),
      title: `${collection.path}: random sequences of ${roles.join(', ')} agree with a model of the items they created`,
      // Read-only runs skip it through writeMethods below (runCase), naming every method it sends.
      writes: false,
    },
    (ctx, tally) => runSequences(ctx, tally, spec, collection),
  );
  const methods = roles.map((role) => collection.operations[role]!.method.toUpperCase()).filter((m) => m !== 'GET');
  return { ...contractCase, writes: true, writeMethods: [...new Set(methods)] };
}

async function runSequences(
  ctx: CaseContext,
  tally: PhaseTally,
  spec: Spec,
  collection: ResourceCollection,
): Promise<void> {
  const { session } = ctx;
  const create = collection.operations.create!;
  const validate = session.spec.operationById.get(create.operationId)?.body?.validate;
  const probe = sampleBody(create.request?.schema, 'probe', 0);
  if (!probe || (validate && !validate(probe)))
    ctx.skip(
      `no valid body could be made from the schema of ${create.operationId} (a format, a pattern or an unknown shape)`,
    );
  const parent = collection.parent && spec.resources.collections.find((c) => c.name === collection.parent!.collection);
  const id = `sequence/${collection.name}`;
  tallyOf(
    tally,
    await runProperty(
      ctx,
      id,
      commandsFor(collection),
      Math.max(15, Math.ceil(session.config.runs / 4)),
      (trial, sequence) => runOne(ctx, trial, sequence, { collection, parent }),
    ),
  );
}

/** The commands a collection's roles allow; creates weigh double, so that sequences have items to act on. */
function commandsFor(
  collection: ResourceCollection,
): Arbitrary<Iterable<AsyncCommand<ResourceState, SequenceReal, false>>> {
  const { list, replace, merge, delete: remove } = collection.operations;
  const create = fc.nat(3).map((variant) => new CreateItemCommand(variant));
  const commands: Arbitrary<AsyncCommand<ResourceState, SequenceReal, false>>[] = [
    create,
    create,
    fc.nat().map((pick) => new ReadItemCommand(pick)),
  ];
  if (list)
    commands.push(
      fc
        .tuple(fc.nat(), fc.option(fc.nat(3), { nil: undefined }))
        .map(([pick, filter]) => new ListItemsCommand(pick, filter)),
    );
  if (replace)
    commands.push(
      fc
        .tuple(fc.nat(), fc.nat(3), fc.nat(15))
        .map(([pick, variant, drop]) => new ReplaceItemCommand(pick, variant, drop)),
    );
  if (merge?.patchFormats.some((f) => f.format === 'merge-patch'))
    commands.push(fc.tuple(fc.nat(), fc.boolean()).map(([pick, change]) => new MergeItemCommand(pick, change)));
  if (remove) commands.push(fc.nat().map((pick) => new DeleteItemCommand(pick)));
  // Added only where the document declares them, so that a document without them gets the sequences it had.
  if (merge?.patchFormats.some((f) => f.format === 'json-patch'))
    commands.push(
      fc
        .tuple(fc.nat(), fc.nat(3), fc.boolean())
        .map(([pick, variant, failTest]) => new JsonPatchItemCommand(pick, variant, failTest)),
    );
  // A PUT that may create, where a delete can remove what it made (a replayed sequence then finds the id free again).
  if (replace?.statuses.includes('201') && remove)
    commands.push(fc.nat(3).map((variant) => new PutCreateCommand(variant)));
  const updates = (['replace', 'merge'] as const).filter((role) => collection.operations[role]);
  if (updates.length > 0)
    commands.push(
      fc.tuple(fc.nat(), fc.constantFrom(...updates)).map(([pick, role]) => new RefusedUpdateCommand(pick, role)),
    );
  return fc.commands(commands, { maxCommands: MAX_COMMANDS });
}

/** One sequence: run against a fresh model, ended by the first broken property; what it created deleted after. */
async function runOne(
  ctx: CaseContext,
  trial: Trial,
  sequence: Iterable<AsyncCommand<ResourceState, SequenceReal, false>>,
  where: Pick<SequenceReal, 'collection' | 'parent'>,
): Promise<void> {
  const real: SequenceReal = { trial, ctx, ...where, bodies: 0, created: [] };
  const model = new ResourceState();
  try {
    await fc.asyncModelRun(() => ({ model, real }), sequence);
    await readBack(model, real);
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
  } finally {
    trial.label = `sequence (then every item read back): ${(sequence as { toString(): string }).toString().replace(/\s*\/\*replayPath=.*\*\/\s*$/, '')}`;
  }
  await cleanUp(ctx, real, model);
}

/**
 * The end of every sequence: each item it created read back as its last write left it, each it deleted gone. A
 * write whose fault no later command happened to read is seen here, under that write's check.
 */
async function readBack(model: ResourceState, real: SequenceReal): Promise<void> {
  const ids = [...model.items.keys(), ...model.deleted.keys()];
  for (let pick = 0; pick < ids.length; pick++) await new ReadItemCommand(pick).run(model, real);
}

/**
 * Deletes what the sequence created and did not delete itself, then the parent item it made, where the document
 * has a delete (unjudged: the sequence's verdict is made). What it cannot delete the run's clean-up lists.
 */
async function cleanUp(ctx: CaseContext, real: SequenceReal, model: ResourceState): Promise<void> {
  const remove = real.collection.operations.delete;
  if (remove)
    for (const id of new Set(real.created.filter((id) => !model.deleted.has(id))))
      await ctx.probe({
        operation: remove.operationId,
        path: {
          ...(real.collection.parent && real.parentId ? { [real.collection.parent.parameter]: real.parentId } : {}),
          [real.collection.itemParameter!]: id,
        },
      });
  const parentDelete = real.parent?.operations.delete;
  if (parentDelete && real.parentId !== undefined)
    await ctx.probe({ operation: parentDelete.operationId, path: { [real.parent!.itemParameter!]: real.parentId } });
}
