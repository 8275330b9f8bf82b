import type { OpenAPIV3 } from 'openapi-types';
import type { Pet } from '../store/collection-store.js';
import type { StoreSeeds } from '../store/resource-store.js';
import { collectionRules } from '../store/collection-rules.js';
import type { Runtime } from '../runtime.js';
import type { Spec } from '../../openapi/spec.js';
import { buildScenarioTables } from '../base/scenario-tables.js';
import { createOperationAction, createUrlFor } from '../front-door/pipeline.js';
import { createRouteTable, type Action, type Mount, type RouteTable } from '../front-door/route-table.js';
import type { Operation } from '../../openapi/operations.js';
import type { Context, Handler } from '../front-door/context.js';
import { apiError } from '../../errors.js';
import { resourceHandlers } from '../handlers/resources.js';
import { adminMount } from '../admin/admin.js';
import { negotiatePrefer, type Preference } from '../stages/negotiate-prefer.js';

/** Where a mock's document and fixtures come from: files (reloadable) or values. */
export interface DocumentSources {
  /** An OpenAPI 3 file or document; default: the package's openapi.yaml. */
  spec?: string | OpenAPIV3.Document;
  /**
   * The seed of the document's collections: a JSON file of records (`pets.json` seeds the collection `pets`; the
   * same folder's `store/orders.json` seeds `store/orders`), or the records of the first collection themselves;
   * default: the package's fixtures/pets.json.
   */
  fixtures?: string | Pet[] | Record<string, unknown>[];
  /**
   * Wraps each operation's action (the proxy's forwarding, with the mock's own action as its fallback): the
   * request still goes through the one front door, route table, finishing step and observers.
   */
  wrapOperation?: (operation: Operation, mockAction: Action, parts: { spec: Spec; runtime: Runtime }) => Action;
}

/** The two inputs a reload reads again: the checked document and the checked fixtures. */
export interface DocumentInputs {
  spec: Spec;
  /** Every collection's seed, by name. */
  seeds: StoreSeeds;
}

/**
 * Everything derived from the document and the fixtures: the compiled operations and validators (in `spec`), the
 * scenario tables, the route table with every route's action. Built whole, then swapped whole by a reload; the
 * runtime it runs on stays.
 */
export interface DocumentModel {
  readonly spec: Spec;
  readonly seeds: StoreSeeds;
  readonly routes: RouteTable;
  /** Throws the 400 a request would get when some operation of the document cannot serve `preference`. */
  readonly checkPreference: (preference: Preference) => void;
}

/**
 * What a model is built with beyond the document and the runtime. The server adds its docs page and prism-http's
 * fallback (document-inputs.ts); the browser build has neither, so neither is imported here.
 */
export interface ModelParts {
  wrapOperation?: DocumentSources['wrapOperation'];
  /** Answers the operations without a stateful handler; without it, such an operation is a 501. */
  fallback?: (spec: Spec) => Promise<Handler>;
  /** Mounts besides the API and `/__admin` (the server's `/docs`). */
  mounts?: (spec: Spec, runtime: Runtime) => Mount[];
}

/**
 * Builds the model of a document on a runtime. The fallback is made only when the document has an operation
 * without a stateful handler, so a document with none never loads prism-http; the checks of schemes other than
 * v1's bearer key, only when an operation requires one.
 */
export async function buildDocumentModel(
  { spec, seeds }: DocumentInputs,
  runtime: Runtime,
  extras: ModelParts = {},
): Promise<DocumentModel> {
  const { wrapOperation } = extras;
  const writeOnly = spec.resources.collections.some((collection) => collection.answersWriteOnly);
  const omitter = writeOnly ? await loadWriteOnlyOmitter() : undefined;
  const completes = spec.resources.collections.some((collection) => collection.completesItems);
  const completer = completes ? await loadCompleter() : undefined;
  const handlers = resourceHandlers(spec.resources, spec.compile, omitter, completer);
  const tables = buildScenarioTables(spec, (id) => handlers[id] !== undefined);
  const needsFallback = spec.operations.some((operation) => !handlers[operation.id]);
  // The store learns this document's collections (a reload may add one, or change how items are kept).
  runtime.store.define(collectionRules(spec.resources));
  const parts = {
    spec,
    runtime,
    tables,
    handlers,
    fallback: needsFallback ? await (extras.fallback ?? noFallback)(spec) : undefined,
    authorizerFor: needsSchemeChecks(spec) ? await loadAuthorizers(runtime) : undefined,
    bodyReaders: needsBodyReaders(spec) ? await loadBodyReaders() : undefined,
    urlFor: createUrlFor(spec),
  };
  const operationAction = (operation: Operation) => {
    const action = createOperationAction(operation, parts);
    return wrapOperation ? wrapOperation(operation, action, { spec, runtime }) : action;
  };
  const checkPreference = (preference: Preference) => {
    for (const operation of spec.operations)
      negotiatePrefer(operation, tables.get(operation.id)!, preference, handlers[operation.id] !== undefined);
  };
  const routes = createRouteTable(spec, operationAction, [
    adminMount(runtime, spec, checkPreference),
    ...(extras.mounts?.(spec, runtime) ?? []),
  ]);
  return { spec, seeds, routes, checkPreference };
}

/** True when an operation requires credentials other than v1's one bearer key (an apiKey, Basic, OAuth2…). */
function needsSchemeChecks(spec: Spec): boolean {
  return spec.operations.some(({ security }) => !security.bearerOnly && !security.anonymous);
}

/** What leaves writeOnly members out of answers, loaded as the body readers are. */
async function loadWriteOnlyOmitter() {
  const { writeOnlyOmitter } = await import('../handlers/omit-write-only.js');
  return writeOnlyOmitter;
}

/** What completes stored items (complete-required.ts), loaded as the writeOnly omitter is. */
async function loadCompleter() {
  const { itemCompleter } = await import('../handlers/complete-required.js');
  return itemCompleter;
}

/** True when an operation declares a request body of a media type other than JSON (OAS 3.0.3 §4.7.13, §4.7.14). */
function needsBodyReaders(spec: Spec): boolean {
  return spec.operations.some(({ body }) => body?.media?.some((m) => m.kind !== 'json'));
}

/** The readers of form and multipart bodies, loaded as the scheme checks are (a JSON-only page does not carry them). */
async function loadBodyReaders() {
  const { bodyReaders } = await import('../stages/body-readers.js');
  return bodyReaders;
}

/**
 * The checks of every scheme but v1's bearer key, loaded when a document needs them, as prism-http is: a page
 * serving v1 does not carry them (scripts/build-web.mjs weighs them apart).
 */
async function loadAuthorizers(runtime: Runtime) {
  const { authorizers } = await import('../stages/authorize.js');
  return authorizers(runtime.apiKeys);
}

/**
 * Without prism-http (the browser build, a module compiled by `petstore-kit compile-web`) an operation that fits no
 * resource role is answered 501 in the Error shape, naming why: nothing is invented, and the stateful operations of
 * the same document still work.
 */
function noFallback(spec: Spec): Promise<Handler> {
  const reasons = new Map(spec.resources.operations.map((o) => [o.operationId, o.reason]));
  const notImplemented = (context: Context): never => {
    throw apiError(
      'not_implemented',
      `${context.operation.id} fits no resource role (${reasons.get(context.operation.id)}): only the server mock answers it (from the document's examples)`,
    );
  };
  return Promise.resolve(notImplemented);
}
