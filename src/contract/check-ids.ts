/**
 * Every check the contract suite makes, under an id that stays stable across releases: CI filters, JUnit
 * classnames and the JSON report all carry it. `note` checks report what the target chose and never fail a run.
 */
export const checks = {
  'schema.response': 'a documented 2xx response body matches the schema for its operation and status (AJV, int64 ids)',
  'status.documented': 'every 2xx/3xx status is documented for the operation',
  'content-type.json': 'a response with a documented JSON body, and every error, is application/json and parses',
  'error.shape': 'every 4xx/5xx body is an Error {code, message, status} whose status equals the HTTP status',
  'server.no-5xx': 'no request the suite sends gets a 5xx',
  'server.responds': 'every request gets an HTTP answer within --timeout',
  'response.bounded': 'every response body is at most --max-body bytes after decompression, nests at most 64 deep and decodes',
  'auth.required': 'no header, a wrong scheme, an empty token and an invalid token each get 401 on every operation',
  'auth.valid-key': 'the valid key is accepted on every operation',
  'input.valid-accepted': 'boundary-valid inputs are accepted: limit 1 and 100, each status, a NewPet with and without status',
  'input.invalid-rejected': 'createPet rejects bad bodies with 400 and stores nothing; listPets/getPet reject bad parameters with a 4xx Error or clamp them (never more than 100 items)',
  'list.limit': 'listPets returns at most `limit` pets, and exactly `limit` when the store holds more',
  'list.default-limit': 'listPets without `limit` returns 20 pets when more exist',
  'list.status-filter': 'every pet listed with `status` has that status',
  'create.echo': 'a created pet echoes what was sent plus a new integer id',
  'create.persisted': 'a created pet is returned by getPet unchanged and appears in the list',
  'get.returns-requested': 'getPet returns the pet asked for, as the list shows it',
  'get.not-found': 'getPet answers 404 with an Error for an unknown id',
  'deprecation.headers': 'note: the Deprecation, Sunset and Link headers of the deprecated getPet',
  'coverage.operation-status': 'which documented operation × status pairs the run exercised; fails with --require-coverage',
  'suite.error': 'the suite itself could not run a case (a bug in petstore-kit, or a request budget spent)',
} as const;

export type CheckId = keyof typeof checks;

export const checkIds = Object.keys(checks) as CheckId[];
