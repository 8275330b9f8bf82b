import { fc, type Arbitrary } from './fast-check.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { validArbitrary } from './valid-arbitrary.js';
import { parameterTexts } from '../../openapi/parameter-text.js';
import { mainType } from '../../openapi/schema-keywords.js';
import { declaresNoResponses, noResponsesCase } from './no-responses-case.js';
import { mutationsOf, type Mutation } from './invalid-variants.js';
import { asParameter, requestSchemas } from './request-schemas.js';
import { requestView } from './request-view.js';
import type { SchemaLike } from './json-schema.js';
import type { ResourceCollection } from '../../openapi/resource-types.js';
import { listedItems } from '../../openapi/list-wrapper.js';
import { eachProperty } from './slots.js';
import { withFreshId } from '../base/fresh-ids.js';
import { runProperty } from './run-property.js';
import { brokenParameters, type BrokenParameter } from './broken-parameters.js';
import { hasV1Operations } from '../engine/pets.js';
import { chosenRequirement, sendsValidCredentials, unsendableSecurity } from '../transport/credentials.js';
import { answersAsDeclared, expectedAnswers } from '../../openapi/declared-answer.js';
import { generatedCase, tallyOf, SCHEMES, type GeneratedContractCase, type PhaseTally } from './generated-case.js';

/**
 * The operations the v1 cases judge with rules of their own (read-cases.ts, invalid-cases.ts, round-trip-case.ts),
 * on a document that has v1's three: the per-operation cases leave them out.
 */
export const JUDGED_BY_V1_CASES = new Set(['listPets', 'createPet', 'getPet']);

/** Methods that change nothing (RFC 9110 §9.2.1): their cases run under --read-only too. */
const SAFE_METHODS = new Set(['get', 'head', 'options']);

/**
 * Every other operation of the document that takes no path parameter (a collection's list and create, an operation
 * that fits no resource role), judged from its parameters and body schema alone: generated valid requests are
 * accepted, and a body with one constraint broken is refused. Operations on an item need an item the run made: the
 * resource oracles and the model-based sequences send those. On v1 there is none: its cases are the v1 ones.
 */
export function operationCases(spec: Spec): GeneratedContractCase[] {
  const v1 = hasV1Operations(spec);
  return spec.operations
    .filter((operation) => !(v1 && JUDGED_BY_V1_CASES.has(operation.id)) && !hasPathParameter(operation))
    .flatMap((operation) =>
      declaresNoResponses(operation)
        ? [noResponsesCase(operation)]
        : [validRequestsCase(operation), ...invalidBodiesCase(operation)],
    );
}

/** A path parameter, at the operation's level or its path's (`/pets/{petId}`): the template names it either way. */
function hasPathParameter(operation: Operation): boolean {
  return operation.parameters.some((parameter) => parameter.in === 'path') || operation.path.includes('{');
}

/** What an operation takes, as a client may send it: readOnly properties left out of the body. */
export interface RequestShape {
  operation: Operation;
  query: ReturnType<typeof requestSchemas>['query'];
  body: SchemaLike | undefined;
  /** The body's media type as the document names it (`application/json`). */
  mediaType: string | undefined;
}

