import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { ContractCase } from '../src/contract/engine/run-case.js';
import { collectionOracleCases } from '../src/contract/stateful/collection-oracles.js';
import { resourceOracleCases, type JudgedElsewhere } from '../src/contract/stateful/resource-oracles.js';
import { loadSpec, type Spec } from '../src/openapi/load-spec.js';
import type { ResourceFault } from './targets/resource-petstore.js';
import { startVariantPetstore, variantDocument, type Variant, type VariantFault } from './targets/variant-petstore.js';
import { runOracleAlone, specAt, wordsOn, type OracleWords } from './support/oracle-words.js';

/**
 * The item oracles (src/contract/stateful/resource-oracles.ts) on documents that declare the pets otherwise than
 * v1.1 does (test/targets/variant-petstore.ts): UUID and string ids, no 404 for an unknown id, a PUT that may create,
 * a delete answering 200 with the pet, no Location, no PUT or no PATCH; and with what the fixed v1 cases judge
 * already (JudgedElsewhere). Each case runs alone on a fresh target: the requests it sends with the statuses they got,
 * and each failure's check, expected and actual text. A correct target passes every oracle of its document; each
 * planted fault fails under the oracle that names it.
 */
const KEY = 'variant-oracle-key-5c1d';
const v11 = fileURLToPath(new URL('./fixtures/documents/petstore-v1.1.yaml', import.meta.url));

const NOTHING_ELSE: JudgedElsewhere = { fields: new Map(), filters: new Map() };

/** The item oracles and the collection oracles of a document, none of it judged by the fixed cases. */
function casesOf(spec: Spec): ContractCase[] {
  return [...resourceOracleCases(spec), ...collectionOracleCases(spec, NOTHING_ELSE)];
}

const variantSpecs = new Map<string, Promise<Spec>>();

/** A variant's document, loaded once per test file run (loading compiles its validators). */
function variantSpec(variant: Variant): Promise<Spec> {
  const key = JSON.stringify(variant);
  let spec = variantSpecs.get(key);
  if (!spec) variantSpecs.set(key, (spec = loadSpec(variantDocument(variant))));
  return spec;
}

async function runVariant(variant: Variant, fault: VariantFault | undefined, id: string): Promise<OracleWords> {
  return wordsOn(await startVariantPetstore(KEY, variant, fault), KEY, await variantSpec(variant), casesOf, id);
}

const NO_404: Variant = { notFound: false };
const CONFLICT = '409 application/json {"code":"conflict","message":"conflict","status":409}';
const UNKNOWN_400 = '400 application/json {"code":"unknown","message":"unknown","status":400}';

type Row = [
  name: string,
  variant: Variant,
  fault: VariantFault | 'none',
  id: string,
  requests: string,
  failures: string[][],
  skipped?: string,
];

