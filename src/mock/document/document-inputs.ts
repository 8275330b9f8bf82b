import { isDeepStrictEqual } from 'node:util';
import type { Pet } from '../store/pet-store.js';
import { loadSpec } from '../../openapi/load-spec.js';
import { defaultFixturesFile, defaultSpecFile } from '../../paths.js';
import { checkFixtures, loadFixtures } from './load-fixtures.js';
import { createFallback } from '../front-door/fallback.js';
import { docsMount } from '../docs/docs-mount.js';
import type { DocumentInputs, DocumentSources, ModelParts } from './document-model.js';

/** Reads and checks the document and the fixtures: files (the server's, reloadable) or values. */
export async function loadDocumentInputs(sources: DocumentSources): Promise<DocumentInputs> {
  const spec = await loadSpec(sources.spec ?? defaultSpecFile);
  const fixtures = sources.fixtures ?? defaultFixturesFile;
  const seed =
    typeof fixtures === 'string' ? await loadFixtures(fixtures, spec) : checkFixtures(fixtures, 'fixtures', spec);
  return { spec, seed };
}

/** The server's model parts: its docs page, prism-http for operations without a handler, the proxy's wrapper. */
export function serverModelParts(sources: DocumentSources): ModelParts {
  return {
    wrapOperation: sources.wrapOperation,
    fallback: createFallback,
    mounts: (spec, runtime) => [docsMount(spec, runtime.usingDevKey)],
  };
}

/** Whether two seeds hold the same pets, field by field (not by their JSON text, whose key order may differ). */
export function sameSeed(a: readonly Pet[], b: readonly Pet[]): boolean {
  return isDeepStrictEqual(a, b);
}