export function shapeOf(operation: Operation): RequestShape {
  const { query, body } = requestSchemas(operation);
  const content = (operation.object.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
  const mediaType = Object.keys(content).find((type) => /^application\/(.+\+)?json$/i.test(type));
  return { operation, query, body: body && requestView(body), mediaType };
}

/**
 * A valid request: each query parameter present or absent (required ones always), a valid body, any scheme case. A
 * body property that refers to another collection's item (`petId`, named like `/pets/{petId}`) takes the ids of
 * items the target lists: a random one would name no pet, and a target may refuse that (the document cannot say).
 */
function validRequest(shape: RequestShape, references: Map<string, unknown[]>, document: unknown) {
  const query = fc.record(Object.fromEntries(shape.query.map((p) => [p.name, validArbitrary(sendable(p.schema))])), {
    requiredKeys: shape.query.filter((p) => p.required).map((p) => p.name),
  });
  const body = shape.body ? bodyArbitrary(shape.body, references, document) : fc.constant(undefined);
  return fc.record({ query, body, scheme: fc.constantFrom(...SCHEMES) });
}

/**
 * A query parameter's schema as a value can be sent for it: an array of at least one item, since an empty array has
 * no form-style text (RFC 6570 §3.2.8) and an optional parameter sent as none is the parameter left out.
 */
function sendable(schema: SchemaLike): SchemaLike {
  if (mainType(schema) !== 'array' || (typeof schema.minItems === 'number' && schema.minItems >= 1)) return schema;
  return { ...schema, minItems: 1 };
}

/** A generated query as the request carries it: each value by its parameter's style (parameter-text.ts). */
function queryTexts(operation: Operation, query: Record<string, unknown>): Record<string, string | readonly string[]> {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => {
      const parameter = operation.parameters.find((p) => p.in === 'query' && p.name === name);
      return [name, parameter ? parameterTexts(parameter, value) : asParameter(value)];
    }),
  );
}

/**
 * `document` names a discriminator's branches (its mapping's `$ref`s, its components' names: OAS 3.0.3 §4.7.25.2),
 * so a body under a discriminator carries the tag that picks its branch.
 */
export function bodyArbitrary(body: SchemaLike, references: Map<string, unknown[]>, document: unknown) {
  if (references.size === 0 || !body.properties) return validArbitrary(body, { document });
  const properties = Object.entries(body.properties).map(([name, schema]) => {
    const ids = references.get(name);
    return [name, ids ? fc.constantFrom(...ids) : validArbitrary(schema, { document })] as const;
  });
  return fc.record(Object.fromEntries(properties), {
    requiredKeys: (body.required ?? []).filter((name) => name in body.properties!),
  });
}

/** The body properties named like another collection's item parameter, and that collection. */
export function referencedCollections(spec: Spec, shape: RequestShape): Map<string, ResourceCollection> {
  const found = new Map<string, ResourceCollection>();
  for (const name of Object.keys(shape.body?.properties ?? {})) {
    const collection = spec.resources.collections.find(
      (c) => c.itemParameter === name && c.operations.list && !c.parent && c.path !== shape.operation.path,
    );
    if (collection) found.set(name, collection);
  }
  return found;
}

/**
 * The ids the target lists now for each referenced collection (one list request each, judged like any other); a
 * collection listing none leaves its property unresolved, and then a 400 is not judged (it may be about the id).
 */
export async function listedIds(
  ctx: CaseContext,
  wanted: Map<string, ResourceCollection>,
): Promise<{ references: Map<string, unknown[]>; unresolved: string[] }> {
  const references = new Map<string, unknown[]>();
  const unresolved: string[] = [];
  for (const [name, collection] of wanted) {
    const list = collection.operations.list!;
    const limit = collection.limit;
    const sent = await ctx.send({
      operation: list.operationId,
      ...(limit ? { query: { [limit.parameter]: String(limit.maximum ?? limit.default ?? 20) } } : {}),
    });
    const items = sent.usable ? ((listedItems(sent.body, list.wrapper) ?? []) as Record<string, unknown>[]) : [];
    const ids = items.map((item) => item[collection.id.property]).filter((id) => id !== undefined);
    if (ids.length > 0) references.set(name, ids.slice(0, 50));
    else unresolved.push(name);
  }
  return { references, unresolved };
}