const rows: Row[] = [
  [
    'uuid ids: an unknown id is a UUID no pet has (the target refuses any other with 400)',
    { ids: 'uuid' },
    'none',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 404, PUT 404',
    [],
  ],
  [
    'uuid ids: a created pet reads back by its UUID',
    { ids: 'uuid' },
    'none',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'uuid ids: a delete of an unknown UUID that succeeds',
    { ids: 'uuid' },
    'unknown-delete-succeeds',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 204, PUT 404',
    [
      [
        'resource.unknown-id',
        '404 for deletePet of id 00000000-0000-4000-8000-00000000dead, which no item has (as the document declares)',
        '204 no Content-Type, empty body',
      ],
    ],
  ],
  [
    'string ids: a delete of an unknown string id that succeeds',
    { ids: 'string' },
    'unknown-delete-succeeds',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 204, PUT 404',
    [
      [
        'resource.unknown-id',
        '404 for deletePet of id words-unknown, which no item has (as the document declares)',
        '204 no Content-Type, empty body',
      ],
    ],
  ],
  [
    'string ids: a deleted pet is gone by its string id',
    { ids: 'string' },
    'none',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 404, GET 200, DELETE 404',
    [],
  ],
  [
    'no 404 declared: any 4xx for a deleted pet (410 here), the second delete not judged',
    NO_404,
    'none',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 410, GET 200, DELETE 410',
    [],
  ],
  [
    'no 404 declared: a deleted pet still read',
    NO_404,
    'delete-keeps',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 200, GET 200, DELETE 204',
    [
      [
        'resource.delete-gone',
        'a 4xx for the read of the deleted item (it was still there: use after free)',
        '200 application/json {"name":"contract-words-deleted-name","categoryId":1,"status":"available","tag":"contract-words-deleted-tag","id":3}',
      ],
      [
        'resource.delete-gone',
        'the deleted id 3 listed no more',
        'still listed: {"name":"contract-words-deleted-name","categoryId":1,"status…(116 characters)',
      ],
    ],
  ],
  [
    'no 404 declared: a deleted pet answered 500, no 4xx (server.no-5xx says so too)',
    NO_404,
    'gone-is-500',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 500, GET 200, DELETE 500',
    [
      [
        'server.no-5xx',
        'no 5xx for any request the suite sends',
        '500 application/json {"code":"internal","message":"internal","status":500}',
      ],
      [
        'resource.delete-gone',
        'a 4xx for the read of the deleted item (it was still there: use after free)',
        '500 application/json {"code":"internal","message":"internal","status":500}',
      ],
      [
        'server.no-5xx',
        'no 5xx for any request the suite sends',
        '500 application/json {"code":"internal","message":"internal","status":500}',
      ],
    ],
  ],
  [
    'a deleted pet answered 410 where the document declares 404',
    {},
    'deleted-is-410',
    'resource.delete-gone/pets',
    'POST 201, DELETE 204, GET 410, GET 200, DELETE 410',
    [
      [
        'resource.delete-gone',
        '404 for the read of the deleted item (it was still there: use after free)',
        '410 application/json {"code":"gone","message":"gone","status":410}',
      ],
      [
        'resource.delete-gone',
        '404 for a second delete, as the document declares',
        '410 application/json {"code":"gone","message":"gone","status":410}',
      ],
    ],
  ],
  [
    'a delete refused: nothing after it is judged (the clean-up tries again)',
    {},
    'delete-refused',
    'resource.delete-gone/pets',
    'POST 201, DELETE 409, DELETE 409',
    [
      [
        'resource.delete-gone',
        'a 2xx to the delete of an item just created',
        '409 application/json {"code":"conflict","message":"conflict","status":409}',
      ],
    ],
  ],
  [
    'a create declaring another header than Location: no Location is judged',
    { createHeaders: ['X-Request-Id'] },
    'location-missing',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a create answered with a declared 200 that declares no Location: none is judged (only a 201 names the new item)',
    { create200: true },
    'create-answers-200',
    'resource.created-readable/pets',
    'POST 200, GET 200, DELETE 204',
    [],
  ],
  [
    'a created pet not read back: the status is the difference',
    {},
    'created-unreadable',
    'resource.created-readable/pets',
    'POST 201, GET 404, DELETE 204',
    [['resource.created-readable', 'getPet of the created id 3: every field as sent', 'status 404']],
  ],
  [
    'a filter that leaves the new pet out: its own value does not list it',
    {},
    'filter-misses-new',
    'resource.filter/pets',
    'POST 201, POST 201, POST 201, POST 201, GET 200, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [
      [
        'resource.filter',
        'the created id 3 listed under tag=words-f1 (a list shorter than its limit is complete)',
        '0 items, not it',
      ],
    ],
  ],
  [
    'a valid PUT refused: nothing after it is judged',
    {},
    'put-refused',
    'resource.replace-exact/pets',
    'POST 201, PUT 409, DELETE 204',
    [['resource.replace-exact', 'a 2xx to a valid replacePet', CONFLICT]],
  ],
  [
    'a PUT that is not idempotent: the second changes the pet again',
    {},
    'put-not-idempotent',
    'resource.replace-exact/pets',
    'POST 201, PUT 200, GET 200, PUT 200, GET 200, DELETE 204',
    [
      [
        'resource.replace-exact',
        'the same item after the same PUT again (RFC 9110 §9.2.2: idempotent)',
        'name "contract-words-replacement-name (again)" instead of "contract-words-replacement-name"',
      ],
    ],
  ],
  [
    'a valid merge patch refused: nothing after it is judged',
    {},
    'patch-refused',
    'resource.merge-patch/pets',
    'POST 201, PATCH 409, DELETE 204',
    [
      [
        'resource.merge-patch',
        'a 2xx to a valid merge patch {"status":null,"name":"contract-words-merged-namm"}',
        CONFLICT,
      ],
    ],
  ],
  [
    'a PUT that may create, answered 400 for an unknown id: neither declared answer',
    { ids: 'uuid', putCreates: true },
    'unknown-put-400',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 404, PUT 400',
    [
      [
        'resource.unknown-id',
        '404 or 201 for replacePet of id 00000000-0000-4000-8000-00000000dead, which no item has (as the document declares)',
        UNKNOWN_400,
      ],
    ],
  ],
  [
    'a PUT answered 400 for an unknown id, where only 404 is declared',
    {},
    'unknown-put-400',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 404, PUT 400',
    [
      [
        'resource.unknown-id',
        '404 for replacePet of id 9223372036854775807, which no item has (as the document declares)',
        UNKNOWN_400,
      ],
    ],
  ],
  [
    'a delete refused with the 409 it declares: not run, no failure (the document lets the target refuse)',
    { deleteConflict: true },
    'delete-refused',
    'resource.delete-gone/pets',
    'POST 201, DELETE 409, DELETE 409',
    [],
    'notRun: deletePet answered 409, a refusal it declares: nothing left to judge',
  ],
  [
    'a PUT that may create: 201 allowed for the unknown id, which is then cleaned up',
    { ids: 'uuid', putCreates: true },
    'none',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 404, PUT 201, DELETE 204',
    [],
  ],
  [
    'a PUT that creates where the document declares no 201',
    { ids: 'uuid' },
    'put-creates-undeclared',
    'resource.unknown-id/pets',
    'GET 404, PATCH 404, DELETE 404, PUT 201, DELETE 204',
    [
      ['status.documented', 'a status documented for replacePet', 'status 201 is not documented for replacePet'],
      [
        'resource.unknown-id',
        '404 for replacePet of id 00000000-0000-4000-8000-00000000dead, which no item has (as the document declares)',
        '201 application/json {"name":"contract-words-unknown-replace-name","categoryId":1,"status":"available","tag":"contract-words-unknown-replace-tag","id":"00000000-0000-4000-8000-00000…',
      ],
    ],
  ],
  [
    'an absolute Location with a query names the created pet',
    { ids: 'uuid' },
    'none',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a created pet without the Location its 201 declares',
    {},
    'location-missing',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [
      [
        'resource.created-readable',
        'a Location naming the new item (/v1/pets/3), as createPet declares',
        'no Location',
      ],
    ],
  ],
  [
    'no Location declared: none is judged',
    { location: false },
    'location-missing',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a delete answering 200 with the pet',
    { deleteAnswersPet: true },
    'none',
    'resource.delete-gone/pets',
    'POST 201, DELETE 200, GET 404, GET 200, DELETE 404',
    [],
  ],
  [
    'a refused merge patch that stores its valid fields',
    {},
    'refused-patch-applies',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 400, GET 200, PATCH 400, GET 200, DELETE 204',
    [['resource.refused-unchanged', 'the item unchanged after the refused updatePet', 'categoryId 3 instead of 1']],
  ],
  [
    'no PUT: only the merge patch is refused',
    { without: ['replace'] },
    'refused-patch-applies',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PATCH 400, GET 200, DELETE 204',
    [['resource.refused-unchanged', 'the item unchanged after the refused updatePet', 'categoryId 3 instead of 1']],
  ],
  [
    'no PATCH: only the PUT is refused',
    { without: ['merge'] },
    'none',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 400, GET 200, DELETE 204',
    [],
  ],
  [
    'an invalid PUT accepted: that says so, and the PATCH after it is judged against the item as it then is',
    {},
    'invalid-put-accepted',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 200, GET 200, PATCH 400, GET 200, DELETE 204',
    [
      [
        'resource.refused-unchanged',
        'a 4xx to {"name":12345,"categoryId":2,"status":"pending","tag":"contr…(87 characters), whose name breaks the schema',
        '200 application/json {"name":"12345","categoryId":2,"status":"pending","tag":"contract-words-refused-put-tag","id":3}',
      ],
    ],
  ],
  [
    'only tag may be null: the patch removes tag and changes name (a patch ignored says so)',
    { patchNullable: ['tag'] },
    'patch-ignored',
    'resource.merge-patch/pets',
    'POST 201, PATCH 200, GET 200, DELETE 204',
    [
      [
        'resource.merge-patch',
        'the item with {"tag":null,"name":"contract-words-merged-namm"} merged into it',
        'tag "contract-words-merged-tag" still there (a null in a merge patch removes it)',
      ],
    ],
  ],
  [
    'nothing may be null: the patch only changes name',
    { patchNullable: [] },
    'patch-ignored',
    'resource.merge-patch/pets',
    'POST 201, PATCH 200, GET 200, DELETE 204',
    [
      [
        'resource.merge-patch',
        'the item with {"name":"contract-words-merged-namm"} merged into it',
        'name "contract-words-merged-name" instead of "contract-words-merged-namm"',
      ],
    ],
  ],
  [
    'a refused create answered with a 4xx the create does not declare',
    { createRefusals: ['400', '422'] },
    'refused-create-409',
    'resource.refused-create/pets',
    'POST 409',
    [
      [
        'resource.refused-create',
        'a 4xx createPet declares, for name of the wrong type (12345)',
        '409 application/json {"code":"body.name must be a string","message":"body.name must be a string","status":409}',
      ],
    ],
  ],
  [
    'a refused create answered with the 422 declared',
    { createRefusals: ['422'] },
    'none',
    'resource.refused-create/pets',
    'POST 422, GET 200, POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a create declaring 4XX: any 4xx refuses',
    { createRefusals: ['4XX', '422'] },
    'refused-create-409',
    'resource.refused-create/pets',
    'POST 409, GET 200, POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a create declaring no refusal: any 4xx refuses',
    { createRefusals: [] },
    'refused-create-409',
    'resource.refused-create/pets',
    'POST 409, GET 200, POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a PUT with an invalid body answered 500, no 4xx (server.no-5xx says so too)',
    {},
    'refused-put-500',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 500, GET 200, PATCH 400, GET 200, DELETE 204',
    [
      [
        'server.no-5xx',
        'no 5xx for any request the suite sends',
        '500 application/json {"code":"internal","message":"internal","status":500}',
      ],
      [
        'resource.refused-unchanged',
        'a 4xx to {"name":12345,"categoryId":2,"status":"pending","tag":"contr…(87 characters), whose name breaks the schema',
        '500 application/json {"code":"internal","message":"internal","status":500}',
      ],
    ],
  ],
  [
    'a PATCH taking JSON Patch only: no merge patch is sent for an unknown id',
    { patchMediaType: 'application/json-patch+json' },
    'none',
    'resource.unknown-id/pets',
    'GET 404, DELETE 404, PUT 404',
    [],
  ],
  [
    'a PATCH taking JSON Patch only: no merge patch refused either',
    { patchMediaType: 'application/json-patch+json' },
    'none',
    'resource.refused-unchanged/pets',
    'POST 201, GET 200, PUT 400, GET 200, DELETE 204',
    [],
  ],
  [
    'int64 ids given twice: every create after the first names the one that had it (in the order sent)',
    {},
    'ids-repeat',
    'resource.unique-ids/pets',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, DELETE 204, DELETE 404, DELETE 404, DELETE 404, DELETE 404, DELETE 404, DELETE 404',
    [
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id 3, already given to the first item',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id 3, already given to parallel create 1',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id 3, already given to parallel create 2',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id 3, already given to parallel create 3',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id 3, already given to parallel create 4',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id 3, already given to parallel create 5',
      ],
    ],
  ],
  [
    'string ids given twice',
    { ids: 'string' },
    'ids-repeat',
    'resource.unique-ids/pets',
    'POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, POST 201, DELETE 204, DELETE 404, DELETE 404, DELETE 404, DELETE 404, DELETE 404, DELETE 404',
    [
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id pet-3, already given to the first item',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id pet-3, already given to parallel create 1',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id pet-3, already given to parallel create 2',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id pet-3, already given to parallel create 3',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id pet-3, already given to parallel create 4',
      ],
      [
        'resource.unique-ids',
        'a new id for every item created (6 creates sent at once)',
        'id pet-3, already given to parallel create 5',
      ],
    ],
  ],
  [
    'uuid ids: no id below the next to read after a refused create',
    { ids: 'uuid' },
    'none',
    'resource.refused-create/pets',
    'POST 400, GET 200',
    [],
  ],
];

