import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenAPIV3 } from 'openapi-types';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { loadSpec, type Spec } from '../src/openapi/load-spec.js';
import { wordsOn, type OracleWords } from './support/oracle-words.js';
import { startResourcePetstore, type ResourceFault } from './targets/resource-petstore.js';

/**
 * resource.children-gone and resource.nested-parent on the v1.1 document as other documents may declare the photos: a
 * photo read without a 404 (any 4xx is then the answer for a photo whose pet was deleted), a pet delete that declares
 * 409 (the target may refuse to delete a pet that has photos: the case is then not run, not failed). Each case alone
 * on test/targets/resource-petstore.ts with one fault or none: what it sends, and each failure's words.
 */
const KEY = 'collection-variants-key-4f2e';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

type Change = 'photo read without 404' | 'pet delete declares 409' | 'as written';

function documentWith(change: Change): OpenAPIV3.Document {
  const document = parse(readFileSync(v11, 'utf8')) as OpenAPIV3.Document;
  if (change === 'photo read without 404')
    delete document.paths['/pets/{petId}/photos/{photoId}']!.get!.responses['404'];
  if (change === 'pet delete declares 409')
    document.paths['/pets/{petId}']!.delete!.responses['409'] = { description: 'The pet still has photos.' };
  return document;
}

const specs = new Map<Change, Promise<Spec>>();
function specOf(change: Change): Promise<Spec> {
  if (!specs.has(change)) specs.set(change, loadSpec(documentWith(change)));
  return specs.get(change)!;
}

async function run(change: Change, fault: ResourceFault | undefined, id: string): Promise<OracleWords> {
  return wordsOn(await startResourcePetstore(KEY, fault), KEY, await specOf(change), contractCases, id);
}

const READ =
  '200 application/json {"id":1,"petId":4,"url":"https://example.com/contract-words-orphan-url","caption":"contract-words-orphan-caption"}';
const INTERNAL = '500 application/json {"code":"internal","message":"internal","status":500}';

type Row = [
  name: string,
  change: Change,
  fault: ResourceFault | 'none',
  id: string,
  requests: string,
  failures: string[][],
  skipped?: string,
];

const GONE = 'resource.children-gone/pets/photos';

const rows: Row[] = [
  [
    'no 404 declared: any 4xx for the orphan',
    'photo read without 404',
    'none',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 404, GET 404',
    [],
  ],
  [
    'no 404 declared: 410 is a 4xx',
    'photo read without 404',
    'orphan-photo-410',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 410, GET 404',
    [],
  ],
  [
    'no 404 declared: the orphan read as a photo',
    'photo read without 404',
    'photos-outlive-pet',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 200, GET 404',
    [['resource.children-gone', 'a 4xx for the read of 1, whose parent 4 was deleted', READ]],
  ],
  [
    'no 404 declared: a 5xx is no 4xx',
    'photo read without 404',
    'orphan-photo-500',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 500, GET 404',
    [
      ['server.no-5xx', 'no 5xx for any request the suite sends', INTERNAL],
      ['resource.children-gone', 'a 4xx for the read of 1, whose parent 4 was deleted', INTERNAL],
    ],
  ],
  [
    'no 404 declared for the read: only the delete is tried through another parent',
    'photo read without 404',
    'none',
    'resource.nested-parent/pets/photos',
    'POST 201, POST 201, POST 201, DELETE 404, GET 200, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  [
    '404 declared: 410 is not it',
    'as written',
    'orphan-photo-410',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 410, GET 404',
    [
      [
        'resource.children-gone',
        '404 for the read of 1, whose parent 4 was deleted',
        '410 application/json {"code":"gone","message":"gone","status":410}',
      ],
    ],
  ],
  [
    "the deleted pet's list still holding its photo",
    'as written',
    'orphan-photos-listed',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 404, GET 200',
    [['resource.children-gone', '404 or a list without 1 for the deleted parent 4', '200 application/json, 1 items']],
  ],
  [
    "the deleted pet's list empty: the other answer declared",
    'as written',
    'orphan-list-empty',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 404, GET 200',
    [],
  ],
  [
    'a pet with photos not deleted, where the delete declares no 409',
    'as written',
    'pet-with-photos-409',
    GONE,
    'POST 201, POST 201, DELETE 409, DELETE 204, DELETE 204',
    [
      [
        'resource.children-gone',
        'a 2xx to the delete of the parent',
        '409 application/json {"code":"pet_has_photos","message":"pet_has_photos","status":409}',
      ],
    ],
  ],
  [
    'a pet with photos not deleted, as its delete declares it may: not run',
    'pet delete declares 409',
    'pet-with-photos-409',
    GONE,
    'POST 201, POST 201, DELETE 409, DELETE 204, DELETE 204',
    [],
    'notRun: deletePet answered 409, a refusal it declares: nothing left to judge',
  ],
  [
    'a delete that may be refused, and is not',
    'pet delete declares 409',
    'none',
    GONE,
    'POST 201, POST 201, DELETE 204, GET 404, GET 404',
    [],
  ],
];

describe('the collection oracles on documents declaring the photos otherwise', () => {
  it.each(rows)('%s', async (_name, change, fault, id, requests, failures, skipped) => {
    expect(await run(change, fault === 'none' ? undefined : fault, id)).toEqual({ requests, failures, skipped });
  });
});
