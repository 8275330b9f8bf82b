import { isDeepStrictEqual } from 'node:util';
import { fc, type Arbitrary } from '../generate/fast-check.js';
import type { Operation } from '../../openapi/operations.js';
import type { RequestRule, ResourceOperation, ResourceRole } from '../../openapi/resource-types.js';
import { jsonRequest } from '../../openapi/resource-roles.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { validArbitrary } from '../generate/valid-arbitrary.js';
import { mutationsOf, type Mutation } from '../generate/invalid-variants.js';
import { requestView } from '../generate/request-view.js';
import { runProperty, type Trial } from '../generate/run-property.js';
import { eachProperty } from '../generate/slots.js';
import { seedFor } from '../generate/budget.js';
import { shapeOf } from '../generate/operation-cases.js';
import { brokenParameters, type BrokenParameter } from '../generate/broken-parameters.js';
import { generatedCase, tallyOf, type GeneratedContractCase, type PhaseTally } from '../generate/generated-case.js';
import { show } from '../generate/same-pet.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { differenceFrom, itemRequest, succeeded } from '../stateful/resource-items.js';
import { refusedAsDeclared } from '../stateful/collection-oracles.js';
import type { OperationPlan } from './operation-plan.js';
import { OperationScene, type OwnItem, type ScenePlan } from './operation-scene.js';
import { documentValid } from './document-valid.js';
import { objectMutations } from './object-mutations.js';

/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE = new Set(['get', 'head', 'options']);

/**
 * `generated.invalid-rejected/<operationId>` for an operation with path parameters: every constraint of its body
 * and of each of its parameters broken one at a time. A body is refused with a 4xx the operation declares (RFC 9110
 * §15.5.1); a PUT or a merge patch is sent to an item the example made, twice where the order of members matters
 * (as generated, and with the valid members first, so that a target applying members one by one before it meets the
 * bad one is seen), and after each refusal the item must read back as the create left it (`resource.refused-
 * unchanged`: a refused request "cannot or will not" be processed, so it changed nothing); so is an action on an
 * item (`POST /bookings/{bookingId}/payment`), to an item of its own, judged the same way. A broken path parameter
 * gets a 4xx (400 or 404: malformed or no such item, either); a broken query parameter a 4xx where the operation
 * declares a refusal of a bad request (400, 422, 4XX), else any answer but a 5xx (the document leaves it open). A
 * write to a broken address is sent only when a read of that address finds nothing: the run never changes what it
 * did not make.
 */
export function refusedOperationCase(operation: Operation, plan: OperationPlan): GeneratedContractCase[] {
  if (plan.kind !== 'collection' && plan.kind !== 'action') return [];
  const parameters = brokenParameters(operation);
  const body = shapeOf(operation).body;
  const resource = refusingOf(operation, plan);
  const role = resource.role;
  const mergePatch = resource.patchFormats.some((f) => f.format === 'merge-patch');
  // An action's bodies go to items of the case's own only (a safe one on listed items is judged on its parameters).
  const action = role === 'action' && plan.item.from === 'created';
  const bodies = body && (role === 'replace' || role === 'create' || action || (role === 'merge' && mergePatch));
  if (!bodies && parameters.length === 0) return [];
  const id = `generated.invalid-rejected/${operation.id}`;
  const keeps = role === 'replace' || role === 'merge' || role === 'action';
  return [
    generatedCase(
      {
        id,
        check: 'generated.invalid-rejected',
        operation: operation.id,
        title: `${operation.id} refuses every generated invalid ${bodies ? 'body and ' : ''}parameter${keeps ? ', and the item stays as it was' : ''}`,
        writes: !SAFE.has(operation.method) || plan.item.from === 'created' || plan.parent?.from === 'created',
      },
      async (ctx, tally) => {
        const scene = await OperationScene.open(ctx, plan);
        try {
          const properties: (() => Promise<void>)[] = [];
          const anchor = role === 'list' || role === 'create' ? undefined : await anchorId(scene);
          // With a broken parameter, the body (where one is taken) is valid: only the parameter is wrong.
          const valid =
            role === 'create' || role === 'action'
              ? validBody(scene, resource, 'rej-parameter')
              : itemRequest(scene.items, resource as ResourceOperation, 'rej-parameter');
          if (valid)
            for (const broken of parameters)
              properties.push(() =>
                refusesParameter({ ctx, tally, scene, operation, resource }, broken, anchor, valid),
              );
          if (bodies) {
            const run = { ctx, tally, scene, operation, resource };
            const bases = validBodies(ctx, operation, scene, resource, id);
            for (const mutation of [...mutationsOf(requestView(body)), ...objectMutations(requestView(body))])
              properties.push(() => refusesBody(run, bases, mutation));
          }
          await eachProperty(ctx.session, properties, (property) => property());
        } finally {
          await scene.close();
        }
      },
    ),
  ];
}

interface RefusedRun {
  ctx: CaseContext;
  tally: PhaseTally;
  scene: OperationScene<ScenePlan>;
  operation: Operation;
  resource: Refusing;
}

