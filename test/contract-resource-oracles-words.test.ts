import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { resourceOracleCases } from '../src/contract/stateful/resource-oracles.js';
import type { ResourceFault } from './targets/resource-petstore.js';
import { runOracleAlone, specAt, type OracleWords } from './support/oracle-words.js';

/**
 * The words a user reads from each item oracle (src/contract/stateful/resource-oracles.ts), one case on a fresh
 * target at a time (test/targets/resource-petstore.ts on the v1.1 document): the requests it sends, in order, with
 * the statuses they got, and each failure's check, expected and actual text. A mutation run (`npm run mutation`)
 * kills on these what a verdict alone does not show: a request left out, a message changed.
 */
const KEY = 'oracle-words-key-0b5e';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

type Row = [fault: ResourceFault | 'none', id: string, requests: string, failures: string[][]];

const rows: Row[] = [
  ['none', 'resource.created-readable/pets', 'POST 201, GET 200, DELETE 204', []],
  [
    'none',
    'resource.filter/pets',
    'POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  ['none', 'resource.replace-exact/pets', 'POST 201, PUT 200, GET 200, PUT 200, GET 200, DELETE 204', []],
  ['none', 'resource.merge-patch/pets', 'POST 201, PATCH 200, GET 200, DELETE 204', []],
  ['none', 'resource.delete-gone/pets', 'POST 201, DELETE 204, GET 404, GET 200, DELETE 404', []],
  [
    'none',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 400, GET 200, PATCH 400, GET 200, DELETE 204',
    [],
  ],
  ['none', 'resource.unknown-id/pets', 'GET 404, PATCH 404, DELETE 404, PUT 404', []],
  // Orders are listed without a page parameter: three more made and read back, one list shows all four.
  [
    'none',
    'resource.created-readable/store/orders',
    'POST 201, GET 200, POST 201, GET 200, POST 201, GET 200, POST 201, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [],
  ],
  ['none', 'resource.filter/store/orders', 'POST 201, GET 200, DELETE 204', []],
  ['none', 'resource.delete-gone/store/orders', 'POST 201, DELETE 204, GET 404, GET 200, DELETE 404', []],
  ['none', 'resource.unknown-id/store/orders', 'GET 404, DELETE 404', []],
  // Nested: the parent pet made first and deleted last, the photo reached through it.
  ['none', 'resource.created-readable/pets/photos', 'POST 201, POST 201, GET 200, DELETE 204, DELETE 204', []],
  [
    'none',
    'resource.delete-gone/pets/photos',
    'POST 201, POST 201, DELETE 204, GET 404, GET 200, DELETE 404, DELETE 204',
    [],
  ],
  ['none', 'resource.unknown-id/pets/photos', 'POST 201, GET 404, DELETE 404, DELETE 204', []],
  [
    'drops-tag',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [
      [
        'resource.created-readable',
        'getPet of the created id 4: every field as sent',
        'tag absent instead of "contract-words-created-tag"',
      ],
    ],
  ],
  [
    'drops-tag',
    'resource.filter/pets',
    'POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [
      [
        'resource.filter',
        'the created id 4 listed under tag=words-f1 (a list shorter than its limit is complete)',
        '0 items, not it',
      ],
    ],
  ],
  [
    'drops-tag',
    'resource.merge-patch/pets',
    'POST 201, PATCH 200, GET 200, DELETE 204',
    [
      [
        'resource.merge-patch',
        'the item with {"status":null,"name":"contract-words-merged-namm"} merged into it',
        'tag absent instead of "contract-words-merged-tag"',
      ],
    ],
  ],
  [
    'ignores-filter',
    'resource.filter/pets',
    'POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [
      [
        'resource.filter',
        'every item listed with status=available has status "available"',
        'an item with status "sold"',
      ],
      ['resource.filter', 'every item listed with tag=words-f1 has tag "words-f1"', 'an item with tag "seed-a"'],
    ],
  ],
  [
    'put-merges',
    'resource.replace-exact/pets',
    'POST 201, PUT 200, GET 200, DELETE 204',
    [
      [
        'resource.replace-exact',
        'the item exactly as replaced: {"name":"contract-words-replacement-name","categoryId":2}',
        'status "available" kept, though the replacement left it out (a merge, not a replace)',
      ],
    ],
  ],
  [
    'patch-ignores-null',
    'resource.merge-patch/pets',
    'POST 201, PATCH 200, GET 200, DELETE 204',
    [
      [
        'resource.merge-patch',
        'the item with {"status":null,"name":"contract-words-merged-namm"} merged into it',
        'status "available" still there (a null in a merge patch removes it)',
      ],
    ],
  ],
  [
    'delete-keeps',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 200, GET 200, DELETE 204',
    [
      [
        'resource.delete-gone',
        '404 for the read of the deleted item (it was still there: use after free)',
        '200 application/json {"name":"contract-words-deleted-name","categoryId":1,"status":"available","tag":"contract-words-deleted-tag","id":4}',
      ],
      [
        'resource.delete-gone',
        'the deleted id 4 listed no more',
        'still listed: {"name":"contract-words-deleted-name","categoryId":1,"status…(116 characters)',
      ],
      ['resource.delete-gone', '404 for a second delete, as the document declares', '204 no Content-Type, empty body'],
    ],
  ],
  [
    'delete-keeps-listed',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 404, GET 200, DELETE 404',
    [
      [
        'resource.delete-gone',
        'the deleted id 4 listed no more',
        'still listed: {"name":"contract-words-deleted-name","categoryId":1,"status…(116 characters)',
      ],
    ],
  ],
  [
    'refused-put-applies',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 400, GET 200, PATCH 400, GET 200, DELETE 204',
    [
      ['resource.refused-unchanged', 'the item unchanged after the refused replacePet', 'categoryId 2 instead of 1'],
      ['resource.refused-unchanged', 'the item unchanged after the refused updatePet', 'categoryId 2 instead of 1'],
    ],
  ],
  [
    'unknown-delete-succeeds',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 404, GET 200, DELETE 204',
    [['resource.delete-gone', '404 for a second delete, as the document declares', '204 no Content-Type, empty body']],
  ],
  [
    'unknown-delete-succeeds',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 204, PUT 404',
    [
      [
        'resource.unknown-id',
        '404 for deletePet of id 9223372036854775807, which no item has (as the document declares)',
        '204 no Content-Type, empty body',
      ],
    ],
  ],
];

