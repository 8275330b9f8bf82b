import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { loadSpec } from '../src/openapi/load-spec.js';
import type { ResourceFault } from './targets/resource-petstore.js';
import { runOracleAlone, type OracleWords } from './support/oracle-words.js';
import { COLLECTION_ORACLE_CHECKS } from './support/oracle-checks.js';

/**
 * The words a user reads from each collection oracle (src/contract/stateful/collection-oracles.ts), one case on a
 * fresh target at a time (test/targets/resource-petstore.ts on the v1.1 document; two orders created at once given
 * one id is left to test/contract-collection-oracles.test.ts, since which two meet depends on timing): the requests it sends, in order, with
 * the statuses they got, and each failure's check, expected and actual text. A mutation run (`npm run mutation`)
 * kills on these what a verdict alone does not show: a request left out, a message changed.
 */
const KEY = 'collection-words-key-6a1d';

const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

type Row = [fault: ResourceFault | 'none', id: string, requests: string, failures: string[][]];

const rows: Row[] = [
  ['none', 'resource.refused-create/pets', 'POST 400, GET 200, POST 201, GET 200, DELETE 204', []],
  ['none', 'resource.create-echo/pets', 'POST 201, DELETE 204', []],
  ['none', 'resource.refused-create/store/orders', 'POST 400, GET 200, POST 201, DELETE 204', []],
  [
    'none',
    'resource.unique-ids/store/orders',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  ['none', 'resource.create-echo/store/orders', 'POST 201, DELETE 204', []],
  ['none', 'resource.refused-create/pets/photos', 'POST 201, POST 400, GET 200, POST 201, DELETE 204, DELETE 204', []],
  [
    'none',
    'resource.unique-ids/pets/photos',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  [
    'none',
    'resource.nested-parent/pets/photos',
    'POST 201, POST 201, POST 201, GET 404, DELETE 404, GET 200, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  ['none', 'resource.children-gone/pets/photos', 'POST 201, POST 201, DELETE 204, GET 404, GET 404', []],
  [
    'none',
    'resource.limit/pets/photos',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  ['none', 'resource.create-echo/pets/photos', 'POST 201, POST 201, DELETE 204, DELETE 204', []],
  [
    'refused-create-stores',
    'resource.refused-create/pets',
    'POST 400, GET 200, POST 201, GET 200, DELETE 204',
    [
      ['schema.response', 'a body matching the schema of listPets 200', 'response[0].name must be a string'],
      ['resource.refused-create', 'no item made of the refused createPet listed', '200 application/json, 1 items'],
      ['schema.response', 'a body matching the schema of getPet 200', 'response.name must be a string'],
      [
        'resource.refused-create',
        'id 4 (just below the next item created) not an item made of the refused create',
        '200 application/json {"name":12345,"categoryId":1,"status":"available","tag":"contract-words-refused-create-tag","id":4}',
      ],
    ],
  ],
  [
    'refused-photo-stores',
    'resource.refused-create/pets/photos',
    'POST 201, POST 400, GET 200, POST 201, GET 200, DELETE 204, DELETE 204',
    [
      ['schema.response', 'a body matching the schema of listPetPhotos 200', 'response[0].url must be a string'],
      ['resource.refused-create', 'no item made of the refused addPetPhoto listed', '200 application/json, 1 items'],
      ['schema.response', 'a body matching the schema of getPetPhoto 200', 'response.url must be a string'],
      [
        'resource.refused-create',
        'id 1 (just below the next item created) not an item made of the refused create',
        '200 application/json {"id":1,"petId":4,"url":12345,"caption":"contract-words-refused-create-caption"}',
      ],
    ],
  ],
  // Stored with its wrong field made valid: the list and the read break no schema, the oracle alone says it.
  [
    'refused-create-stores-valid',
    'resource.refused-create/pets',
    'POST 400, GET 200, POST 201, GET 200, DELETE 204',
    [
      [
        'resource.refused-create',
        'no item made of the refused createPet listed',
        'listed: {"name":"12345","categoryId":1,"status":"available","tag":"c…(101 characters)',
      ],
      [
        'resource.refused-create',
        'id 4 (just below the next item created) not an item made of the refused create',
        'read: {"name":"12345","categoryId":1,"status":"available","tag":"c…(101 characters)',
      ],
    ],
  ],
  // Under a parent the case created, any photo is one too many, even one made of none of the fields sent.
  [
    'refused-photo-stores-bare',
    'resource.refused-create/pets/photos',
    'POST 201, POST 400, GET 200, POST 201, GET 200, DELETE 204, DELETE 204',
    [
      [
        'resource.refused-create',
        'no item made of the refused addPetPhoto listed',
        'listed: {"id":1,"petId":4,"url":"https://example.com/placeholder"}',
      ],
      [
        'resource.refused-create',
        'id 1 (just below the next item created) not an item made of the refused create',
        'read: {"id":1,"petId":4,"url":"https://example.com/placeholder"}',
      ],
    ],
  ],
  [
    'photo-any-parent',
    'resource.nested-parent/pets/photos',
    'POST 201, POST 201, POST 201, GET 200, DELETE 204, GET 404, DELETE 404, DELETE 204, DELETE 204',
    [
      [
        'resource.nested-parent',
        '404 for getPetPhoto of 1 through petId 5, another parent (as the document declares)',
        '200 application/json {"id":1,"petId":4,"url":"https://example.com/contract-words-child-url","caption":"contract-words-child-caption"}',
      ],
      [
        'resource.nested-parent',
        '404 for deletePetPhoto of 1 through petId 5, another parent (as the document declares)',
        '204 no Content-Type, empty body',
      ],
      [
        'resource.nested-parent',
        '1 still read through its own parent after the requests through another',
        '404 application/json {"code":"not_found","message":"not_found","status":404}',
      ],
    ],
  ],
  [
    'photos-outlive-pet',
    'resource.children-gone/pets/photos',
    'POST 201, POST 201, DELETE 204, GET 200, GET 404',
    [
      [
        'resource.children-gone',
        '404 for the read of 1, whose parent 4 was deleted',
        '200 application/json {"id":1,"petId":4,"url":"https://example.com/contract-words-orphan-url","caption":"contract-words-orphan-caption"}',
      ],
    ],
  ],
  [
    'photos-ignore-limit',
    'resource.limit/pets/photos',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [
      ['resource.limit', 'exactly 1 items for limit=1 (6 created)', '6 items'],
      ['resource.limit', 'exactly 5 items without limit (its default; 6 created)', '6 items'],
    ],
  ],
  [
    'photos-short-page',
    'resource.limit/pets/photos',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [
      ['resource.limit', 'exactly 1 items for limit=1 (6 created)', '0 items'],
      ['resource.limit', '6 to 10 items for limit=10 (6 created)', '5 items'],
      ['resource.limit', 'exactly 5 items without limit (its default; 6 created)', '4 items'],
    ],
  ],
  // create.echo judges createPet's status (a fixed case): the collection oracle leaves it, so one fault fails one id.
  ['create-answers-other-status', 'resource.create-echo/pets', 'POST 201, DELETE 204', []],
  [
    'photo-echo-drops-caption',
    'resource.create-echo/pets/photos',
    'POST 201, POST 201, DELETE 204, DELETE 204',
    [
      [
        'resource.create-echo',
        'addPetPhoto answers the item with every field sent: {"url":"https://example.com/contract-words-echo-url","captio…(93 characters)',
        'caption absent instead of "contract-words-echo-caption"',
      ],
    ],
  ],
];

function runOne(fault: ResourceFault | undefined, id: string): Promise<OracleWords> {
  return runOracleAlone(KEY, v11, contractCases, fault, id);
}

describe('the collection oracles, word for word', () => {
  it('are listed with their operations, titles and the writes a read-only run skips', async () => {
    const listed = contractCases(await loadSpec(v11))
      .filter((c) => COLLECTION_ORACLE_CHECKS.includes(c.check))
      .map((c) => [c.id, c.operation, c.title, c.writeMethods]);
    expect(listed).toEqual([
      ['resource.refused-create/pets', 'createPet', '/pets: a refused create stores nothing', ['POST', 'DELETE']],
      ['resource.create-echo/pets', 'createPet', '/pets: a create answers every field sent', ['POST', 'DELETE']],
      [
        'resource.refused-create/store/orders',
        'placeOrder',
        '/store/orders: a refused create stores nothing',
        ['POST', 'DELETE'],
      ],
      [
        'resource.unique-ids/store/orders',
        'placeOrder',
        '/store/orders: ids are unique, also under parallel creates',
        ['POST', 'DELETE'],
      ],
      [
        'resource.create-echo/store/orders',
        'placeOrder',
        '/store/orders: a create answers every field sent',
        ['POST', 'DELETE'],
      ],
      [
        'resource.refused-create/pets/photos',
        'addPetPhoto',
        '/pets/{petId}/photos: a refused create stores nothing',
        ['POST', 'DELETE'],
      ],
      [
        'resource.unique-ids/pets/photos',
        'addPetPhoto',
        '/pets/{petId}/photos: ids are unique, also under parallel creates',
        ['POST', 'DELETE'],
      ],
      [
        'resource.nested-parent/pets/photos',
        'addPetPhoto',
        '/pets/{petId}/photos: an item is not reached through another parent',
        ['POST', 'DELETE'],
      ],
      [
        'resource.children-gone/pets/photos',
        'addPetPhoto',
        '/pets/{petId}/photos: the items of a deleted parent are gone',
        ['POST', 'DELETE'],
      ],
      [
        'resource.limit/pets/photos',
        'addPetPhoto',
        '/pets/{petId}/photos: limit and its default as the document gives them',
        ['POST', 'DELETE'],
      ],
      [
        'resource.create-echo/pets/photos',
        'addPetPhoto',
        '/pets/{petId}/photos: a create answers every field sent',
        ['POST', 'DELETE'],
      ],
    ]);
  });

  it.each(rows)('%s: %s', async (fault, id, requests, failures) => {
    const seen = await runOne(fault === 'none' ? undefined : fault, id);
    expect(seen).toEqual({ requests, failures });
  });
});