/**
 * What a refusal is judged by: the statuses the operation declares, its merge patch's media type, its request body;
 * for a role of the resource model, its ResourceOperation; for an action on an item, the same read from the
 * operation (`role: 'action'`).
 */
export interface Refusing {
  operationId: string;
  role: ResourceRole | 'action';
  statuses: string[];
  patchFormats: ResourceOperation['patchFormats'];
  request: RequestRule | undefined;
}

function refusingOf(operation: Operation, plan: ScenePlan): Refusing {
  if (plan.kind === 'collection') return plan.collection.operations[plan.role]!;
  return actionRefusing(operation);
}

/** An action's refusal rules, read from the operation as the resource model reads a role's. */
export function actionRefusing(operation: Operation): Refusing {
  return {
    operationId: operation.id,
    role: 'action',
    statuses: Object.keys(operation.object.responses ?? {}),
    patchFormats: [],
    request: jsonRequest(operation),
  };
}

/** A valid body for a create or an action (its sample body, in its media type), or none where it takes no JSON. */
export function validBody(
  scene: OperationScene<ScenePlan>,
  resource: Refusing,
  label: string,
): { json?: unknown; contentType?: string } {
  if (resource.role !== 'action') return { json: scene.items.body(resource, label) };
  return resource.request ? { json: scene.items.body(resource, label), contentType: resource.request.mediaType } : {};
}

/** An item the broken parameters' requests name beside the broken one: made by the case, listed, or an example. */
async function anchorId(scene: OperationScene<ScenePlan>): Promise<string | undefined> {
  const { item } = scene.plan;
  if (item.from === 'examples') return item.values[0];
  if (item.from === 'listed') return (await scene.listedIds())[0];
  const create = scene.role('create')!;
  return (await scene.items.tryCreate(scene.items.body(create, 'anchor')))?.id;
}

/**
 * Valid bodies to break: generated and taken by the document's validator, else the sample body (always valid). A
 * merge patch keeps no null for a member the item requires: such a patch is valid, but would leave an item the
 * document refuses, so a target may refuse it for that, and the break under test would not be the only one.
 */
function validBodies(
  ctx: CaseContext,
  operation: Operation,
  scene: OperationScene<ScenePlan>,
  resource: Refusing,
  id: string,
): Arbitrary<unknown> {
  const sample = scene.items.body(resource, 'refused-base');
  const generated = documentValid(
    validArbitrary(requestView(shapeOf(operation).body!), { document: ctx.session.spec.document }),
    operation.body?.validate,
    seedFor(ctx.session.config.seed, id),
  );
  const bases = 'arbitrary' in generated ? generated.arbitrary : fc.constant(sample);
  if (resource.role !== 'merge') return bases;
  const required = objectShape(scene.plan.collection.itemSchema).required;
  return bases.map((base) =>
    typeof base === 'object' && base !== null && !Array.isArray(base)
      ? Object.fromEntries(Object.entries(base).filter(([name, value]) => value !== null || !required.includes(name)))
      : base,
  );
}

/** Examples per broken body: one at --runs 125 and below, two at the default 250. */
function perMutation(ctx: CaseContext): number {
  return Math.max(1, Math.ceil(ctx.session.config.runs / 125));
}

async function refusesBody(run: RefusedRun, bases: Arbitrary<unknown>, mutation: Mutation): Promise<void> {
  const { ctx, scene, operation, resource } = run;
  const id = `generated.invalid-rejected/${operation.id}/${mutation.label}`;
  const contentType =
    resource.patchFormats.find((f) => f.format === 'merge-patch')?.mediaType ?? shapeOf(operation).mediaType;
  tallyOf(
    run.tally,
    await runProperty(ctx, id, bases, perMutation(ctx), async (trial, base) => {
      const bad = mutation.apply(base);
      // A break the document's validator takes is no break (a generator's limit): nothing to judge, nothing sent.
      if (operation.body?.validate?.(bad)) return;
      const own = resource.role === 'create' ? undefined : await scene.newItem(trial, 'rej');
      if (resource.role !== 'create' && !own) return;
      for (const json of orderings(base, bad)) {
        const sent = await trial.send({
          operation: operation.id,
          path: scene.operationPath(own?.id),
          json,
          contentType,
        });
        if (sent.status === undefined || sent.status >= 500) return;
        if (!refusedAsDeclared(resource, sent.status))
          return trial.fail(
            failure(
              'generated.invalid-rejected',
              sent,
              `${declaredWords(resource)} for ${show(json)}, whose ${mutation.label.replace(/^body(\.|: )/, '')}`,
              `${sent.status}`,
            ),
          );
        if (own && !(await unchanged(trial, scene, own, operation.id))) return;
      }
    }),
  );
}

/** The refusals a write may answer, in words: the 4xx statuses it declares, else any 4xx. */
function declaredWords(resource: Refusing): string {
  const declared = resource.statuses.filter((s) => /^4\d\d$/.test(s) && !['401', '403', '404'].includes(s));
  return declared.length === 0 || resource.statuses.includes('4XX') ? 'a 4xx' : `${declared.join(' or ')} (declared)`;
}

