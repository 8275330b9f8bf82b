import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIV3 } from 'openapi-types';
import {
  loadOpenApi30Validator,
  MissingBuildError,
  PRECOMPILED_VALIDATOR,
  validateDocument,
} from './validate-document.js';
import { dialectOf } from './dialect.js';
import { defaultSpecFile, packageRoot } from '../paths.js';

const minimal = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };

describe('validateDocument', () => {
  it('uses the validator compiled at build time', () => {
    expect(PRECOMPILED_VALIDATOR).toBe(join(packageRoot, 'dist', 'openapi', 'openapi-3.0-schema.cjs'));
    expect(existsSync(PRECOMPILED_VALIDATOR)).toBe(true);
    expect(typeof loadOpenApi30Validator()).toBe('function');
  });

  it('fails loudly, naming the file and the fix, when the build output is missing (no silent fallback)', () => {
    const missing = join(packageRoot, 'dist', 'openapi', 'no-such-validator.cjs');
    expect(() => loadOpenApi30Validator(missing)).toThrow(MissingBuildError);
    expect(() => loadOpenApi30Validator(missing)).toThrow(
      `${missing} is missing or broken (MODULE_NOT_FOUND); run "npm run build"`,
    );
  });

  it('accepts openapi.yaml as written, its references kept, and a 3.1 document without paths', async () => {
    const parsed = (await SwaggerParser.parse(defaultSpecFile)) as OpenAPIV3.Document;
    expect(() => validateDocument(parsed, dialectOf(parsed))).not.toThrow();
    const componentsOnly = { openapi: '3.1.0', info: { title: 't', version: '1' }, components: { schemas: {} } };
    expect(() => validateDocument(componentsOnly, dialectOf(componentsOnly))).not.toThrow();
  });

  it.each([
    ['info without version', { ...minimal, info: { title: 't' } }, /document\.info\.version is required/],
    ['paths of the wrong type', { ...minimal, paths: [] }, /document\.paths must be an object/],
    [
      'a response without description',
      { ...minimal, paths: { '/a': { get: { responses: { 200: {} } } } } },
      /description/,
    ],
    ['an unknown top-level field', { ...minimal, bogus: 1 }, /bogus/],
    [
      'a 3.1 document with neither paths, components nor webhooks',
      { ...minimal, openapi: '3.1.0', paths: undefined },
      /paths|components|webhooks/,
    ],
  ])('rejects %s, as swagger-parser does', async (_, document, message) => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).rejects.toThrow();
    expect(() => validateDocument(document, dialectOf(document))).toThrow(message);
  });
});
