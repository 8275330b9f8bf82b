import type { OpenAPIV3 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';
import { DocumentError } from '../input-errors.js';
import { listOperations, type CompileSchema, type Operation } from './operations.js';
import type { ModelInputs } from './resource-model.js';
import type { ResourceModel } from './resource-types.js';
import type { Dialect } from './dialect.js';
import { readDocumentSecurity, type DocumentSecurity } from './security.js';

/** A parsed, validated OpenAPI document with its operations and validators compiled once. */
export interface Spec {
  file: string | undefined;
  /**
   * Every `$ref` replaced by the object it names, shared and never copied (resolve-references.ts): a recursive schema
   * contains itself, so whatever walks it carries a cycle guard (schema-keywords.ts `walkSchema`). Schemas are in
   * JSON Schema 2020-12 form whatever the OpenAPI version (dialect.ts).
   */
  document: OpenAPIV3.Document;
  /** As written, bundled (`$ref`s intact, all inside it); for prism-http and the docs page. */
  source: OpenAPIV3.Document;
  /** The schemas in 2020-12 form with `$ref`s intact: what AJV reads, and what a compiled module carries. */
  normalized: OpenAPIV3.Document;
  /** Where each object of `document` is written in `normalized`: a JSON pointer (`#/components/schemas/Pet`). */
  pointerOf: WeakMap<object, string>;
  /** What differs between OpenAPI 3.0 and 3.1, read once (dialect.ts). */
  dialect: Dialect;
  /** The path of the first server's URL, without a trailing slash: `/v1`. */
  basePath: string;
  operations: Operation[];
  operationById: Map<string, Operation>;
  /** The document's resources and every operation's role (resource-model.ts), computed once here. */
  resources: ResourceModel;
  /** The document's security schemes and where its apiKeys are sent (security.ts), read once here. */
  security: DocumentSecurity;
  /** Compiles a schema of this document's dialect (formats, int64, bigints): AJV, or validators built ahead. */
  compile: CompileSchema;
  /** The compiled validator of a named component schema (`Pet`, `Error`), compiled on first use. */
  schema(name: string): ValidateFunction;
}

/** A document read and resolved: what a Spec is made of (read-document.ts, or a compiled module in a page). */
export interface SpecDocument {
  resolved: OpenAPIV3.Document;
  bundled: OpenAPIV3.Document;
  normalized: OpenAPIV3.Document;
  pointerOf: WeakMap<object, string>;
  dialect: Dialect;
}

/**
 * The Spec of a checked, resolved document: its operations listed and their validators compiled by `compile`,
 * its resource model from `resourcesOf` (buildResourceModel). No parser, no compiler and no model builder here, so
 * that the browser build (validators and model built ahead) shares it with load-spec.ts without carrying them.
 */
export function specOf(
  loaded: SpecDocument,
  file: string | undefined,
  compile: CompileSchema,
  resourcesOf: (inputs: ModelInputs) => ResourceModel,
): Spec {
  const document = loaded.resolved;
  const label = file ?? 'the OpenAPI document';
  let operations: Operation[];
  let resources: ResourceModel;
  try {
    operations = listOperations(document, compile);
    resources = resourcesOf({ document, operations });
  } catch (error) {
    throw new DocumentError(`${label}: ${oneLine(error)}`);
  }
  const schemas = new Map<string, ValidateFunction>();
  return {
    file,
    document,
    source: loaded.bundled,
    normalized: loaded.normalized,
    pointerOf: loaded.pointerOf,
    dialect: loaded.dialect,
    basePath: basePathOf(document),
    operations,
    operationById: new Map(operations.map((o) => [o.id, o])),
    resources,
    security: readDocumentSecurity(document),
    compile,
    schema(name) {
      const cached = schemas.get(name);
      if (cached) return cached;
      const schema = document.components?.schemas?.[name];
      if (!schema) throw new DocumentError(`${label}: components.schemas has no "${name}"`);
      const compiled = compile(schema);
      schemas.set(name, compiled);
      return compiled;
    },
  };
}

/** The path part of the first server URL, its variables set to their defaults (OpenAPI 3.0 §4.7.5). */
export function basePathOf(document: OpenAPIV3.Document): string {
  const server = document.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  const pathname = new URL(url, 'http://localhost').pathname;
  return pathname.replace(/\/+$/, '');
}

export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
