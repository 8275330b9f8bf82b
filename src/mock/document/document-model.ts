import type { OpenAPIV3 } from 'openapi-types';
import { isDeepStrictEqual } from 'node:util';
import type { Pet } from '../store/pet-store.js';
import type { Runtime } from '../runtime.js';
import { loadSpec, type Spec } from '../../openapi/load-spec.js';
import { defaultFixturesFile, defaultSpecFile } from '../../paths.js';
import { checkFixtures, loadFixtures } from './load-fixtures.js';
import { buildScenarioTables } from '../front-door/scenario-tables.js';
import { createOperationAction, createUrlFor } from '../front-door/pipeline.js';
import { createRouteTable, type Action, type RouteTable } from '../front-door/route-table.js';
import type { Operation } from '../../openapi/operations.js';
import { petHandlers } from '../handlers/pets.js';
import { createFallback } from '../front-door/fallback.js';
import { adminMount } from '../admin/admin.js';
import { docsMount } from '../docs/docs-mount.js';

/** Where a mock's document and fixtures come from: files (reloadable) or values. */
export interface DocumentSources {
  /** An OpenAPI 3 file or document; default: the package's openapi.yaml. */
  spec?: string | OpenAPIV3.Document;
  /** A JSON file of Pet records or the records themselves; default: the package's fixtures/pets.json. */
  fixtures?: string | Pet[];
  /**
   * Wraps each operation's action (the proxy's forwarding, with the mock's own action as its fallback): the
   * request still goes through the one front door, route table, finishing step and observers.
   */
  wrapOperation?: (operation: Operation, mockAction: Action, parts: { spec: Spec; runtime: Runtime }) => Action;
}

/** The two inputs a reload reads again: the checked document and the checked fixtures. */
export interface DocumentInputs {
  spec: Spec;
  seed: readonly Pet[];
}

/**
 * Everything derived from the document and the fixtures: the compiled operations and validators (in `spec`), the
 * scenario tables, the route table with every route's action. Built whole, then swapped whole by a reload; the
 * runtime it runs on stays.
 */
export interface DocumentModel {
  readonly spec: Spec;
  readonly seed: readonly Pet[];
  readonly routes: RouteTable;
}

/** Reads and checks the document and the fixtures. */
export async function loadDocumentInputs(sources: DocumentSources): Promise<DocumentInputs> {
  const spec = await loadSpec(sources.spec ?? defaultSpecFile);
  const fixtures = sources.fixtures ?? defaultFixturesFile;
  const seed = typeof fixtures === 'string' ? await loadFixtures(fixtures, spec) : checkFixtures(fixtures, 'fixtures', spec);
  return { spec, seed };
}

/**
 * Builds the model of a document on a runtime. prism-http is imported only when the document has an operation
 * without a stateful handler, so a document with none never loads it.
 */
export async function buildDocumentModel({ spec, seed }: DocumentInputs, runtime: Runtime, wrapOperation?: DocumentSources['wrapOperation']): Promise<DocumentModel> {
  const tables = buildScenarioTables(spec, (id) => petHandlers[id] !== undefined);
  const needsFallback = spec.operations.some((operation) => !petHandlers[operation.id]);
  const parts = {
    spec,
    runtime,
    tables,
    handlers: petHandlers,
    fallback: needsFallback ? await createFallback(spec) : undefined,
    urlFor: createUrlFor(spec),
  };
  const operationAction = (operation: Operation) => {
    const action = createOperationAction(operation, parts);
    return wrapOperation ? wrapOperation(operation, action, { spec, runtime }) : action;
  };
  const routes = createRouteTable(spec, operationAction, [adminMount(runtime, spec), docsMount(spec, runtime.usingDevKey)]);
  return { spec, seed, routes };
}

/** Whether two seeds hold the same pets, field by field (not by their JSON text, whose key order may differ). */
export function sameSeed(a: readonly Pet[], b: readonly Pet[]): boolean {
  return isDeepStrictEqual(a, b);
}
