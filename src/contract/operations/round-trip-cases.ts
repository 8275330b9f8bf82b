import type { Spec } from '../../openapi/load-spec.js';
import type { ResourceCollection, ResourceOperation } from '../../openapi/resource-types.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { runProperty, type Trial } from '../generate/run-property.js';
import { seedFor } from '../generate/budget.js';
import { hasV1Operations } from '../engine/pets.js';
import { bodyArbitrary, listedIds, ownId, referencedCollections, shapeOf } from '../generate/operation-cases.js';
import { generatedCase, tallyOf, type GeneratedContractCase } from '../generate/generated-case.js';
import { show } from '../generate/same-pet.js';
import { refusedAsTaken } from '../base/fresh-ids.js';
import { differenceFrom, keyedAs, locationMismatch, outOfReach, succeeded } from '../stateful/resource-items.js';
import type { OperationPlan } from './operation-plan.js';
import { OperationScene, type CollectionPlan, type OwnItem } from './operation-scene.js';
import { documentValid } from './document-valid.js';

/**
 * `generated.round-trip/<operationId>` for every collection's create and replace (v1's createPet has its own, in
 * round-trip-case.ts): generated valid bodies (every property from its schema, values the document's validator
 * takes, a property named like another collection's item parameter one of that collection's listed ids) are
 * accepted and come back exactly as sent: from the create's answer where it declares the item (RFC 9110 §15.3.2:
 * its content "typically describes and links to the resource(s) created"), through its `Location` where it declares
 * one, and from a read of the item (§9.3.1); after a PUT, from a read (§9.3.4: the state "defined by the
 * representation enclosed"). A 400 or 415 to a valid body fails `generated.valid-accepted`; another 4xx is about
 * state the document does not fix (an item referred to that does not exist), not judged here.
 */
export function roundTripCases(spec: Spec, plans: OperationPlan[]): GeneratedContractCase[] {
  const v1 = hasV1Operations(spec);
  const planned = (operationId: string) =>
    plans.find((plan): plan is CollectionPlan => plan.kind === 'collection' && plan.operationId === operationId);
  const cases: GeneratedContractCase[] = [];
  for (const collection of spec.resources.collections) {
    const { create, read, replace } = collection.operations;
    if (!create || !read || !collection.itemParameter) continue;
    // A top-level create takes no path parameter, so has no plan: it needs none. A nested one's plan makes its parent.
    const createPlan: CollectionPlan | undefined = collection.parent
      ? planned(create.operationId)
      : { kind: 'collection', operationId: create.operationId, role: 'create', collection, item: { from: 'none' } };
    if (createPlan && !(v1 && create.operationId === 'createPet')) cases.push(roundTripCase(spec, createPlan));
    const replacePlan = replace && planned(replace.operationId);
    if (replacePlan?.item.from === 'created') cases.push(roundTripCase(spec, replacePlan));
  }
  return cases;
}

function roundTripCase(spec: Spec, plan: CollectionPlan): GeneratedContractCase {
  const operation = spec.operationById.get(plan.operationId)!;
  const shape = shapeOf(operation);
  const id = `generated.round-trip/${operation.id}`;
  return generatedCase(
    {
      id,
      check: 'generated.round-trip',
      operation: operation.id,
      title: `generated valid ${operation.id} bodies are accepted and come back exactly as sent`,
      writes: true,
    },
    async (ctx, tally) => {
      if (!shape.body) return ctx.skip(`${operation.id} takes no JSON body to generate`);
      const { references, unresolved } = await listedIds(ctx, referencedCollections(ctx.session.spec, shape));
      const bodies = documentValid(
        bodyArbitrary(shape.body, references, ctx.session.spec.document),
        operation.body?.validate,
        seedFor(ctx.session.config.seed, id),
      );
      if ('reason' in bodies) return ctx.skip(`no valid ${operation.id} body could be generated: ${bodies.reason}`);
      const scene = await OperationScene.open(ctx, plan);
      const trip = { ctx, scene, operation: scene.role(plan.role)!, unresolved, contentType: shape.mediaType };
      try {
        const numRuns = Math.max(3, Math.ceil(ctx.session.config.runs / 8));
        tallyOf(
          tally,
          await runProperty(ctx, id, bodies.arbitrary, numRuns, (trial, body) =>
            plan.role === 'create' ? createdAsSent(trial, trip, body) : replacedAsSent(trial, trip, body),
          ),
        );
      } finally {
        await scene.close();
      }
    },
  );
}