const VARIANTS: [string, Variant][] = [
  ['uuid ids', { ids: 'uuid' }],
  ['string ids', { ids: 'string' }],
  ['no 404 declared', NO_404],
  ['a PUT that may create', { ids: 'uuid', putCreates: true }],
  ['a delete answering the pet, no Location', { deleteAnswersPet: true, location: false }],
  ['no PUT', { without: ['replace'] }],
  ['no PATCH', { without: ['merge'] }],
];

/** The oracles of a variant's pets, as the list test below holds them (written out: no oracle code runs to list them). */
function oraclesOf(variant: Variant): string[] {
  return [
    'resource.created-readable',
    'resource.filter',
    ...(variant.without?.includes('replace') ? [] : ['resource.replace-exact']),
    ...(variant.without?.includes('merge') ? [] : ['resource.merge-patch']),
    'resource.delete-gone',
    'resource.refused-unchanged',
    ...(variant.notFound === false ? [] : ['resource.unknown-id']),
    'resource.refused-create',
    'resource.unique-ids',
    'resource.limit',
    'resource.create-echo',
  ].map((check) => `${check}/pets`);
}

// One row per oracle of each document (a mutation run then runs, for a mutant, only the rows of its oracle).
const correctRows = VARIANTS.flatMap(([name, variant]) =>
  oraclesOf(variant).map((id): [string, string, Variant] => [name, id, variant]),
);