function validRequestsCase(operation: Operation): GeneratedContractCase {
  const shape = shapeOf(operation);
  const id = `generated.valid-accepted/${operation.id}`;
  return generatedCase(
    {
      id,
      check: 'generated.valid-accepted',
      operation: operation.id,
      title: `generated valid ${operation.id} requests (parameters and body from the document) are accepted`,
      writes: !SAFE_METHODS.has(operation.method),
    },
    async (ctx, tally) => {
      skipUnsendable(ctx, operation);
      const runs = Math.max(4, Math.ceil(ctx.session.config.runs / 4));
      const { references, unresolved } = await listedIds(ctx, referencedCollections(ctx.session.spec, shape));
      if (unresolved.length > 0)
        ctx.note(
          'generated.valid-accepted',
          `${id}: no ${unresolved.join(', ')} listed to refer to; a 400 is not judged (it may be about that id)`,
        );
      const requests = validRequest(shape, references, ctx.session.spec.document);
      tallyOf(
        tally,
        await runProperty(ctx, id, requests, runs, async (trial, request) => {
          const sent = await trial.send({
            operation: operation.id,
            query: queryTexts(operation, request.query),
            scheme: request.scheme,
            ...(shape.body ? { json: ownId(ctx, operation, request.body), contentType: shape.mediaType } : {}),
          });
          // A 400 or 415 says the request broke the document's rules for it; it broke none. Another 4xx the document
          // declares (a 404 for a petId no pet has, a 409) is about state the document does not fix: not judged here.
          // An operation that declares no 2xx answers as it declares (a 400 may be all it ever answers).
          if (
            (sent.status === 415 || (sent.status === 400 && unresolved.length === 0)) &&
            !answersAsDeclared(operation, sent.status)
          )
            trial.fail(
              failure(
                'generated.valid-accepted',
                sent,
                `${expectedAnswers(operation)} for a ${operation.id} request valid by the document's parameters and body schema`,
                `${sent.status}`,
              ),
            );
          // RFC 9110 §11.1: the scheme's name is "a case-insensitive token": the valid key under `bearer` or `BEARER`
          // is the valid key (v1's listPets judges it so too).
          // An operation that declares 401 and no 2xx answers a valid request 401 by the document (OAS 3.0.3
          // §4.7.16): its 401 says nothing of the scheme word.
          if (
            sent.status === 401 &&
            request.scheme !== 'Bearer' &&
            !answersAsDeclared(operation, 401) &&
            sendsBearer(operation, ctx.session.config.apiKey)
          )
            trial.fail(
              failure(
                'generated.valid-accepted',
                sent,
                `the valid key accepted with its scheme written ${request.scheme} (RFC 9110 §11.1: a case-insensitive token)`,
                `${sent.status}`,
              ),
            );
        }),
      );
    },
  );
}

/**
 * A create's body with an id of the run's own where the client names ids (fresh-ids.ts): generated ids repeat across
 * examples (shrinking drives them to 0), and a second create naming one id is a conflict the server may refuse.
 */
export function ownId(ctx: CaseContext, operation: Operation, body: unknown): unknown {
  const collection = ctx.session.spec.resources.collections.find(
    (c) => c.operations.create?.operationId === operation.id,
  );
  const validate = operation.body?.validate;
  return collection ? withFreshId(ctx.session, collection, body, (json) => !validate || validate(json)) : body;
}

/** An operation whose every security requirement no one request can carry is not sent, and the case says why. */
function skipUnsendable(ctx: CaseContext, operation: Operation): void {
  const reason = unsendableSecurity(operation, ctx.session.config.apiKey);
  if (reason) ctx.skip(`not sent: no request to ${operation.id} could be built: ${reason}`);
}

/** Whether `operation`'s valid credentials go as `Authorization: Bearer <key>` (http bearer, oauth2, openIdConnect). */
function sendsBearer(operation: Operation, key: string): boolean {
  const requirement = chosenRequirement(operation, key);
  return sendsValidCredentials(operation, key) && requirement?.some((r) => r.scheme.kind === 'bearer') === true;
}

/**
 * Each constraint of the body schema broken one at a time: a 4xx (the document's 400 where it declares one). Each
 * query parameter broken one at a time (broken-parameters.ts): a 4xx where the operation declares a refusal of a bad
 * request (400, 422, 4XX), else any answer but a 5xx (the document leaves it open).
 */
