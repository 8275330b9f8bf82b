import type { OpenAPIV3 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { specOf, type Spec } from '../openapi/spec.js';
import { bigintAware } from '../openapi/bigint-aware.js';
import type { ResourceModel } from '../openapi/resource-types.js';
import type { Dialect } from '../openapi/dialect.js';
import { resolveReferences, valueAt } from '../openapi/resolve-references.js';
import { schemaKey, type Direction } from '../openapi/schema-compiler.js';
import type { Item } from './store/collection-store.js';
import type { CollectionSeed } from './store/resource-store.js';
import { acceptKeys, assembleRuntime } from './runtime.js';
import { memoryStore } from './store/memory-store.js';
import { checkFixtures, fixtureCollection } from './store/check-fixtures.js';
import { buildDocumentModel } from './document/document-model.js';
import { mockOver, type Mock } from './mock-core.js';
import type { MockOptions } from './mock-options.js';

/** The shape of the modules this release writes; a module of another shape is refused by name, not misread. */
export const COMPILED_FORMAT = 2;

/**
 * An OpenAPI document compiled ahead for a page: the module `petstore-kit compile-web` writes (and the package's own
 * dist/web/compiled-spec.js, written by the same code at build time). Import it whole
 * (`import * as compiled from './petstore.compiled.js'`) and pass it as the `compiled` option.
 */
export interface CompiledDocument {
  /** COMPILED_FORMAT of the release that wrote it. */
  readonly format: number;
  /** The document, its schemas in JSON Schema 2020-12 form and its `$ref`s intact (resolved in the page). */
  readonly document: OpenAPIV3.Document;
  /** What differs between OpenAPI 3.0 and 3.1, read when it was compiled (dialect.ts). */
  readonly dialect: Dialect;
  /** Every top-level collection's seed items, by collection name, checked against its item schema when compiled. */
  readonly seeds: Readonly<Record<string, readonly Item[]>>;
  /** The document's resource model (resource-model.ts): plain data, each schema in it as `{$ref: pointer}`. */
  readonly resources: ResourceModel;
  /** Every validator the mock needs, AJV standalone code, keyed as schema-compiler.ts `schemaKey` keys them. */
  readonly validators: Readonly<Record<string, ValidateFunction>>;
}

const specs = new WeakMap<CompiledDocument, Spec>();

/**
 * The Spec of a compiled document, made once per module: its validators and resource model built ahead (no YAML
 * parser, no schema compiler, no model builder here). A schema the module lacks is said to be the compiler's fault.
 */
export function specOfCompiled(compiled: CompiledDocument): Spec {
  let spec = specs.get(compiled);
  if (spec) return spec;
  const { document, validators, dialect } = compiled;
  const { view, pointerOf } = resolveReferences(document);
  const resources = withSchemas(compiled.resources, view);
  const compile = (schema: object, direction?: Direction) => {
    const validate = validators[schemaKey(schema, pointerOf, direction)];
    if (!validate) throw new Error('petstore-kit: a schema was not compiled ahead (compile-web)');
    return bigintAware(validate);
  };
  spec = specOf(
    { resolved: view, bundled: document, normalized: document, pointerOf, dialect },
    undefined,
    compile,
    () => resources,
  );
  specs.set(compiled, spec);
  return spec;
}

/** The model with each `{$ref: pointer}` a compiled module wrote for a schema replaced by that schema of the view. */
function withSchemas<T>(value: T, view: object): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => withSchemas(item, view)) as T;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return valueAt(view, ref) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = withSchemas(item, view);
  return copy as T;
}

/**
 * `createMock` over a compiled document, for the browser build and for the Node entries given `compiled`: the same
 * runtime, document model, front door and handle as the server's, over a memory store. What needs files or a server
 * is refused by name (fixtures or state from a file, a Redis store; `spec` by the callers); fixtures given as
 * records seed the first collection, the others keep the seeds compiled with the document. A module of another
 * shape (an older release's, or its default export only) is refused rather than misread.
 */
export async function createCompiledMock(
  compiled: CompiledDocument,
  options: MockOptions = {},
  host = 'a compiled document',
): Promise<Mock> {
  if (compiled?.format !== COMPILED_FORMAT)
    throw new TypeError(
      'compiled: not a module of this release\'s "petstore-kit compile-web" (import * as compiled from …)',
    );
  refuseServerOptions(options, host);
  const keys = acceptKeys(options.apiKeys ?? []);
  const spec = specOfCompiled(compiled);
  const seeds = new Map<string, CollectionSeed>(
    Object.entries(compiled.seeds).map(([name, items]) => [name, { items }]),
  );
  const first = fixtureCollection(spec);
  if (options.fixtures !== undefined && first)
    seeds.set(first.name, { items: checkFixtures(options.fixtures, 'fixtures', spec) });
  const store = memoryStore(spec, seeds, { maxItems: options.maxPets, maxBytes: options.maxStoreBytes });
  const runtime = assembleRuntime(options, { keys, store });
  const model = await buildDocumentModel({ spec, seeds }, runtime, { wrapOperation: options.wrapOperation });
  return mockOver(runtime, model);
}

/** The options that need files or a server, refused by name by `host` (the browser build, a compiled document). */
export function refuseServerOptions(options: MockOptions, host: string): void {
  if (typeof options.fixtures === 'string')
    throw new TypeError(`fixtures: ${host} reads no files; pass the Pet records themselves`);
  if (options.state !== undefined)
    throw new TypeError(`state: ${host} keeps its pets in memory; there is no state file`);
  if (options.store !== undefined && options.store !== 'memory')
    throw new TypeError(`store: ${host} has the memory store only; Redis is for the server mock`);
}
