// The module scripts/build-web.mjs writes to dist/web/compiled-spec.js with the code `petstore-kit compile-web` uses
// (src/compile-web/compile-web-module.ts): the package's openapi.yaml dereferenced, the seeds of its collections, its
// resource model, and every validator the mock needs, compiled by AJV at build time (standalone code).
import type { CompiledDocument } from '../mock/compiled-document.js';

export declare const format: CompiledDocument['format'];
export declare const document: CompiledDocument['document'];
/** Every top-level collection's seed items (fixtures/pets.json for `pets`), checked when the package was built. */
export declare const seeds: CompiledDocument['seeds'];
/** Keyed by the schema's JSON text, as the dereferenced document holds it. */
export declare const validators: CompiledDocument['validators'];
/** The document's resource model (resource-model.ts), built at build time: plain data, as JSON. */
export declare const resources: CompiledDocument['resources'];
