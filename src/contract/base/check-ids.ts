/**
 * Every check the contract suite makes, under an id that stays stable across releases: CI filters, JUnit
 * classnames and the JSON report all carry it. `note` checks report what the target chose and never fail a run.
 */
export const checks = {
  'schema.response': 'a documented 2xx response body matches the schema for its operation and status (AJV, int64 ids)',
  'status.documented': 'every 2xx/3xx status is documented for the operation',
  'content-type.json':
    'a response with a documented JSON body, and every error, is application/json (parameters allowed; not problem+json or another type) and parses',
  'error.shape': 'every 4xx/5xx body is an Error {code, message, status} whose status equals the HTTP status',
  'server.no-5xx': 'no request the suite sends gets a 5xx',
  'server.responds': 'every request gets an HTTP answer within --timeout',
  'response.bounded':
    'every response body is at most --max-body bytes after decompression, nests at most 64 deep and decodes',
  'auth.required': 'no header, a wrong scheme, an empty token and an invalid token each get 401 on every operation',
  'auth.valid-key': 'the valid key is accepted on every operation',
  'input.valid-accepted':
    'boundary-valid inputs are accepted: limit 1 and 100, each status, a NewPet with and without status',
  'input.invalid-rejected':
    'createPet rejects bad bodies with 400 and stores nothing; listPets/getPet reject bad parameters with a 4xx Error or clamp them (never more than 100 items)',
  'list.limit': 'listPets returns at most `limit` pets, and exactly `limit` when the store holds more',
  'list.default-limit': 'listPets without `limit` returns 20 pets when more exist',
  'list.status-filter': 'every pet listed with `status` has that status',
  'list.no-duplicates': 'no id appears twice in one list',
  'create.echo': 'a created pet echoes what was sent plus a new integer id',
  'create.persisted': 'a created pet is returned by getPet unchanged and appears in the list',
  'get.returns-requested': 'getPet returns the pet asked for, as the list shows it',
  'get.not-found': 'getPet answers 404 with an Error for an unknown id',
  'deprecation.headers': 'note: the Deprecation, Sunset and Link headers of the deprecated getPet',
  'coverage.operation-status':
    'which documented operation × status pairs the run exercised; fails with --require-coverage',
  'generated.valid-accepted':
    'generated from the document: every valid request (each parameter and body property over its whole range, scheme case, a charset parameter) is accepted',
  'generated.invalid-rejected':
    'generated from the document: each constraint broken one at a time, a body of the wrong JSON type, no or a wrong Content-Type: createPet answers 400 (a media type problem: 400 or 415) with an Error and stores nothing; a bad listPets/getPet parameter gets a 4xx Error or a clamped list, never a 5xx',
  'generated.auth-rejected':
    'generated credential variants (key with text appended, in another case, truncated, a wrong key of its length, bare, in another header, in the query or a cookie, extra words, other schemes) get 401 with an Error on every operation, also for pets created later',
  'generated.round-trip':
    'a generated valid pet (unicode, control characters and long names, categoryId over the whole int64 range) comes back exactly as sent from createPet and getPet',
  'stateful.get': 'model-based: a pet this run created comes back from getPet equal to its creation',
  'stateful.list':
    'model-based: lists hold at most `limit` (default 20) pets, with and without status; a list shorter than its limit is complete; every pet listed equals its creation and has the status filtered on; no id twice',
  'stateful.unique-ids': 'model-based: every created pet gets a new id, also when creates are sent in parallel',
  'stateful.not-found':
    'model-based: an id not in the store (between two listed ids, 2^63−1, −1, beyond int64) gets a 4xx Error (404 for a positive int64), never a pet or a 5xx',
  'stateful.sequence':
    'model-based: random sequences of every role of every collection (create, list, read, replace, merge or JSON Patch, a PUT that may create, delete; nested under a parent) agree with a model of the items they created; a failure is reported under the resource.* id of the role it broke',
  'resource.created-readable':
    'resource model: a created item reads back by its id with every field sent, and a declared Location names it',
  'resource.self-link':
    "resource model: where the document declares an item's links.self, the create's and the read's answers name the item's own path with it",
  'resource.filter':
    'resource model: every list filter keeps only items that match, and lists a created item under its own value',
  'resource.replace-exact':
    'resource model: a PUT leaves the item exactly as sent (fields left out gone), and the same PUT twice the same',
  'resource.merge-patch':
    'resource model: a merge patch changes what it names, removes what it sets to null and leaves the rest',
  'resource.delete-gone':
    "resource model: a deleted item reads as the document's 404 (no use after free), and so does a second delete; an action on it that declares a 404 gets a 4xx",
  'resource.refused-unchanged': 'resource model: a refused PUT or merge patch leaves the item unchanged',
  'resource.unknown-id':
    "resource model: an id no item has gets the document's 404 on every item operation (or a 201 where a PUT may create), and a 4xx from an action on an item that declares a 404",
  'resource.refused-create':
    'resource model: a create refused for a field of the wrong type gets a declared 4xx and stores nothing (not listed, not read)',
  'resource.unique-ids': 'resource model: every item created gets a new id, also when creates are sent at once',
  'resource.nested-parent':
    "resource model: an item of a nested collection read, replaced, patched or deleted through another parent gets the document's 404, and stays",
  'resource.children-gone':
    "resource model: once a parent is deleted, its children read as the document's 404 and its list of children is a 404 or lists them no more",
  'resource.limit':
    'resource model: every list with a `limit` returns at most `limit` items, exactly `limit` when more exist, and its default without it',
  'resource.create-echo':
    'resource model: a create answers the item with every field sent (create.echo for every create)',
  'resource.json-patch':
    'resource model: an RFC 6902 JSON Patch applies its add, remove and replace operations as written, and one whose test fails gets a declared 4xx',
  'resource.put-create':
    'resource model: a PUT to an id no item has gets an answer the document declares (201 or its 404), and a 201 made the item, readable with what was sent',
  'resource.cleanup':
    'note: at the end of the run, every item it created and did not delete is deleted where the document has a delete; what is left behind (no delete, a refused delete, the cap) is listed. Items the run did not create are never touched',
  'rate-limit.retry': 'note: a 429 (or 503 with Retry-After) was waited out and the request sent again',
  'suite.error': 'the suite itself could not run a case (a bug in petstore-kit, or a request budget spent)',
} as const;

export type CheckId = keyof typeof checks;

export const checkIds = Object.keys(checks) as CheckId[];
