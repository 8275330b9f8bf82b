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

  it('gives the same dereferenced document as swagger-parser for openapi.yaml', async () => {
    const parsed = (await SwaggerParser.parse(defaultSpecFile)) as OpenAPIV3.Document;
    expect(await validateDocument(structuredClone(parsed))).toEqual(
      await SwaggerParser.validate(structuredClone(parsed)),
    );
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
  ])('rejects %s, as swagger-parser does', async (_, document, message) => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).rejects.toThrow();
    await expect(validateDocument(document as never)).rejects.toThrow(message);
  });

  it('still fails on a $ref that points nowhere, as swagger-parser does', async () => {
    const schema = { $ref: '#/components/schemas/Missing' };
    const document = {
      ...minimal,
      paths: {
        '/a': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } },
      },
    };
    await expect(SwaggerParser.validate(structuredClone(document) as never)).rejects.toThrow(/Missing/);
    await expect(validateDocument(document as never)).rejects.toThrow(/Missing/);
  });
});