function invalidBodiesCase(operation: Operation): GeneratedContractCase[] {
  const shape = shapeOf(operation);
  const parameters = brokenParameters(operation).filter((broken) => broken.in === 'query');
  if (!shape.body && parameters.length === 0) return [];
  const body = shape.body;
  const declares400 = operation.responses.has('400');
  const what = [...(body ? ['body'] : []), ...(parameters.length > 0 ? ['query parameter'] : [])].join(' and ');
  return [
    generatedCase(
      {
        id: `generated.invalid-rejected/${operation.id}`,
        check: 'generated.invalid-rejected',
        operation: operation.id,
        title: `${operation.id} refuses every generated invalid ${what}${declares400 ? ' with 400' : ' with a 4xx'}`,
        writes: !SAFE_METHODS.has(operation.method),
      },
      async (ctx, tally) => {
        skipUnsendable(ctx, operation);
        const perMutation = Math.max(2, Math.ceil(ctx.session.config.runs / 25));
        const properties: (() => Promise<void>)[] = parameters.map(
          (broken) => () => refusesQueryParameter(ctx, tally, operation, broken),
        );
        const valid = body && validArbitrary(body, { document: ctx.session.spec.document });
        if (body && valid)
          for (const mutation of mutationsOf(body))
            properties.push(() => refusesMutated({ ctx, tally, shape, valid, declares400, perMutation }, mutation));
        await eachProperty(ctx.session, properties, (property) => property());
      },
    ),
  ];
}

/** One query parameter broken: a 4xx where the operation declares a refusal of a bad request, else not a 5xx. */
async function refusesQueryParameter(
  ctx: CaseContext,
  tally: PhaseTally,
  operation: Operation,
  broken: BrokenParameter,
): Promise<void> {
  const strict = ['400', '422', '4XX'].some((status) => operation.responses.has(status));
  tallyOf(
    tally,
    await runProperty(
      ctx,
      `generated.invalid-rejected/${operation.id}/${broken.label}`,
      fc.constant(broken),
      1,
      async (trial) => {
        const sent = await trial.send({ operation: operation.id, query: { [broken.name]: broken.text } });
        if (!strict || sent.status === undefined || sent.status >= 500) return;
        if (sent.status < 400 || sent.status > 499 || sent.status === 401 || sent.status === 403)
          trial.fail(failure('generated.invalid-rejected', sent, `a 4xx for ${broken.label}`, `${sent.status}`));
      },
    ),
  );
}

interface MutatedRun {
  ctx: CaseContext;
  tally: PhaseTally;
  shape: RequestShape;
  valid: Arbitrary<unknown>;
  declares400: boolean;
  perMutation: number;
}

async function refusesMutated(run: MutatedRun, mutation: Mutation): Promise<void> {
  const { operation } = run.shape;
  const id = `generated.invalid-rejected/${operation.id}/${mutation.label}`;
  const arbitrary = run.valid.map((valid) => mutation.apply(valid));
  tallyOf(
    run.tally,
    await runProperty(run.ctx, id, arbitrary, run.perMutation, async (trial, body) => {
      // A break the document's own validator takes is none (a generator's reading of a keyword): nothing is sent.
      if (operation.body?.validate?.(body)) return;
      const sent = await trial.send({ operation: operation.id, json: body, contentType: run.shape.mediaType });
      if (!refusedAsDeclared(sent, run.declares400))
        trial.fail(
          failure(
            'generated.invalid-rejected',
            sent,
            `${run.declares400 ? '400 (the document declares it for a bad request)' : 'a 4xx'} with an Error for a body whose ${mutation.label}`,
            `${sent.status}`,
          ),
        );
    }),
  );
}

/**
 * Refused as the document says: a 4xx other than 401/403 (and 400 itself where the document declares it; 415 is a
 * media-type answer, not this). A 5xx is judged by server.no-5xx, no answer by server.responds.
 */
function refusedAsDeclared(sent: Sent, declares400: boolean): boolean {
  const status = sent.status;
  if (status === undefined || status >= 500) return true;
  if (declares400) return status === 400;
  return status >= 400 && status !== 401 && status !== 403;
}