/**
 * The body as generated, and again with the members that break it last (the valid members first), where that is
 * another order: a target that applies a body member by member and stops at the first bad one has then changed
 * the item.
 */
export function orderings(base: unknown, bad: unknown): unknown[] {
  if (typeof bad !== 'object' || bad === null || Array.isArray(bad)) return [bad];
  const members = bad as Record<string, unknown>;
  const before = (typeof base === 'object' && base !== null ? base : {}) as Record<string, unknown>;
  const broken = Object.keys(members).filter(
    (name) => !(name in before) || !isDeepStrictEqual(members[name], before[name]),
  );
  const validFirst = Object.fromEntries([
    ...Object.entries(members).filter(([name]) => !broken.includes(name)),
    ...broken.map((name) => [name, members[name]] as const),
  ]);
  return isDeepStrictEqual(Object.keys(validFirst), Object.keys(members)) ? [bad] : [bad, validFirst];
}

/**
 * RFC 9110 §15.5.1: the item an example made reads back with every field it was created with, as the create answered
 * it (a field the create did not keep is another check's), after a refused PUT or patch.
 */
async function unchanged(
  trial: Trial,
  scene: OperationScene<ScenePlan>,
  own: OwnItem,
  operationId: string,
): Promise<boolean> {
  const read = scene.role('read');
  if (!read) return true;
  const after = await trial.send({ operation: read.operationId, path: scene.path(own.id) });
  if (after.status === undefined || after.status >= 500) return false;
  // An answer that broke the document (the create's, or this read's) is reported once, under its own id: it gives
  // no state to hold the item to, so the item's is not judged on it.
  if (!own.created.usable || !after.usable) return true;
  const answered = (typeof own.created.body === 'object' ? own.created.body : own.sent) as Record<string, unknown>;
  const before = Object.fromEntries(
    Object.keys(own.sent)
      .filter((name) => name in answered)
      .map((name) => [name, answered[name]]),
  );
  const difference = succeeded(after) ? differenceFrom(before, after.body) : `status ${after.status}`;
  if (difference === undefined) return true;
  trial.fail(
    failure(
      'resource.refused-unchanged',
      after,
      `${read.operationId} of ${own.id} unchanged after the refused ${operationId}: ${show(before)}`,
      difference,
    ),
  );
  return false;
}

/**
 * One broken parameter: a 4xx for a path parameter (400 or 404, malformed or no such item), for a query parameter
 * a 4xx where the operation declares a refusal of a bad request, else anything but a 5xx.
 */
async function refusesParameter(
  run: RefusedRun,
  broken: BrokenParameter,
  anchor: string | undefined,
  valid: { json?: unknown; contentType?: string },
): Promise<void> {
  const { ctx, scene, operation, resource } = run;
  const id = `generated.invalid-rejected/${operation.id}/${broken.label}`;
  const strict = broken.in === 'path' || refusesBadRequests(resource);
  tallyOf(
    run.tally,
    await runProperty(ctx, id, fc.constant(broken), 1, async (trial) => {
      const path = scene.operationPath(anchor);
      if (broken.in === 'path') path[broken.name] = broken.text;
      const request = {
        operation: operation.id,
        path,
        ...(broken.in === 'query' ? { query: { [broken.name]: broken.text } } : {}),
        ...valid,
      };
      if (!SAFE.has(operation.method) && broken.in === 'path' && !(await nothingThere(trial, scene, broken, anchor)))
        return;
      const sent: Sent = await trial.send(request);
      if (sent.status === undefined || sent.status >= 500 || !strict) return;
      if (sent.status < 400 || sent.status > 499 || sent.status === 401 || sent.status === 403)
        trial.fail(failure('generated.invalid-rejected', sent, `a 4xx for ${broken.label}`, `${sent.status}`));
    }),
  );
}

/** Whether the operation declares an answer for a bad request: 400, 422 or a 4XX range. */
function refusesBadRequests(resource: Refusing): boolean {
  return ['400', '422', '4XX'].some((status) => resource.statuses.includes(status));
}

/**
 * Whether a read of what a write to a broken address would reach finds nothing: the item at that address, or for a
 * create under a parent the parent item it names. No read to ask: not known, so the write is not sent.
 */
async function nothingThere(
  trial: Trial,
  scene: OperationScene<ScenePlan>,
  broken: BrokenParameter,
  anchor: string | undefined,
): Promise<boolean> {
  const { plan } = scene;
  const { collection } = plan;
  // The broken parameter under the item path's own name (an action may name it otherwise).
  const names = plan.kind === 'action' ? plan.names : {};
  const name = Object.keys(names).find((own) => names[own] === broken.name) ?? broken.name;
  const path = { ...scene.path(anchor), [name]: broken.text };
  const onItem = collection.itemParameter !== undefined && collection.itemParameter in path;
  const read = onItem ? scene.role('read') : scene.parent?.role('read');
  if (!read) return false;
  const sent = await trial.send({ operation: read.operationId, path: onItem ? path : { [name]: broken.text } });
  return sent.status !== undefined && sent.status >= 400 && sent.status < 500;
}
