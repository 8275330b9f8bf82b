import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { contractCases } from '../src/contract/run/contract-cases.js';
import { createMockServer } from '../src/mock/http/server.js';
import { specAt, wordsOn } from './support/oracle-words.js';

/**
 * Which resource and collection oracles a document gets, and what each sends, on documents shaped unlike the pets
 * (test/fixtures/documents/oracle-shapes.yaml): a read-only collection, one without an item path, one nested under a
 * parent the runner cannot create, one two levels down, a nested one without a read. Those get no case (nothing to
 * create, or no parent to create it under); the others each run against the mock on that document, which passes
 * them, and send exactly the requests their collection's roles allow. A mutation run (`npm run mutation`) kills on
 * these the skips the v1.1 and v1.2 documents never reach.
 */
const KEY = 'oracle-listing-key-3e9b';
const shapes = fileURLToPath(new URL('./fixtures/documents/oracle-shapes.yaml', import.meta.url));
const v12 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.2.yaml', import.meta.url));

/** `request`, `count` times, as a words row writes them. */
function times(request: string, count: number): string {
  return Array.from({ length: count }, () => request).join(', ');
}

async function listing(document: string): Promise<[string, string, string[]][]> {
  return contractCases(await specAt(document))
    .filter((c) => c.check.startsWith('resource.'))
    .map((c) => [c.id, c.operation, c.writes ? (c.writeMethods ?? []) : ['reads only']]);
}

const WRITES = ['POST', 'DELETE'];

/** Every resource.* case of the shapes document, with the requests it sends to the mock (which passes each). */
const SHAPES: [id: string, operation: string, writes: string[], requests: string, skipped?: string][] = [
  ['resource.created-readable/kennels', 'addKennel+getKennel', WRITES, 'POST 201, GET 200, DELETE 204'],
  // An integer filter: the value sent, as text in the query, keeps the kennel listed.
  ['resource.filter/kennels', 'addKennel+listKennels', WRITES, 'POST 201, GET 200, DELETE 204'],
  // The merge patch's name has a pattern the changed name would break: only the null is sent.
  [
    'resource.merge-patch/kennels',
    'addKennel+getKennel+patchKennel',
    ['POST', 'PATCH', 'DELETE'],
    'POST 201, PATCH 200, GET 200, DELETE 204',
  ],
  [
    'resource.delete-gone/kennels',
    'addKennel+getKennel+deleteKennel',
    WRITES,
    'POST 201, DELETE 204, GET 404, GET 200, DELETE 404',
  ],
  [
    'resource.refused-unchanged/kennels',
    'addKennel+getKennel',
    ['POST', 'PATCH', 'DELETE'],
    'POST 201, GET 200, PATCH 400, GET 200, DELETE 204',
  ],
  ['resource.unknown-id/kennels', 'getKennel', ['PATCH', 'DELETE'], 'GET 404, PATCH 404, DELETE 404'],
  // Switches have no delete: what a case creates stays (the report lists it), and nothing is sent to remove it.
  // Their list takes no page parameter: three more made and read back, then one list shows all four (created-listed.ts).
  [
    'resource.created-readable/switches',
    'addSwitch+getSwitch',
    ['POST'],
    'POST 201, GET 200, POST 201, GET 200, POST 201, GET 200, POST 201, GET 200, GET 200',
  ],
  // A boolean filter: true, as text in the query.
  ['resource.filter/switches', 'addSwitch+listSwitches', ['POST'], 'POST 201, GET 200'],
  [
    'resource.replace-exact/switches',
    'addSwitch+getSwitch+replaceSwitch',
    ['POST', 'PUT'],
    'POST 201, PUT 200, GET 200, PUT 200, GET 200',
  ],
  // A merge patch with no nullable field and no string: nothing to remove or change, so nothing is sent.
  [
    'resource.merge-patch/switches',
    'addSwitch+getSwitch+setSwitch',
    ['POST', 'PATCH'],
    '',
    'skipped: no field the patch could remove or change',
  ],
  // A PUT and a patch with no string field: nothing this oracle can break, so nothing is sent (not even a create).
  [
    'resource.refused-unchanged/switches',
    'addSwitch+getSwitch',
    ['POST', 'PUT', 'PATCH'],
    '',
    'skipped: /switches: no update this oracle can break',
  ],
  ['resource.created-readable/crates', 'addCrate+getCrate', WRITES, 'POST 201, GET 200, DELETE 204'],
  [
    'resource.delete-gone/crates',
    'addCrate+getCrate+deleteCrate',
    WRITES,
    'POST 201, DELETE 204, GET 404, GET 200, DELETE 404',
  ],
  // Tokens: a read and a delete, no list, no 404 declared: any 4xx once deleted, nothing listed, the second delete
  // sent and not judged.
  ['resource.created-readable/tokens', 'addToken+getToken', WRITES, 'POST 201, GET 200, DELETE 204'],
  ['resource.delete-gone/tokens', 'addToken+getToken+deleteToken', WRITES, 'POST 201, DELETE 204, GET 404, DELETE 404'],
  ['resource.created-readable/kennels/bowls', 'addBowl+getBowl', WRITES, 'POST 201, POST 201, GET 200, DELETE 204'],
  ['resource.unknown-id/kennels/bowls', 'getBowl', WRITES, 'POST 201, GET 404, DELETE 204'],
  ['resource.refused-create/kennels', 'addKennel', WRITES, 'POST 400, GET 200, POST 201, DELETE 204'],
  ['resource.unique-ids/kennels', 'addKennel', WRITES, `${times('POST 201', 7)}, ${times('DELETE 204', 7)}`],
  [
    'resource.limit/kennels',
    'addKennel',
    WRITES,
    `${times('POST 201', 11)}, GET 200, GET 200, ${times('DELETE 204', 11)}`,
  ],
  ['resource.create-echo/kennels', 'addKennel', WRITES, 'POST 201, DELETE 204'],
  [
    'resource.refused-create/switches',
    'addSwitch',
    ['POST'],
    '',
    'skipped: addSwitch: no field to break and none to recognise a stored item by',
  ],
  ['resource.unique-ids/switches', 'addSwitch', ['POST'], times('POST 201', 7)],
  ['resource.create-echo/switches', 'addSwitch', ['POST'], 'POST 201'],
  ['resource.refused-create/crates', 'addCrate', WRITES, 'POST 400, GET 200, POST 201, DELETE 204'],
  ['resource.unique-ids/crates', 'addCrate', WRITES, `${times('POST 201', 7)}, ${times('DELETE 204', 7)}`],
  // A default of 30 and no maximum: 21 created (the most it makes), limit=1, then at most 30 without limit.
  [
    'resource.limit/crates',
    'addCrate',
    WRITES,
    `${times('POST 201', 21)}, GET 200, GET 200, ${times('DELETE 204', 21)}`,
  ],
  ['resource.create-echo/crates', 'addCrate', WRITES, 'POST 201, DELETE 204'],
  ['resource.refused-create/tokens', 'addToken', WRITES, 'POST 400, POST 201, DELETE 204'],
  ['resource.unique-ids/tokens', 'addToken', WRITES, `${times('POST 201', 7)}, ${times('DELETE 204', 7)}`],
  ['resource.create-echo/tokens', 'addToken', WRITES, 'POST 201, DELETE 204'],
  // addBowl declares no refusal: any 4xx is one. Bowls have no delete: only the parent kennel is deleted.
  ['resource.refused-create/kennels/bowls', 'addBowl', WRITES, 'POST 201, POST 400, POST 201, DELETE 204'],
  ['resource.unique-ids/kennels/bowls', 'addBowl', WRITES, `${times('POST 201', 8)}, DELETE 204`],
  [
    'resource.nested-parent/kennels/bowls',
    'addBowl',
    WRITES,
    'POST 201, POST 201, POST 201, GET 404, GET 200, DELETE 204, DELETE 204',
  ],
  ['resource.children-gone/kennels/bowls', 'addBowl', WRITES, 'POST 201, POST 201, DELETE 204, GET 404'],
  ['resource.create-echo/kennels/bowls', 'addBowl', WRITES, 'POST 201, POST 201, DELETE 204'],
  // Tags have a delete and no read: through another parent only the delete is tried, and nothing reads one back.
  ['resource.refused-create/kennels/tags', 'addTag', WRITES, 'POST 201, POST 400, DELETE 204'],
  ['resource.unique-ids/kennels/tags', 'addTag', WRITES, `${times('POST 201', 8)}, ${times('DELETE 204', 8)}`],
  [
    'resource.nested-parent/kennels/tags',
    'addTag',
    WRITES,
    'POST 201, POST 201, POST 201, DELETE 404, DELETE 204, DELETE 204, DELETE 204',
  ],
  ['resource.create-echo/kennels/tags', 'addTag', WRITES, 'POST 201, POST 201, DELETE 204, DELETE 204'],
];