describe('the item oracles on other documents of the pets', () => {
  it.each(correctRows)('a correct target passes %s: %s', async (_, id, variant) => {
    expect(await runVariant(variant, undefined, id)).toMatchObject({ failures: [] });
  });

  it.each(VARIANTS)('list the oracles its document has roles and answers for: %s', async (_, variant) => {
    // Without a declared 404, no oracle judges an unknown id; without a PUT or a PATCH, none judges it.
    expect(casesOf(await variantSpec(variant)).map((c) => c.id)).toEqual(oraclesOf(variant));
  });

  it.each(rows)('%s', async (_, variant, fault, id, requests, failures, skipped) => {
    const words = await runVariant(variant, fault === 'none' ? undefined : fault, id);
    expect(words).toEqual({ requests, failures, skipped });
  });

  it('list no refused-update oracle for a document with neither PUT nor PATCH', async () => {
    const ids = resourceOracleCases(await variantSpec({ without: ['replace', 'merge'] })).map((c) => c.id);
    expect(ids).toEqual([
      'resource.created-readable/pets',
      'resource.filter/pets',
      'resource.delete-gone/pets',
      'resource.unknown-id/pets',
    ]);
  });
});

/** What the fixed v1 cases judge (contract-cases.ts hands the oracles the same): the oracles leave it to them. */
const V1_JUDGED: JudgedElsewhere = {
  fields: new Map([['createPet', ['name', 'categoryId', 'status']]]),
  filters: new Map([['listPets', ['status']]]),
  operations: ['getPet'],
};

