// The module scripts/build-web.mjs writes to dist/web/compiled-spec.js: the package's openapi.yaml dereferenced,
// its fixtures, its resource model, and every validator the mock needs, compiled by AJV at build time (standalone code).
import type { OpenAPIV3 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import type { Pet } from '../mock/store/pet-store.js';
import type { ResourceModel } from '../openapi/resource-types.js';

export declare const document: OpenAPIV3.Document;
export declare const fixtures: Pet[];
/** Keyed by the schema's JSON text, as the dereferenced document holds it. */
export declare const validators: Record<string, ValidateFunction>;
/** The document's resource model (resource-model.ts), built at build time: plain data, as JSON. */
export declare const resources: ResourceModel;