describe('the resource and collection oracles a document gets', () => {
  it('none for a collection without a create, an item path or a parent the runner can create', async () => {
    expect(await listing(shapes)).toEqual(SHAPES.map(([id, operation, writes]) => [id, operation, writes]));
  });

  it('list every item method a nested collection has among the writes of resource.nested-parent', async () => {
    expect((await listing(v12)).filter(([id]) => id.startsWith('resource.nested-parent/'))).toEqual([
      ['resource.nested-parent/pets/photos', 'addPetPhoto', ['POST', 'DELETE', 'PUT', 'PATCH']],
    ]);
  });

  it('a filtered list as long as its limit may leave the created item out: nothing is judged of its absence', async () => {
    const mock = await createMockServer({ apiKeys: [KEY], spec: shapes });
    // Ten kennels of the same size before the case: its filtered page (limit=10, oldest first) holds those ten.
    for (let i = 0; i < 10; i++) {
      const made = await fetch(`${mock.url}/kennels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `earlier-${i}`, size: 1 }),
      });
      expect(made.status).toBe(201);
    }
    expect(await wordsOn(mock, KEY, await specAt(shapes), contractCases, 'resource.filter/kennels')).toEqual({
      requests: 'POST 201, GET 200, DELETE 204',
      failures: [],
    });
  });

  it.each(SHAPES)('%s sends what its collection allows, and the mock passes it', async (id, ...row) => {
    const [, , requests, skipped] = row;
    const mock = await createMockServer({ apiKeys: [KEY], spec: shapes });
    expect(await wordsOn(mock, KEY, await specAt(shapes), contractCases, id)).toEqual({
      requests,
      failures: [],
      skipped,
    });
  });
});
