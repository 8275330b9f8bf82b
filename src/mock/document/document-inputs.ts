import { isDeepStrictEqual } from 'node:util';
import type { StoreSeeds } from '../store/resource-store.js';
import { loadSpec } from '../../openapi/load-spec.js';
import { defaultSpecFile } from '../../paths.js';
import { defaultSeeds, loadSeeds, seedsOf } from './load-fixtures.js';
import { createFallback } from '../front-door/fallback.js';
import { itemActionsFirst } from '../handlers/item-actions.js';
import { docsMount } from '../docs/docs-mount.js';
import type { DocumentInputs, DocumentSources, ModelParts } from './document-model.js';

/** Reads and checks the document and the fixtures: files (the server's, reloadable) or values. */
export async function loadDocumentInputs(sources: DocumentSources): Promise<DocumentInputs> {
  const spec = await loadSpec(sources.spec ?? defaultSpecFile);
  const { fixtures } = sources;
  const seeds =
    fixtures === undefined
      ? await defaultSeeds(sources.spec, spec)
      : typeof fixtures === 'string'
        ? await loadSeeds(fixtures, spec)
        : seedsOf(fixtures, spec);
  return { spec, seeds };
}

/** The server's model parts: its docs page, prism-http for operations without a handler, the proxy's wrapper. */
export function serverModelParts(sources: DocumentSources): ModelParts {
  return {
    wrapOperation: sources.wrapOperation,
    // An action on an item the store does not hold gets the document's 404 before any example (item-actions.ts):
    // with the examples' answers, so only the server build carries it.
    fallback: (spec) => createFallback(spec).then((examples) => itemActionsFirst(spec, examples)),
    mounts: (spec, runtime) => [docsMount(spec, runtime.usingDevKey)],
  };
}

/** Whether two seeds hold the same items, field by field (not by their JSON text, whose key order may differ). */
export function sameSeed(a: StoreSeeds, b: StoreSeeds): boolean {
  return isDeepStrictEqual(a, b);
}