function runOne(fault: ResourceFault | undefined, id: string): Promise<OracleWords> {
  return runOracleAlone(KEY, v11, resourceOracleCases, fault, id);
}

describe('the item oracles, word for word', () => {
  it('are listed with their operations, titles and the writes a read-only run skips', async () => {
    const listed = resourceOracleCases(await specAt(v11)).map((c) => [c.id, c.operation, c.title, c.writeMethods]);
    expect(listed).toEqual([
      [
        'resource.created-readable/pets',
        'createPet+getPet',
        '/pets: a created item reads back with every field sent',
        ['POST', 'DELETE'],
      ],
      [
        'resource.filter/pets',
        'createPet+listPets',
        '/pets: every filter keeps exactly the items that match',
        ['POST', 'DELETE'],
      ],
      [
        'resource.replace-exact/pets',
        'createPet+getPet+replacePet',
        '/pets: a PUT replaces the item exactly, twice the same',
        ['POST', 'PUT', 'DELETE'],
      ],
      [
        'resource.merge-patch/pets',
        'createPet+getPet+updatePet',
        '/pets: a merge patch changes, removes (null) and leaves the rest',
        ['POST', 'PATCH', 'DELETE'],
      ],
      [
        'resource.delete-gone/pets',
        'createPet+getPet+deletePet',
        '/pets: a deleted item is gone (no use after free)',
        ['POST', 'DELETE'],
      ],
      [
        'resource.refused-unchanged/pets',
        'createPet+getPet',
        '/pets: a refused update or patch changes nothing',
        ['POST', 'PUT', 'PATCH', 'DELETE'],
      ],
      [
        'resource.unknown-id/pets',
        'getPet',
        "/pets: an unknown id gets the document's 404 on every item operation",
        ['PATCH', 'DELETE', 'PUT'],
      ],
      [
        'resource.created-readable/store/orders',
        'placeOrder+getOrder',
        '/store/orders: a created item reads back with every field sent',
        ['POST', 'DELETE'],
      ],
      [
        'resource.filter/store/orders',
        'placeOrder+listOrders',
        '/store/orders: every filter keeps exactly the items that match',
        ['POST', 'DELETE'],
      ],
      [
        'resource.delete-gone/store/orders',
        'placeOrder+getOrder+deleteOrder',
        '/store/orders: a deleted item is gone (no use after free)',
        ['POST', 'DELETE'],
      ],
      [
        'resource.unknown-id/store/orders',
        'getOrder',
        "/store/orders: an unknown id gets the document's 404 on every item operation",
        ['DELETE'],
      ],
      [
        'resource.created-readable/pets/photos',
        'addPetPhoto+getPetPhoto',
        '/pets/{petId}/photos: a created item reads back with every field sent',
        ['POST', 'DELETE'],
      ],
      [
        'resource.delete-gone/pets/photos',
        'addPetPhoto+getPetPhoto+deletePetPhoto',
        '/pets/{petId}/photos: a deleted item is gone (no use after free)',
        ['POST', 'DELETE'],
      ],
      [
        'resource.unknown-id/pets/photos',
        'getPetPhoto',
        "/pets/{petId}/photos: an unknown id gets the document's 404 on every item operation",
        ['POST', 'DELETE'],
      ],
    ]);
  });

  it.each(rows)('%s: %s', async (fault, id, requests, failures) => {
    const seen = await runOne(fault === 'none' ? undefined : fault, id);
    expect(seen).toEqual({ requests, failures });
  });
});