type ElsewhereRow = [
  name: string,
  elsewhere: JudgedElsewhere,
  fault: ResourceFault,
  id: string,
  requests: string,
  failures: string[][],
];

const elsewhereRows: ElsewhereRow[] = [
  [
    'a field judged elsewhere is left out of the read-back (tag dropped passes when tag is judged elsewhere)',
    { ...V1_JUDGED, fields: new Map([['createPet', ['name', 'categoryId', 'tag']]]) },
    'drops-tag',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [],
  ],
  [
    'a filter judged elsewhere is not tried again (only tag is)',
    V1_JUDGED,
    'ignores-filter',
    'resource.filter/pets',
    'POST 201, POST 201, POST 201, POST 201, GET 200, DELETE 204, DELETE 204, DELETE 204, DELETE 204',
    [['resource.filter', 'every item listed with tag=words-f1 has tag "words-f1"', 'an item with tag "seed-a"']],
  ],
  [
    'an operation whose unknown id is judged elsewhere is not sent one',
    { ...V1_JUDGED, operations: ['getPet', 'deletePet'] },
    'unknown-delete-succeeds',
    'resource.unknown-id/pets',
    'PATCH 404, PUT 404',
    [],
  ],
  [
    'a Location that names the next id',
    V1_JUDGED,
    'wrong-location',
    'resource.created-readable/pets',
    'POST 201, GET 200, DELETE 204',
    [
      [
        'resource.created-readable',
        'a Location naming the new item (/v1/pets/4), as createPet declares',
        'Location "/v1/pets/5", which resolves to /v1/pets/5',
      ],
    ],
  ],
];

