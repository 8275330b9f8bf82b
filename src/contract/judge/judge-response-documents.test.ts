import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec } from '../../openapi/load-spec.js';
import { judgeResponse } from './judge-response.js';
import { exchangeFor } from '../../../test/support/contract-unit.js';

// `--spec` takes another document: getPet's "the requested animal" is compared only where both ids are integers
// the runner can hold exactly; any other id type is judged by the document's schema alone.

/** The bundled document with Pet.id of another type. */
async function specWithPetId(id: OpenAPIV3.SchemaObject) {
  const document = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as OpenAPIV3.Document;
  const pet = document.components!.schemas!.Pet as OpenAPIV3.SchemaObject;
  const own = pet.allOf![1] as OpenAPIV3.SchemaObject;
  own.properties!.id = id;
  return loadSpec(document);
}

const checksOf = (judged: ReturnType<typeof judgeResponse>) => judged.failures.map((f) => f.check);

describe('getPet answering another pet, under other documents', () => {
  it('does not compare a string id with the id asked for', async () => {
    const spec = await specWithPetId({ type: 'string' });
    const judged = judgeResponse(
      spec,
      exchangeFor('getPet', 200, { id: '8', name: 'a', categoryId: 1 }, { pathValues: { petId: '7' } }),
    );
    expect(checksOf(judged)).toEqual([]);
    expect(judged.evaluated).toContain('get.returns-requested');
  });

  it('does not compare an id a double cannot hold exactly', async () => {
    const spec = await specWithPetId({ type: 'number' });
    const unsafe = exchangeFor(
      'getPet',
      200,
      { id: 9007199254740994, name: 'a', categoryId: 1 },
      { pathValues: { petId: '9007199254740993' } },
    );
    expect(checksOf(judgeResponse(spec, unsafe))).toEqual([]);
    const safe = exchangeFor('getPet', 200, { id: 8, name: 'a', categoryId: 1 }, { pathValues: { petId: '7' } });
    expect(checksOf(judgeResponse(spec, safe))).toEqual(['get.returns-requested']);
  });
});

describe("errors on a document that is not the interface's (errors-as-declared.yaml)", () => {
  const declared = () =>
    loadSpec(fileURLToPath(new URL('../../../test/fixtures/documents/errors-as-declared.yaml', import.meta.url)));

  it.each([
    ['a 400 declared without content, answered empty', 'createThing', 400, undefined, null, [], false],
    [
      'a 400 declared without content, answered with a body of any shape',
      'createThing',
      400,
      { oops: 1 },
      'application/json',
      [],
      false,
    ],
    ['an undeclared 409 in no shape of ours', 'getThing', 409, 'busy', 'text/plain', [], false],
    [
      'a declared 404 problem',
      'getThing',
      404,
      { type: 'about:blank', title: 'x', status: 404 },
      'application/problem+json',
      [],
      true,
    ],
    [
      'a declared 404 problem whose status member differs',
      'getThing',
      404,
      { type: 'about:blank', title: 'x', status: 400 },
      'application/problem+json',
      ['error.shape'],
      true,
    ],
    [
      'a declared 404 problem missing its title',
      'getThing',
      404,
      { type: 'about:blank', status: 404 },
      'application/problem+json',
      ['error.shape'],
      true,
    ],
    [
      'a declared 404 as application/json',
      'getThing',
      404,
      { type: 'about:blank', title: 'x', status: 404 },
      'application/json',
      ['content-type.json'],
      true,
    ],
  ] as const)('%s', async (_, operation, status, body, contentType, failing, shapeJudged) => {
    const judged = judgeResponse(await declared(), exchangeFor(operation, status, body, { contentType }));
    expect(checksOf(judged)).toEqual(failing);
    expect(judged.evaluated.includes('error.shape')).toBe(shapeJudged);
    for (const failure of judged.failures) expect(failure.expected).not.toMatch(/Error \{code|application\/json and/);
  });
});
