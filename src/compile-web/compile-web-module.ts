// The one writer of compiled documents: `petstore-kit compile-web` (a team's own openapi.yaml) and the package build
// (scripts/build-web.mjs: the package's openapi.yaml as dist/web/compiled-spec.js) both call compileWebModule, so a
// page runs the same kind of module whichever document it serves.
import { relative } from 'node:path';
import ajvModule from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { createAjv } from '../openapi/ajv.js';
import { createSchemaCompiler, schemaKey, type Direction } from '../openapi/schema-compiler.js';
import { loadSpec, type Spec } from '../openapi/load-spec.js';
import { listOperations } from '../openapi/operations.js';
import { ERROR_SHAPE } from '../openapi/check-response.js';
import { defaultSeeds, isBundledDocument, loadSeeds, ownFixturesFolder } from '../mock/document/load-fixtures.js';
import { defaultFixturesFile } from '../paths.js';
import { COMPILED_FORMAT } from '../mock/compiled-document.js';
import { DocumentError } from '../input-errors.js';
import { moduleLiteral } from './module-literal.js';

// Both ship CommonJS; under NodeNext their exports arrive wrapped.
const { _ } = ajvModule as unknown as { _: typeof import('ajv')._ };
type StandaloneCode = (ajv: import('ajv').Ajv, refs: Record<string, string>) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ??
  standaloneModule) as StandaloneCode;

export interface CompileWebOptions {
  /** The OpenAPI document: a file or an http(s) URL; default the package's openapi.yaml. */
  spec?: string;
  /** The fixtures file, as `petstore-kit mock --fixtures` takes it (its siblings seed the other collections). */
  fixtures?: string;
  /** Where the module imports the formats and AJV's helpers from: `petstore-kit/web-formats`, or a relative path. */
  formatsFrom: string;
  /** Who wrote it, for the module's first line. */
  writtenBy: string;
}

export interface CompiledModule {
  /** The module's text (an ES module). */
  code: string;
  spec: Spec;
  /** Seed items per top-level collection. */
  seeds: Record<string, number>;
  /** The operations that fit no resource role: a compiled mock answers them 501 (it has no prism-http). */
  stateless: { operationId: string; method: string; path: string }[];
}

/** What AJV's standalone code requires, and the name petstore-kit/web-formats exports it under. */
const RUNTIME_HELPERS: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
  'require("ajv/dist/runtime/equal").default': 'equal',
};

/**
 * A document as an ES module a page can import: the document with its references (resolved in the page), the seeds (the fixtures file and its
 * siblings, else the document's examples; each item checked against its schema), the resource model as data, and
 * every validator the mock compiles, as AJV standalone code. Loading the document and the fixtures throws what
 * `petstore-kit mock` would (DocumentError, InputFileError).
 */
export async function compileWebModule(options: CompileWebOptions): Promise<CompiledModule> {
  const spec = await loadSpec(options.spec);
  const seeds =
    options.fixtures === undefined ? await defaultSeeds(options.spec, spec) : await loadSeeds(options.fixtures, spec);
  const fixtures =
    options.fixtures ??
    (isBundledDocument(options.spec) ? defaultFixturesFile : (ownFixturesFolder(options.spec) ?? 'its examples'));
  const schemas = schemasOf(spec);
  const used = new Set([...JSON.stringify(spec.normalized).matchAll(/"format":"([^"]+)"/g)].map((match) => match[1]!));
  const { code: validators, helpers } = standaloneValidators(spec, schemas);
  const imports = [
    ...(used.has('int64') ? ['int64Format'] : []),
    ...([...used].some((name) => name !== 'int64') ? ['fullFormats'] : []),
    ...helpers,
  ];
  const formats = [...used]
    .map(
      (name) => `${JSON.stringify(name)}: ${name === 'int64' ? 'int64Format' : `fullFormats[${JSON.stringify(name)}]`}`,
    )
    .join(', ');
  const keys = [...schemas.keys()].map((key, index) => `  ${JSON.stringify(key)}: v${index},`).join('\n');
  const seedItems = Object.fromEntries([...seeds].map(([name, seed]) => [name, seed.items]));
  const code = `// Written by ${options.writtenBy} from ${shownPath(spec.file ?? 'the OpenAPI document')} and ${shownPath(fixtures)}; do not edit.
${imports.length > 0 ? `import { ${imports.join(', ')} } from ${JSON.stringify(options.formatsFrom)};\n` : ''}const petstoreFormats = { ${formats} };
${validators}
export const format = ${COMPILED_FORMAT};
export const document = ${moduleLiteral(withoutProse(spec.normalized))};
export const dialect = ${moduleLiteral(spec.dialect)};
export const seeds = ${moduleLiteral(seedItems)};
export const resources = ${moduleLiteral(spec.resources, (value) => asReference(value, spec.pointerOf))};
export const validators = {
${keys}
};
`;
  return {
    code,
    spec,
    seeds: Object.fromEntries([...seeds].map(([name, seed]) => [name, seed.items.length])),
    stateless: spec.resources.operations
      .filter((operation) => operation.role === 'none')
      .map(({ operationId, method, path }) => ({ operationId, method, path })),
  };
}

/**
 * The document without its prose (`description` and `summary` texts): a page serves no docs, and every byte of the
 * module is a byte of the app. Where anything is (every JSON pointer) stays as it was; examples, defaults and
 * extensions are data and stay whole.
 */
export function withoutProse(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map(withoutProse);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'description' || key === 'summary') && typeof value === 'string') continue;
    copy[key] = DATA.has(key) || key.startsWith('x-') ? value : withoutProse(value);
  }
  return copy;
}

const DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** A schema of the document as the `{$ref}` a page resolves again (compiled-document.ts); anything else as it is. */
function asReference(value: object, pointerOf: WeakMap<object, string>): unknown {
  const pointer = pointerOf.get(value);
  return pointer === undefined ? value : { $ref: pointer };
}

/** One validator the mock compiles: the key it is found by in a page, the schema and the direction. */
interface Needed {
  schema: object;
  direction: Direction | undefined;
}

/**
 * Every schema the mock compiles, by the key a page finds it by (schema-compiler.ts `schemaKey`): the operations'
 * (listOperations, as load-spec.ts calls it), the components', each collection's item schema (seeds, merges), and
 * the interface's Error shape when the document has no `Error` of its own (the journal's judge, check-response.ts).
 */
function schemasOf(spec: Spec): Map<string, Needed> {
  const schemas = new Map<string, Needed>();
  const collect = (schema: object, direction?: Direction) => {
    schemas.set(schemaKey(schema, spec.pointerOf, direction), { schema, direction });
    return spec.compile(schema, direction);
  };
  listOperations(spec.document, collect);
  for (const schema of Object.values(spec.document.components?.schemas ?? {})) collect(schema);
  for (const collection of spec.resources.collections) if (collection.itemSchema) collect(collection.itemSchema);
  if (!spec.document.components?.schemas?.Error) collect(ERROR_SHAPE);
  return schemas;
}

/**
 * The validators as standalone code, its `require`s of AJV's helpers turned into names imported from web-formats.
 * The document is added to AJV as the mock adds it (schema-compiler.ts), so each validator is compiled by reference
 * and a schema shared by many is one function in the module.
 */
function standaloneValidators(spec: Spec, schemas: Map<string, Needed>): { code: string; helpers: string[] } {
  const ajv = createAjv({ source: true, esm: true, formats: _`petstoreFormats` });
  const compiler = createSchemaCompiler(ajv, spec.normalized, spec.pointerOf, (validate) => validate);
  const refs: Record<string, string> = {};
  [...schemas.values()].forEach(({ schema, direction }, index) => {
    if (spec.pointerOf.has(schema)) refs[`v${index}`] = compiler.keyOf(schema, direction);
    else {
      ajv.addSchema(schema, `v${index}`);
      refs[`v${index}`] = `v${index}`;
    }
  });
  const helpers = new Set<string>();
  const code = standaloneCode(ajv, refs)
    .replace(/^"use strict";/, '')
    // Its exports are the module's own (format, document, …): the validators are reached through `validators` only.
    .replace(/\bexport const (v\d+) = /g, 'const $1 = ')
    .replace(/require\("[^"]*"\)(\.\w+)?/g, (call) => {
      const name = RUNTIME_HELPERS[call];
      if (!name)
        throw new DocumentError(
          `${spec.file ?? 'the OpenAPI document'}: its validators need ${call}, which petstore-kit/web-formats does not provide; a page cannot run them (report it with the schema)`,
        );
      helpers.add(name);
      return name;
    });
  return { code, helpers: [...helpers] };
}

/** A file as the module's first line names it: relative to the working directory (no build machine's home in it). */
function shownPath(file: string): string {
  return /^https?:/i.test(file) ? file : relative(process.cwd(), file);
}

/**
 * The module's declarations, for a TypeScript app (`FILE.d.ts` beside `FILE.js`): each export typed as the
 * `compiled` option takes it, so `petstoreHandlers({ compiled })` type-checks without `allowJs`.
 */
export function declarationsOf(writtenBy: string): string {
  return `// Written by ${writtenBy} with the module beside it; do not edit.
import type { CompiledDocument } from 'petstore-kit/fetch';

export declare const format: CompiledDocument['format'];
export declare const document: CompiledDocument['document'];
export declare const dialect: CompiledDocument['dialect'];
export declare const seeds: CompiledDocument['seeds'];
export declare const resources: CompiledDocument['resources'];
export declare const validators: CompiledDocument['validators'];
`;
}
