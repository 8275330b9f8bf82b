import { fc, type Arbitrary } from '../generate/fast-check.js';
import type { Operation } from '../../openapi/operations.js';
import { findResponse } from '../../openapi/operations.js';
import type { CaseContext } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { validArbitrary } from '../generate/valid-arbitrary.js';
import { asParameter, requestSchemas } from '../generate/request-schemas.js';
import { requestView } from '../generate/request-view.js';
import { runProperty, type Trial } from '../generate/run-property.js';
import { seedFor } from '../generate/budget.js';
import { shapeOf } from '../generate/operation-cases.js';
import { parameterTextValid } from '../generate/broken-parameters.js';
import { generatedCase, tallyOf, type GeneratedContractCase } from '../generate/generated-case.js';
import { declaredRefusal, outOfReach, succeeded } from '../stateful/resource-items.js';
import { show } from '../generate/same-pet.js';
import type { LinkedValues, OperationPlan } from './operation-plan.js';
import { atPointer } from './operation-links.js';
import { OperationScene, type CollectionPlan } from './operation-scene.js';
import { documentValid } from './document-valid.js';
import { applyMergePatch } from './merge-patch.js';

/** Methods that change nothing (RFC 9110 §9.2.1): their cases run under --read-only too. */
const SAFE = new Set(['get', 'head', 'options']);

/**
 * `generated.valid-accepted/<operationId>` for an operation with path parameters: valid requests (query parameters
 * and a body from the document, addressed as the plan says) are answered as the document allows. A read, a list
 * under a parent or a delete of an item the run made gets a 2xx (a delete may get a refusal it declares for the
 * item's state, RFC 9110 §15.5.10); a merge patch of an item the run made gets a 2xx when the item it leaves is still
 * an item of the document; any other operation, a 400 or 415 only fails it (another 4xx may be about state the
 * document does not fix). A PUT and a create under a parent are the round trips' (round-trip-cases.ts).
 */
export function validOperationCase(operation: Operation, plan: OperationPlan): GeneratedContractCase[] {
  // An action on an item has cases of its own (action-cases.ts).
  if (plan.kind === 'unaddressed' || plan.kind === 'action') return [];
  if (plan.kind === 'collection' && (plan.role === 'replace' || plan.role === 'create')) return [];
  const id = `generated.valid-accepted/${operation.id}`;
  return [
    generatedCase(
      {
        id,
        check: 'generated.valid-accepted',
        operation: operation.id,
        title: `generated valid ${operation.id} requests (${describePlan(plan)}) are accepted`,
        writes: !SAFE.has(operation.method) || (plan.kind === 'collection' && usesCreate(plan)),
      },
      async (ctx, tally) => {
        const runs = (divisor: number) => Math.max(3, Math.ceil(ctx.session.config.runs / divisor));
        if (plan.kind === 'examples') {
          const values = { ...plan.values, ...(plan.link ? await linkedValues(ctx, plan.link) : {}) };
          const arbitrary = fc.record({ query: queryArbitrary(operation), path: examplePath(values) });
          tallyOf(
            tally,
            await runProperty(ctx, id, arbitrary, runs(8), (trial, request) =>
              sendValid(trial, operation, request, false),
            ),
          );
          return;
        }
        const scene = await OperationScene.open(ctx, plan);
        try {
          if (plan.role === 'merge') return tallyOf(tally, await mergeProperty(ctx, scene, operation, runs(8)));
          if (plan.role === 'delete') return tallyOf(tally, await deleteProperty(ctx, scene, operation, runs(25)));
          const ids = plan.role === 'list' ? [undefined] : await readableIds(scene, plan);
          if (ids.length === 0) return ctx.skip(`no item of ${plan.collection.path} to read (the list showed none)`);
          const own = plan.role === 'list' ? plan.parent?.from === 'created' : plan.item.from === 'created';
          const arbitrary = fc.record({ query: queryArbitrary(operation), at: fc.constantFrom(...ids) });
          tallyOf(
            tally,
            await runProperty(ctx, id, arbitrary, runs(8), (trial, { query, at }) =>
              sendValid(trial, operation, { query, path: scene.path(at) }, own),
            ),
          );
        } finally {
          await scene.close();
        }
      },
    ),
  ];
}

