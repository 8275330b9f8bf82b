// petstore-kit/web-formats: what the validators of a compiled document import (a module written by
// `petstore-kit compile-web`, and the package's own dist/web/compiled-spec.js): the formats the server's AJV knows
// (ajv-formats' full set, and int64 by the mock's own rule) and the two helpers AJV's standalone code calls
// (string length in code points for minLength/maxLength, deep equality for enum, const and uniqueItems). A public
// entry rather than copies inlined in every module: the formats stay the ones the server checks with, and a page
// that imports two compiled documents carries them once. Plain modules of ajv and ajv-formats, no Node module (the
// build bundles this entry and fails on one).
import * as formatsModule from 'ajv-formats/dist/formats.js';
import * as ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import * as equalModule from 'ajv/dist/runtime/equal.js';

export { int64Format } from '../openapi/bigint-aware.js';

/** ajv-formats' full formats, as `createAjv` adds them (src/openapi/ajv.ts). */
export const fullFormats = formatsModule.fullFormats;

/** The default export of a CommonJS module, as Node (the exports object) and a bundler (its `default`) present it. */
function defaultOf<T>(module: { default: T }): T {
  const value = module.default as T | { default: T };
  return typeof value === 'function' ? value : (value as { default: T }).default;
}

/** AJV's `minLength`/`maxLength` count (code points, not UTF-16 units). */
export const ucs2length = defaultOf(ucs2lengthModule);

/** AJV's deep equality (`enum` and `const` of objects, `uniqueItems`). */
export const equal = defaultOf(equalModule);
