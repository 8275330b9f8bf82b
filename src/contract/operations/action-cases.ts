import { fc } from '../generate/fast-check.js';
import type { Operation } from '../../openapi/operations.js';
import type { CheckId } from '../base/check-ids.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { runProperty, type Trial } from '../generate/run-property.js';
import { seedFor } from '../generate/budget.js';
import { bodyArbitrary, listedIds, referencedCollections, shapeOf } from '../generate/operation-cases.js';
import { generatedCase, tallyOf, type GeneratedContractCase } from '../generate/generated-case.js';
import { show } from '../generate/same-pet.js';
import { answersAsDeclared, expectedAnswers } from '../../openapi/declared-answer.js';
import { outOfReach, succeeded } from '../stateful/resource-items.js';
import { unknownId } from '../stateful/resource-oracles.js';
import { OperationScene, type ActionPlan } from './operation-scene.js';
import { documentValid } from './document-valid.js';
import { queryArbitrary } from './valid-operation-cases.js';
import { actionRefusing, refusedOperationCase, validBody } from './refused-operation-cases.js';

/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE = new Set(['get', 'head', 'options']);

/**
 * The cases of an action on an item (`POST /bookings/{bookingId}/payment`, item-actions.ts), each on items the case
 * makes (a safe action without a create: items a list shows): valid requests accepted; every constraint of its body
 * and parameters broken and refused, the item left as it was (refused-operation-cases.ts, the one judge of refusals
 * PUT and PATCH have too); and, where the action declares a 404 or a 4XX, the action on an item deleted and on an id
 * no item has refused. What an accepted action does to its item the runner does not assume: the document says
 * nothing of it (Train Travel's payment declares no change to its booking), so no read after it is judged.
 */
export function actionCases(operation: Operation, plan: ActionPlan): GeneratedContractCase[] {
  return [
    validActionCase(operation, plan),
    ...refusedOperationCase(operation, plan),
    ...goneItemCases(operation, plan),
  ];
}

/** Whether the action declares an answer for an item it does not find: a 404, or the 4XX range (not `default`). */
function declaresNotFound(operation: Operation): boolean {
  return operation.responses.has('404') || operation.responses.has('4XX');
}

/**
 * `generated.valid-accepted/<operationId>`: valid requests (query parameters and a body from the document, kept to
 * what its validator takes) to an item of the case's own, a new one per example (an action may change what the next
 * one finds: a booking paid once), are answered with a 2xx (or, where the action declares none, as it declares). A
 * 400 or 415 fails: the request broke none of the document's rules (a body property named like another
 * collection's item parameter takes an id that collection lists; where it lists none, a 400 may be about that id and
 * is not judged). Another 4xx is about the item's state, which the document does not fix (RFC 9110 §15.5.10), and is
 * not judged either.
 */
function validActionCase(operation: Operation, plan: ActionPlan): GeneratedContractCase {
  const id = `generated.valid-accepted/${operation.id}`;
  const source = {
    created: 'the run makes',
    listed: 'a list shows',
    examples: "the document's examples name",
    none: '',
  }[plan.item.from];
  return generatedCase(
    {
      id,
      check: 'generated.valid-accepted',
      operation: operation.id,
      title: `generated valid ${operation.id} requests on items ${source} are accepted`,
      writes: !SAFE.has(operation.method) || plan.item.from === 'created' || plan.parent?.from === 'created',
    },
    async (ctx, tally) => {
      const shape = shapeOf(operation);
      const { references, unresolved } = await listedIds(ctx, referencedCollections(ctx.session.spec, shape));
      const bodies = shape.body
        ? documentValid(
            bodyArbitrary(shape.body, references, ctx.session.spec.document),
            operation.body?.validate,
            seedFor(ctx.session.config.seed, id),
          )
        : { arbitrary: fc.constant(undefined) };
      if ('reason' in bodies) return ctx.skip(`no valid ${operation.id} body could be generated: ${bodies.reason}`);
      const scene = await OperationScene.open(ctx, plan);
      try {
        // A safe action on a collection without a create: the items its list shows, or the document's examples.
        const { item } = plan;
        const listed =
          item.from === 'listed' ? (await scene.listedIds()).slice(0, 20) : item.from === 'examples' ? item.values : [];
        if (item.from !== 'created' && listed.length === 0)
          return ctx.skip(`no item of ${plan.collection.path} to act on (the list showed none)`);
        const arbitrary = fc.record({
          query: queryArbitrary(operation),
          body: bodies.arbitrary,
          at: listed.length > 0 ? fc.constantFrom(...listed) : fc.constant(undefined),
        });
        const numRuns = Math.max(3, Math.ceil(ctx.session.config.runs / 8));
        tallyOf(
          tally,
          await runProperty(ctx, id, arbitrary, numRuns, async (trial, { query, body, at }) => {
            const target = at ?? (await scene.newItem(trial, 'act'))?.id;
            if (target === undefined) return;
            const sent = await trial.send({
              operation: operation.id,
              path: scene.operationPath(target),
              query,
              ...(body === undefined ? {} : { json: body, contentType: shape.mediaType }),
            });
            if (sent.status !== 415 && (sent.status !== 400 || unresolved.length > 0)) return;
            if (answersAsDeclared(operation, sent.status)) return;
            trial.fail(
              failure(
                'generated.valid-accepted',
                sent,
                `${expectedAnswers(operation)} for ${operation.id} of ${target}, ${at === undefined ? 'an item the run made' : `an item ${source}`}, with a request valid by the document${body === undefined ? '' : `: ${show(body)}`}`,
                `${sent.status}`,
              ),
            );
          }),
        );
      } finally {
        await scene.close();
      }
    },
  );
}

