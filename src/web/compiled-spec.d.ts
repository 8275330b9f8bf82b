// The module scripts/build-web.mjs writes to dist/web/compiled-spec.js with the code `petstore-kit compile-web` uses
// (src/compile-web/compile-web-module.ts): the package's openapi.yaml with its references, the seeds of its collections, its
// resource model, and every validator the mock needs, compiled by AJV at build time (standalone code).
import type { CompiledDocument } from '../mock/compiled-document.js';

export declare const format: CompiledDocument['format'];
export declare const document: CompiledDocument['document'];
export declare const dialect: CompiledDocument['dialect'];
/** Every top-level collection's seed items (fixtures/pets.json for `pets`), checked when the package was built. */
export declare const seeds: CompiledDocument['seeds'];
/** Keyed by direction and JSON pointer (`response.json#/components/schemas/Pet`), or a schema made by code's JSON text. */
export declare const validators: CompiledDocument['validators'];
/** The document's resource model (resource-model.ts), built at build time: plain data, its schemas as `{$ref}`. */
export declare const resources: CompiledDocument['resources'];
