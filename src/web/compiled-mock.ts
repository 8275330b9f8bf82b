import { document, fixtures, resources, validators } from './compiled-spec.js';
import { specOf, type Spec } from '../openapi/spec.js';
import { bigintAware } from '../openapi/bigint-aware.js';
import { acceptKeys, assembleRuntime } from '../mock/runtime.js';
import { memoryStore } from '../mock/store/memory-store.js';
import { checkFixtures, fixtureCollection } from '../mock/store/check-fixtures.js';
import { buildDocumentModel } from '../mock/document/document-model.js';
import { mockOver, type Mock } from '../mock/mock-core.js';
import type { MockOptions } from '../mock/mock-options.js';

let compiled: Spec | undefined;

/**
 * The package's document with the validators and the resource model built ahead (no YAML parser, no schema
 * compiler, no model builder in the page). A schema the build did not compile is a bug of the build, said as such.
 */
export function compiledSpec(): Spec {
  compiled ??= specOf(
    document,
    document,
    undefined,
    (schema) => {
      const validate = validators[JSON.stringify(schema)];
      if (!validate)
        throw new Error(
          'petstore-kit: a schema of openapi.yaml was not compiled at build time (scripts/build-web.mjs)',
        );
      return bigintAware(validate);
    },
    () => resources,
  );
  return compiled;
}

/**
 * The browser's `createMock`: the same runtime, document model, front door and handle as the server's, over a
 * memory store, with the package's document compiled at build time. What needs files or a server is refused by
 * name: another document, fixtures or state from a file, a Redis store.
 */
export async function createCompiledMock(options: MockOptions = {}): Promise<Mock> {
  if (options.spec !== undefined)
    throw new TypeError(
      "spec: the browser build serves the package's openapi.yaml only (compiled at build time); use the Node entry for another document",
    );
  if (typeof options.fixtures === 'string')
    throw new TypeError('fixtures: the browser build reads no files; pass the Pet records themselves');
  if (options.state !== undefined)
    throw new TypeError('state: the browser build keeps its pets in memory; there is no state file');
  if (options.store !== undefined && options.store !== 'memory')
    throw new TypeError('store: the browser build has the memory store only; Redis is for the server mock');
  const keys = acceptKeys(options.apiKeys ?? []);
  const spec = compiledSpec();
  const seed = options.fixtures === undefined ? fixtures : checkFixtures(options.fixtures, 'fixtures', spec);
  const seeds = new Map([[fixtureCollection(spec)!.name, { items: seed }]]);
  const store = memoryStore(spec, seeds, { maxPets: options.maxPets, maxBytes: options.maxStoreBytes });
  const runtime = assembleRuntime(options, { keys, store });
  const model = await buildDocumentModel({ spec, seeds }, runtime, { wrapOperation: options.wrapOperation });
  return mockOver(runtime, model);
}