/**
 * Where the action declares a 404 (or 4XX) for an item it does not find: `resource.delete-gone/<operationId>`, the
 * action on an item the case made and deleted (RFC 9110 §9.3.5: DELETE removes "the association between the target
 * resource and its current functionality", so nothing acts on it after), and `resource.unknown-id/<operationId>`,
 * the action on an id no item has (§15.5.5). Each must be refused with a 4xx; which one the document leaves open
 * (a 404, a 409 or a 400 "no such booking" all say it), so no particular one is asked. Without a declared 404 or
 * 4XX neither is judged: the document then gives no answer for it.
 */
function goneItemCases(operation: Operation, plan: ActionPlan): GeneratedContractCase[] {
  if (!declaresNotFound(operation)) return [];
  const cases: GeneratedContractCase[] = [];
  const { collection } = plan;
  if (plan.item.from === 'created' && collection.operations.delete)
    cases.push(goneCase(operation, plan, 'resource.delete-gone', 'deleted'));
  cases.push(goneCase(operation, plan, 'resource.unknown-id', 'unknown'));
  return cases;
}

function goneCase(
  operation: Operation,
  plan: ActionPlan,
  check: Extract<CheckId, 'resource.delete-gone' | 'resource.unknown-id'>,
  which: 'deleted' | 'unknown',
): GeneratedContractCase {
  const id = `${check}/${operation.id}`;
  const what = which === 'deleted' ? 'an item deleted' : 'an id no item has';
  return generatedCase(
    {
      id,
      check,
      operation: operation.id,
      title: `${operation.id} on ${what} is refused with a 4xx (it declares a 404)`,
      writes: !SAFE.has(operation.method) || which === 'deleted' || plan.parent?.from === 'created',
    },
    async (ctx, tally) => {
      const scene = await OperationScene.open(ctx, plan);
      try {
        const body = validBody(scene, actionRefusing(operation), `gone-${which}`);
        const numRuns = Math.max(2, Math.ceil(ctx.session.config.runs / 50));
        tallyOf(
          tally,
          await runProperty(ctx, id, fc.constant(null), numRuns, async (trial) => {
            const item = which === 'deleted' ? await deletedItem(trial, scene) : await unknownItem(ctx, trial, scene);
            if (item === undefined) return;
            const sent = await trial.send({ operation: operation.id, path: scene.operationPath(item), ...body });
            if (sent.status === undefined || sent.status >= 400) return;
            trial.fail(
              failure(
                check,
                sent,
                `a 4xx for ${operation.id} of ${item}, ${which === 'deleted' ? 'an item the run made and deleted' : 'an id no item has'} (${operation.id} declares ${operation.responses.has('404') ? '404' : '4XX'})`,
                `${sent.status}`,
              ),
            );
          }),
        );
      } finally {
        await scene.close();
      }
    },
  );
}

/** An item the example makes and deletes (a 2xx to the delete), or undefined where the target kept it. */
async function deletedItem(trial: Trial, scene: OperationScene<ActionPlan>): Promise<string | undefined> {
  const own = await scene.newItem(trial, 'gone');
  if (!own) return undefined;
  const remove = scene.role('delete')!;
  const sent: Sent = await trial.send({ operation: remove.operationId, path: scene.path(own.id) });
  if (!succeeded(sent)) return undefined;
  scene.forget(own.id);
  return own.id;
}

/**
 * An id no item has (unknownId), where the action's parameter takes it; for a write, only once a read of it found
 * nothing (the run never acts on what it did not make), and not at all where the collection has no read to ask.
 */
async function unknownItem(
  ctx: CaseContext,
  trial: Trial,
  scene: OperationScene<ActionPlan>,
): Promise<string | undefined> {
  const id = unknownId(scene.items);
  const far = outOfReach(ctx.session.spec, scene.plan.collection, { operationId: scene.plan.operationId }, id);
  if (far) return ctx.skip(far);
  const operation = ctx.session.spec.operationById.get(scene.plan.operationId)!;
  if (SAFE.has(operation.method)) return id;
  const read = scene.role('read');
  if (!read) return ctx.skip(`${scene.plan.collection.path} has no read to ask whether ${id} names an item first`);
  const found = await trial.send({ operation: read.operationId, path: scene.path(id) });
  return found.status !== undefined && found.status >= 400 && found.status < 500 ? id : undefined;
}