interface Trip {
  ctx: CaseContext;
  scene: OperationScene;
  operation: ResourceOperation;
  /** Body properties referring to another collection that listed no id: a 400 may be about them. */
  unresolved: string[];
  contentType: string | undefined;
}

/** Whether a refusal of a valid body fails: a 400 (unless it may be about an unresolved reference) or a 415. */
function refusedValid(trial: Trial, trip: Trip, sent: Sent, body: unknown): boolean {
  if (sent.status === undefined || sent.status >= 500 || succeeded(sent)) return false;
  if (sent.status === 415 || (sent.status === 400 && trip.unresolved.length === 0))
    trial.fail(
      failure(
        'generated.valid-accepted',
        sent,
        `a 2xx for a ${trip.operation.operationId} body valid by the document: ${show(body)}`,
        `${sent.status}`,
      ),
    );
  return true;
}

async function createdAsSent(trial: Trial, trip: Trip, generated: unknown): Promise<void> {
  const { scene, operation } = trip;
  const { collection } = scene.plan;
  const body = ownId(trip.ctx, trip.ctx.session.spec.operationById.get(operation.operationId)!, generated);
  const created = await trial.send({
    operation: operation.operationId,
    path: scene.path(),
    json: body,
    contentType: trip.contentType,
  });
  const taken = await refusedAsTaken(collection, body, created.status, (id) =>
    trial.send({ operation: collection.operations.read!.operationId, path: scene.path(id) }),
  );
  if (taken || refusedValid(trial, trip, created, body) || !succeeded(created)) return;
  const id = (created.body as Record<string, unknown> | undefined)?.[collection.id.property];
  // An answer without an id is resource.created-readable's: nothing to read back here.
  if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') return;
  scene.items.adopt(String(id));
  const sent = body as Record<string, unknown>;
  if (operation.success.schema && created.usable) {
    const difference = differenceFrom(sent, created.body);
    if (difference)
      return trial.fail(
        failure(
          'generated.round-trip',
          created,
          `${operation.operationId} answers the item as sent: ${show(sent)}`,
          difference,
        ),
      );
  }
  if (created.status === 201 && operation.success.headers.some((h) => h.toLowerCase() === 'location')) {
    const mismatch = locationMismatch(scene.items, created, String(id));
    if (mismatch)
      return trial.fail(
        failure(
          'resource.created-readable',
          created,
          `a Location naming the new item (${new URL(scene.items.itemUrl(String(id))).pathname}), as ${operation.operationId} declares`,
          mismatch,
        ),
      );
  }
  await readBack(trial, trip, collection, String(id), sent, 'created');
}

async function replacedAsSent(trial: Trial, trip: Trip, generated: unknown): Promise<void> {
  const { scene, operation } = trip;
  const own = await scene.newItem(trial, 'rt');
  if (!own) return;
  const body = sameKey(trip, own, generated);
  const replaced = await trial.send({
    operation: operation.operationId,
    path: scene.path(own.id),
    json: body,
    contentType: trip.contentType,
  });
  if (refusedValid(trial, trip, replaced, body) || !succeeded(replaced)) return;
  await readBack(trial, trip, scene.plan.collection, own.id, body as Record<string, unknown>, 'replaced');
}

/** The PUT body with the item's own key where it names one (keyedAs): the round trip is about the rest. */
function sameKey(trip: Trip, own: OwnItem, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const answered = own.created.usable ? (own.created.body as Record<string, unknown> | undefined) : undefined;
  const validate = trip.ctx.session.spec.operationById.get(trip.operation.operationId)?.body?.validate;
  return keyedAs(
    trip.scene.plan.collection,
    body as Record<string, unknown>,
    { ...own.sent, ...answered },
    (json) => !validate || validate(json),
  );
}

/** The item reads back with every field as sent (integers compared as int64). */
async function readBack(
  trial: Trial,
  trip: Trip,
  collection: ResourceCollection,
  id: string,
  sent: Record<string, unknown>,
  how: 'created' | 'replaced',
): Promise<void> {
  const read = collection.operations.read!;
  if (outOfReach(trip.ctx.session.spec, collection, read, id)) return;
  const got = await trial.send({ operation: read.operationId, path: trip.scene.path(id) });
  if (got.status === undefined || got.status >= 500 || !got.usable) return;
  const difference = succeeded(got) ? differenceFrom(sent, got.body) : `status ${got.status}`;
  if (difference)
    trial.fail(
      failure(
        'generated.round-trip',
        got,
        `${read.operationId} of the item just ${how}: every field as sent, ${show(sent)}`,
        difference,
      ),
    );
}