/** What the case addresses, in words for its title. */
function describePlan(plan: Exclude<OperationPlan, { kind: 'unaddressed' | 'action' }>): string {
  if (plan.kind === 'examples')
    return plan.link
      ? `path parameters from the document's examples and the link ${plan.link.name}`
      : "path parameters from the document's examples";
  const source = plan.role === 'list' ? plan.parent! : plan.item;
  const what = plan.role === 'list' ? 'under a parent item' : 'on items';
  if (source.from === 'examples') return `${what} the document's examples name`;
  return `${what} ${source.from === 'created' ? 'the run makes' : 'a list shows'}`;
}

function usesCreate(plan: CollectionPlan): boolean {
  return plan.item.from === 'created' || plan.parent?.from === 'created';
}

/**
 * Valid query parameters: each present or absent, required ones always, values from their schemas. An optional one
 * whose generated text the document's validator refuses (a keyword the generators do not honour yet) is left out
 * rather than sent as valid.
 */
export function queryArbitrary(operation: Operation): Arbitrary<Record<string, string>> {
  const { query } = requestSchemas(operation);
  const valid = (name: string, text: string) =>
    operation.parameters.every((p) => p.in !== 'query' || p.name !== name || p.required || parameterTextValid(p, text));
  return fc
    .record(Object.fromEntries(query.map((p) => [p.name, validArbitrary(p.schema)])), {
      requiredKeys: query.filter((p) => p.required).map((p) => p.name),
    })
    .map((values) =>
      Object.fromEntries(
        Object.entries(values)
          .map(([name, value]) => [name, asParameter(value)] as const)
          .filter(([name, text]) => valid(name, text)),
      ),
    );
}

/**
 * OpenAPI 3.0.3 §4.7.20: the values a link gives, read from its source operation's answer (sent once, at its first
 * examples); the case is skipped, naming the link, when the answer holds none where the link points.
 */
async function linkedValues(ctx: CaseContext, link: LinkedValues): Promise<Record<string, string[]>> {
  const path = Object.fromEntries(Object.entries(link.path).map(([name, values]) => [name, values[0]!]));
  const sent = await ctx.send({ operation: link.source, path });
  const values: Record<string, string[]> = {};
  for (const [name, pointer] of Object.entries(link.pointers)) {
    const value = succeeded(sent) ? atPointer(sent.body, pointer) : undefined;
    if (
      typeof value !== 'string' &&
      typeof value !== 'number' &&
      typeof value !== 'bigint' &&
      typeof value !== 'boolean'
    )
      return ctx.skip(
        `the link ${link.name} gives ${name} from ${link.source}'s answer at ${pointer || 'its root'}, and ${link.source} answered ${sent.status ?? 'nothing'} with no value there`,
      );
    values[name] = [String(value)];
  }
  return values;
}

function examplePath(values: Record<string, string[]>): Arbitrary<Record<string, string>> {
  return fc.record(Object.fromEntries(Object.entries(values).map(([name, list]) => [name, fc.constantFrom(...list)])));
}

/** The ids a read is sent to: three items the case makes, the items a list shows, or the document's examples. */
async function readableIds(scene: OperationScene, plan: CollectionPlan): Promise<string[]> {
  if (plan.item.from === 'examples') return plan.item.values;
  if (plan.item.from === 'listed') return (await scene.listedIds()).slice(0, 20);
  const create = scene.role('create')!;
  const made: string[] = [];
  const operation = scene.role(plan.role)!;
  let far: string | undefined;
  for (let i = 0; i < 3; i++) {
    const item = await scene.items.tryCreate(scene.items.body(create, `read-${i}`));
    // An item the document puts out of the operation's reach (its parameter's schema refuses the id) is no item to send.
    const reach = item && outOfReach(scene.ctx.session.spec, plan.collection, operation, item.id);
    if (item && !reach) made.push(item.id);
    far ??= reach;
  }
  if (made.length === 0 && far) scene.ctx.skip(far);
  return made;
}