describe('the item oracles beside the fixed v1 cases', () => {
  it.each(elsewhereRows)('%s', async (_, elsewhere, fault, id, requests, failures) => {
    const seen = await runOracleAlone(KEY, v11, (spec) => resourceOracleCases(spec, elsewhere), fault, id);
    expect(seen).toEqual({ requests, failures });
  });

  it('list no merge patch oracle where the PATCH takes JSON Patch only', async () => {
    const ids = casesOf(await variantSpec({ patchMediaType: 'application/json-patch+json' })).map((c) => c.id);
    expect(ids).not.toContain('resource.merge-patch/pets');
    expect(ids).toContain('resource.refused-unchanged/pets');
  });

  it('are not listed where the fixed cases judge all they would', async () => {
    const spec = await specAt(v11);
    const everything: JudgedElsewhere = {
      fields: new Map([['createPet', ['name', 'categoryId', 'status', 'tag']]]),
      filters: new Map([['listPets', ['status', 'tag']]]),
      operations: ['getPet', 'replacePet', 'updatePet', 'deletePet', 'getOrder', 'deleteOrder'],
    };
    expect(resourceOracleCases(spec, everything).map((c) => c.id)).toEqual([
      'resource.replace-exact/pets',
      'resource.merge-patch/pets',
      'resource.delete-gone/pets',
      'resource.refused-unchanged/pets',
      'resource.created-readable/store/orders',
      'resource.filter/store/orders',
      'resource.delete-gone/store/orders',
      'resource.created-readable/pets/photos',
      'resource.delete-gone/pets/photos',
      'resource.unknown-id/pets/photos',
    ]);
    // One operation left to it is enough for the unknown-id oracle; one field of the create for the read-back.
    const partly: JudgedElsewhere = { ...everything, operations: ['getPet', 'replacePet', 'deletePet'] };
    expect(resourceOracleCases(spec, partly).map((c) => c.id)).toContain('resource.unknown-id/pets');
    expect(
      resourceOracleCases(spec, { ...everything, fields: new Map([['createPet', ['name', 'status', 'tag']]]) }).map(
        (c) => c.id,
      ),
    ).toContain('resource.created-readable/pets');
  });

  it('list no collection oracle the fixed cases judge already', async () => {
    const spec = await specAt(v11);
    const judged: JudgedElsewhere = {
      fields: new Map([
        ['createPet', ['name', 'categoryId', 'status', 'tag']],
        ['addPetPhoto', ['url']],
      ]),
      filters: new Map(),
      uniqueIds: ['createPet', 'addPetPhoto'],
      limits: ['listPets', 'listPetPhotos'],
    };
    // Photos: caption is judged nowhere else, so a refused create and the echo still are.
    expect(collectionOracleCases(spec, judged).map((c) => c.id)).toEqual([
      'resource.refused-create/store/orders',
      'resource.unique-ids/store/orders',
      'resource.create-echo/store/orders',
      'resource.refused-create/pets/photos',
      'resource.nested-parent/pets/photos',
      'resource.children-gone/pets/photos',
      'resource.create-echo/pets/photos',
    ]);
  });
});