/**
 * Sends one valid request. `own`: the item (or parent) is one the run made and nothing deleted, so anything but a 2xx
 * fails; otherwise a 400 or 415 only (they say the request broke the document's rules; it broke none).
 */
async function sendValid(
  trial: Trial,
  operation: Operation,
  request: { query: Record<string, string>; path: Record<string, string> },
  own: boolean,
): Promise<void> {
  const sent = await trial.send({ operation: operation.id, query: request.query, path: request.path });
  if (sent.status === undefined || sent.status >= 500) return;
  const refused = own ? !succeeded(sent) : sent.status === 400 || sent.status === 415;
  if (refused)
    trial.fail(
      failure(
        'generated.valid-accepted',
        sent,
        own
          ? `a 2xx for ${operation.id} of ${show(request.path)}, made by the run, with a query valid by the document`
          : `no 400 or 415 for a ${operation.id} request valid by the document`,
        `${sent.status}`,
      ),
    );
}

/**
 * Generated merge patches (RFC 7396), each on an item of its own: a 2xx, unless the item the patch would leave
 * breaks the item schema (a null for a required field the patch's schema lets through): the document's 400 is then
 * as right as a 2xx, and a 2xx is judged by the answer's schema.
 */
async function mergeProperty(ctx: CaseContext, scene: OperationScene, operation: Operation, numRuns: number) {
  const id = `generated.valid-accepted/${operation.id}`;
  const merge = scene.role('merge')!;
  const format = merge.patchFormats.find((f) => f.format === 'merge-patch');
  const body = shapeOf(operation).body;
  if (!format || !body)
    return ctx.skip(`${operation.id} takes no merge patch to generate (RFC 6902 patches are the sequences')`);
  const patches = documentValid(
    validArbitrary(requestView(body), { document: ctx.session.spec.document }),
    operation.body?.validate,
    seedFor(ctx.session.config.seed, id),
  );
  if ('reason' in patches) return ctx.skip(`no valid merge patch of ${operation.id}: ${patches.reason}`);
  const item = itemValidator(ctx, scene);
  return runProperty(ctx, id, patches.arbitrary, numRuns, async (trial, patch) => {
    const own = await scene.newItem(trial, 'm');
    if (!own) return;
    const sent = await trial.send({
      operation: operation.id,
      path: scene.path(own.id),
      json: patch,
      contentType: format.mediaType,
    });
    if (sent.status === undefined || sent.status >= 500 || succeeded(sent)) return;
    const merged = applyMergePatch(own.created.usable ? own.created.body : own.sent, patch);
    if (item && !item(merged)) return;
    trial.fail(
      failure(
        'generated.valid-accepted',
        sent,
        `a 2xx for the merge patch ${show(patch)}, valid by the document, of an item the run made (the item it leaves is valid too)`,
        `${sent.status}`,
      ),
    );
  });
}

/** The validator of one item as the collection's read answers it (its success answer's schema), if declared. */
function itemValidator(ctx: CaseContext, scene: OperationScene): ((value: unknown) => boolean) | undefined {
  const read = scene.role('read');
  const operation = read && ctx.session.spec.operationById.get(read.operationId);
  const validate = operation && findResponse(operation, read.success.status)?.validate;
  return validate ? (value) => validate(value) : undefined;
}

/** A delete of an item of its own per example: a 2xx, or a refusal the delete declares for the item's state. */
async function deleteProperty(ctx: CaseContext, scene: OperationScene, operation: Operation, numRuns: number) {
  const remove = scene.role('delete')!;
  return runProperty(ctx, `generated.valid-accepted/${operation.id}`, fc.constant(null), numRuns, async (trial) => {
    const own = await scene.newItem(trial, 'd');
    if (!own) return;
    const sent = await trial.send({ operation: operation.id, path: scene.path(own.id) });
    if (succeeded(sent)) scene.forget(own.id);
    if (sent.status === undefined || sent.status >= 500 || succeeded(sent) || declaredRefusal(remove, sent.status))
      return;
    trial.fail(
      failure(
        'generated.valid-accepted',
        sent,
        `a 2xx for ${operation.id} of ${own.id}, an item the run made`,
        `${sent.status}`,
      ),
    );
  });
}
