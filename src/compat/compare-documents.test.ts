import { beforeAll, describe, expect, it } from 'vitest';
import { defaultSpecFile } from '../paths.js';
import { checkIds, checks, type CheckId, type Level } from './check-ids.js';
import { compareDocuments } from './compare-documents.js';
import { follow } from './json-pointer.js';
import { loadDocument, type LoadedDocument } from './load-document.js';
import { buildCompatReport } from './report/compat-report.js';
import type { Finding } from './finding.js';

type Doc = any;
type Verdict = Level | 'none';

/**
 * The corpus: each pair is this project's openapi.yaml (OLD, optionally edited first by `before`) and the same
 * document with one change (`after`), with the verdict (the highest level found, `none` for no finding) and the
 * check ids a client of OLD must be told about. NEW is made by editing the parsed OLD here, not by a file per pair.
 */
interface Pair {
  before?: (doc: Doc) => void;
  after: (doc: Doc) => void;
  verdict: Verdict;
  checks: CheckId[];
  date?: string;
}

const schemas = (doc: Doc) => doc.components.schemas;
const listPets = (doc: Doc) => doc.paths['/pets'].get;
const createPet = (doc: Doc) => doc.paths['/pets'].post;
const getPet = (doc: Doc) => doc.paths['/pets/{petId}'].get;
const limit = (doc: Doc) => listPets(doc).parameters[0];
const petId = (doc: Doc) => getPet(doc).parameters[0];
const petProperties = (doc: Doc) => schemas(doc).Pet.allOf[1].properties;
const apiKeyScheme = (doc: Doc) =>
  (doc.components.securitySchemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key' });
const tagsParameter = (extra: object) => (doc: Doc) =>
  listPets(doc).parameters.push({
    name: 'tags',
    in: 'query',
    schema: { type: 'array', items: { type: 'string' }, ...extra },
  });

const corpus: [string, Pair][] = [
  // Operations and paths.
  [
    'listPets removed',
    { after: (d) => delete d.paths['/pets'].get, verdict: 'breaking', checks: ['operation.removed'] },
  ],
  [
    'createPet removed',
    { after: (d) => delete d.paths['/pets'].post, verdict: 'breaking', checks: ['operation.removed'] },
  ],
  [
    'getPet removed before its sunset',
    {
      after: (d) => delete d.paths['/pets/{petId}'],
      verdict: 'breaking',
      checks: ['operation.removed-before-sunset'],
      date: '2026-11-26',
    },
  ],
  [
    'getPet removed the day before its sunset',
    {
      after: (d) => delete d.paths['/pets/{petId}'],
      verdict: 'breaking',
      checks: ['operation.removed-before-sunset'],
      date: '2030-12-04',
    },
  ],
  [
    'getPet removed on its sunset day',
    {
      after: (d) => delete d.paths['/pets/{petId}'],
      verdict: 'info',
      checks: ['operation.removed-after-sunset'],
      date: '2030-12-05',
    },
  ],
  [
    'getPet removed after its sunset',
    {
      after: (d) => delete d.paths['/pets/{petId}'],
      verdict: 'info',
      checks: ['operation.removed-after-sunset'],
      date: '2031-06-01',
    },
  ],
  [
    'getPet removed, deprecated without a sunset',
    {
      before: (d) => delete getPet(d)['x-sunset'],
      after: (d) => delete d.paths['/pets/{petId}'],
      verdict: 'breaking',
      checks: ['operation.removed-before-sunset'],
      date: '2031-06-01',
    },
  ],
  [
    '/pets renamed /animals',
    {
      after: (d) => {
        d.paths['/animals'] = d.paths['/pets'];
        delete d.paths['/pets'];
      },
      verdict: 'breaking',
      checks: ['operation.path-changed'],
    },
  ],
  [
    'createPet moved from POST to PUT',
    {
      after: (d) => {
        d.paths['/pets'].put = createPet(d);
        delete d.paths['/pets'].post;
      },
      verdict: 'breaking',
      checks: ['operation.path-changed'],
    },
  ],
  [
    'the base path /v1 → /v2',
    {
      after: (d) => (d.servers[0].variables.base_url.default = 'https://petstore.example.com/v2'),
      verdict: 'breaking',
      checks: ['server.base-path-changed'],
    },
  ],
  [
    'a server host changed, the base path kept',
    {
      after: (d) => (d.servers[0].variables.base_url.default = 'https://api.example.org/v1'),
      verdict: 'none',
      checks: [],
    },
  ],
  [
    'an operation added',
    {
      after: (d) =>
        (d.paths['/pets/{petId}'].delete = {
          operationId: 'deletePet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '204': { description: 'gone' } },
        }),
      verdict: 'info',
      checks: ['operation.added'],
    },
  ],
  [
    'getPet no longer deprecated',
    {
      after: (d) => {
        delete getPet(d).deprecated;
        delete getPet(d)['x-sunset'];
      },
      verdict: 'info',
      checks: ['operation.reactivated'],
    },
  ],
  // Lifecycle of operations that stay.
  [
    'listPets deprecated with a distant sunset',
    {
      after: (d) => Object.assign(listPets(d), { deprecated: true, 'x-sunset': '2031-01-01' }),
      verdict: 'warning',
      checks: ['operation.deprecated'],
    },
  ],
  [
    'createPet deprecated without a sunset',
    {
      after: (d) => (createPet(d).deprecated = true),
      verdict: 'warning',
      checks: ['operation.deprecated', 'lifecycle.sunset-missing'],
    },
  ],
  [
    'createPet deprecated with a sunset 24 days away',
    {
      after: (d) => Object.assign(createPet(d), { deprecated: true, 'x-sunset': '2026-12-20' }),
      verdict: 'warning',
      checks: ['operation.deprecated', 'lifecycle.sunset-too-soon'],
      date: '2026-11-26',
    },
  ],
  [
    'getPet sunset moved earlier',
    {
      after: (d) => (getPet(d)['x-sunset'] = '2029-01-01T00:00:00Z'),
      verdict: 'warning',
      checks: ['lifecycle.sunset-moved-earlier'],
    },
  ],
  [
    'getPet sunset removed',
    { after: (d) => delete getPet(d)['x-sunset'], verdict: 'warning', checks: ['lifecycle.sunset-missing'] },
  ],
  [
    'getPet sunset no longer a date',
    {
      after: (d) => (getPet(d)['x-sunset'] = 'early December'),
      verdict: 'warning',
      checks: ['lifecycle.sunset-missing'],
    },
  ],
  [
    'listPets marked beta',
    {
      after: (d) => (listPets(d)['x-stability-level'] = 'beta'),
      verdict: 'warning',
      checks: ['lifecycle.stability-decreased'],
    },
  ],
  [
    'a beta listPets narrows limit',
    {
      before: (d) => (listPets(d)['x-stability-level'] = 'beta'),
      after: (d) => (limit(d).schema.maximum = 50),
      verdict: 'info',
      checks: ['lifecycle.unstable-changed'],
    },
  ],
  [
    'an experimental createPet removed',
    {
      before: (d) => (createPet(d)['x-stability-level'] = 'experimental'),
      after: (d) => delete d.paths['/pets'].post,
      verdict: 'info',
      checks: ['lifecycle.unstable-changed'],
    },
  ],
  // Security.
  [
    'security added where there was none',
    {
      before: (d) => delete d.security,
      after: (d) => (d.security = [{ bearerAuth: [] }]),
      verdict: 'breaking',
      checks: ['security.requirement-added'],
    },
  ],
  [
    'bearer replaced by an API key header',
    {
      after: (d) => {
        apiKeyScheme(d);
        d.security = [{ apiKey: [] }];
      },
      verdict: 'breaking',
      checks: ['security.requirement-changed'],
    },
  ],
  [
    'bearer scheme redefined as basic',
    {
      after: (d) => (d.components.securitySchemes.bearerAuth.scheme = 'basic'),
      verdict: 'breaking',
      checks: ['security.requirement-changed'],
    },
  ],
  [
    'a scope required',
    {
      after: (d) => (listPets(d).security = [{ bearerAuth: ['pets:read'] }]),
      verdict: 'breaking',
      checks: ['security.requirement-changed'],
    },
  ],
  [
    'an API key accepted besides bearer',
    {
      after: (d) => {
        apiKeyScheme(d);
        d.security = [{ bearerAuth: [] }, { apiKey: [] }];
      },
      verdict: 'info',
      checks: ['security.requirement-relaxed'],
    },
  ],
  ['security dropped', { after: (d) => (d.security = []), verdict: 'info', checks: ['security.requirement-relaxed'] }],
  // Parameters.
  [
    'limit required',
    { after: (d) => (limit(d).required = true), verdict: 'breaking', checks: ['request.parameter-became-required'] },
  ],
  [
    'limit optional again',
    {
      before: (d) => (limit(d).required = true),
      after: (d) => (limit(d).required = false),
      verdict: 'info',
      checks: ['request.parameter-became-optional'],
    },
  ],
  [
    'a required query parameter added',
    {
      after: (d) =>
        listPets(d).parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'integer' } }),
      verdict: 'breaking',
      checks: ['request.parameter-added-required'],
    },
  ],
  [
    'a required header added',
    {
      after: (d) =>
        (createPet(d).parameters = [
          { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } },
        ]),
      verdict: 'breaking',
      checks: ['request.parameter-added-required'],
    },
  ],
  [
    'an optional query parameter added',
    {
      after: (d) => listPets(d).parameters.push({ name: 'sort', in: 'query', schema: { type: 'string' } }),
      verdict: 'info',
      checks: ['request.parameter-added'],
    },
  ],
  [
    'limit renamed pageSize',
    { after: (d) => (limit(d).name = 'pageSize'), verdict: 'breaking', checks: ['request.parameter-renamed'] },
  ],
  [
    'the status filter removed',
    { after: (d) => listPets(d).parameters.pop(), verdict: 'warning', checks: ['request.parameter-removed'] },
  ],
  [
    'path parameter petId renamed id',
    {
      after: (d) => {
        petId(d).name = 'id';
        d.paths['/pets/{id}'] = d.paths['/pets/{petId}'];
        delete d.paths['/pets/{petId}'];
      },
      verdict: 'info',
      checks: ['request.path-parameter-renamed'],
    },
  ],
  [
    'limit maximum lowered to 50',
    { after: (d) => (limit(d).schema.maximum = 50), verdict: 'breaking', checks: ['request.maximum-decreased'] },
  ],
  [
    'limit maximum raised to 200',
    { after: (d) => (limit(d).schema.maximum = 200), verdict: 'info', checks: ['request.constraint-relaxed'] },
  ],
  [
    'limit minimum raised to 5',
    { after: (d) => (limit(d).schema.minimum = 5), verdict: 'breaking', checks: ['request.minimum-increased'] },
  ],
  [
    'limit minimum dropped',
    { after: (d) => delete limit(d).schema.minimum, verdict: 'info', checks: ['request.constraint-relaxed'] },
  ],
  [
    'limit default 20 → 10',
    { after: (d) => (limit(d).schema.default = 10), verdict: 'warning', checks: ['request.default-changed'] },
  ],
  [
    'limit typed string',
    { after: (d) => (limit(d).schema = { type: 'string' }), verdict: 'breaking', checks: ['request.type-changed'] },
  ],
  [
    'limit typed number',
    { after: (d) => (limit(d).schema.type = 'number'), verdict: 'info', checks: ['request.constraint-relaxed'] },
  ],
  [
    'limit limited to 10, 20, 50',
    { after: (d) => (limit(d).schema.enum = [10, 20, 50]), verdict: 'breaking', checks: ['request.became-enum'] },
  ],
  [
    'petId format int64 → int32',
    { after: (d) => (petId(d).schema.format = 'int32'), verdict: 'breaking', checks: ['request.format-changed'] },
  ],
  [
    'petId typed string',
    { after: (d) => (petId(d).schema = { type: 'string' }), verdict: 'breaking', checks: ['request.type-changed'] },
  ],
  [
    'tags maxItems 5 → 3',
    {
      before: tagsParameter({ maxItems: 5 }),
      after: (d) => (listPets(d).parameters[2].schema.maxItems = 3),
      verdict: 'breaking',
      checks: ['request.max-items-decreased'],
    },
  ],
  [
    'tags minItems set to 1',
    {
      before: tagsParameter({}),
      after: (d) => (listPets(d).parameters[2].schema.minItems = 1),
      verdict: 'breaking',
      checks: ['request.min-items-increased'],
    },
  ],
  // Request bodies.
  [
    'createPet body made required',
    {
      before: (d) => (createPet(d).requestBody.required = false),
      after: (d) => (createPet(d).requestBody.required = true),
      verdict: 'breaking',
      checks: ['request.body-became-required'],
    },
  ],
  [
    'a required body where there was none',
    {
      before: (d) => delete createPet(d).requestBody,
      after: (d) => (createPet(d).requestBody = structuredClone(createPet(original.bundled).requestBody)),
      verdict: 'breaking',
      checks: ['request.body-added-required'],
    },
  ],
  [
    'an optional body where there was none',
    {
      before: (d) => delete createPet(d).requestBody,
      after: (d) =>
        (createPet(d).requestBody = { ...structuredClone(createPet(original.bundled).requestBody), required: false }),
      verdict: 'info',
      checks: ['request.media-type-added'],
    },
  ],
  [
    'createPet body made optional',
    {
      after: (d) => (createPet(d).requestBody.required = false),
      verdict: 'info',
      checks: ['request.body-became-optional'],
    },
  ],
  [
    'createPet body removed',
    { after: (d) => delete createPet(d).requestBody, verdict: 'warning', checks: ['request.body-removed'] },
  ],
  [
    'createPet body only as XML',
    {
      after: (d) => {
        const body = createPet(d).requestBody;
        body.content = { 'application/xml': body.content['application/json'] };
      },
      verdict: 'breaking',
      checks: ['request.media-type-removed'],
    },
  ],
  [
    'createPet body also as form',
    {
      after: (d) => {
        const body = createPet(d).requestBody;
        body.content['application/x-www-form-urlencoded'] = { schema: body.content['application/json'].schema };
      },
      verdict: 'info',
      checks: ['request.media-type-added'],
    },
  ],
  [
    'a required NewPet property added',
    {
      after: (d) => {
        schemas(d).NewPet.properties.ownerId = { type: 'integer' };
        schemas(d).NewPet.required.push('ownerId');
      },
      verdict: 'breaking',
      checks: ['request.property-added-required', 'response.property-added'],
    },
  ],
  [
    'an optional NewPet property added',
    {
      after: (d) => (schemas(d).NewPet.properties.nickname = { type: 'string' }),
      verdict: 'info',
      checks: ['request.property-added', 'response.property-added'],
    },
  ],
  [
    'NewPet status required',
    {
      after: (d) => schemas(d).NewPet.required.push('status'),
      verdict: 'breaking',
      checks: ['request.property-became-required', 'response.property-became-required'],
    },
  ],
  [
    'name given a maxLength of 50',
    {
      after: (d) => (schemas(d).NewPet.properties.name.maxLength = 50),
      verdict: 'breaking',
      checks: ['request.max-length-decreased', 'response.constraint-tightened'],
    },
  ],
  [
    'name given a minLength of 1',
    {
      after: (d) => (schemas(d).NewPet.properties.name.minLength = 1),
      verdict: 'breaking',
      checks: ['request.min-length-increased'],
    },
  ],
  [
    'name given a pattern',
    {
      after: (d) => (schemas(d).NewPet.properties.name.pattern = '^[A-Za-z ]+$'),
      verdict: 'breaking',
      checks: ['request.pattern-changed'],
    },
  ],
  [
    'name no longer nullable',
    {
      before: (d) => (schemas(d).NewPet.properties.name.nullable = true),
      after: (d) => delete schemas(d).NewPet.properties.name.nullable,
      verdict: 'breaking',
      checks: ['request.became-not-nullable'],
    },
  ],
  [
    'categoryId typed string',
    {
      after: (d) => (schemas(d).NewPet.properties.categoryId = { type: 'string' }),
      verdict: 'breaking',
      checks: ['request.type-changed', 'response.type-changed'],
    },
  ],
  [
    'categoryId given a default',
    {
      after: (d) => (schemas(d).NewPet.properties.categoryId.default = 1),
      verdict: 'warning',
      checks: ['request.default-changed', 'response.default-changed'],
    },
  ],
  [
    'PetStatus loses sold',
    {
      after: (d) => schemas(d).PetStatus.enum.pop(),
      verdict: 'breaking',
      checks: ['request.enum-value-removed', 'response.enum-value-removed'],
    },
  ],
  [
    'PetStatus gains adopted',
    {
      after: (d) => schemas(d).PetStatus.enum.push('adopted'),
      verdict: 'warning',
      checks: ['response.enum-value-added', 'request.constraint-relaxed'],
    },
  ],
  [
    'NewPet name optional',
    {
      after: (d) => (schemas(d).NewPet.required = ['categoryId']),
      verdict: 'breaking',
      checks: ['request.property-became-optional', 'response.property-became-optional'],
    },
  ],
  [
    'NewPet status removed',
    {
      after: (d) => delete schemas(d).NewPet.properties.status,
      verdict: 'breaking',
      checks: ['response.property-removed', 'request.property-removed'],
    },
  ],
  // Responses.
  [
    'listPets 401 removed',
    { after: (d) => delete listPets(d).responses['401'], verdict: 'breaking', checks: ['response.status-removed'] },
  ],
  [
    'getPet 404 removed',
    { after: (d) => delete getPet(d).responses['404'], verdict: 'breaking', checks: ['response.status-removed'] },
  ],
  [
    'listPets 400 added',
    {
      after: (d) => (listPets(d).responses['400'] = { $ref: '#/components/responses/Unauthorized' }),
      verdict: 'info',
      checks: ['response.status-added'],
    },
  ],
  [
    'createPet 201 sent as another media type',
    {
      after: (d) => {
        const answer = createPet(d).responses['201'];
        answer.content = { 'application/vnd.pet+json': answer.content['application/json'] };
      },
      verdict: 'breaking',
      checks: ['response.media-type-removed'],
    },
  ],
  [
    'createPet 201 also sent as XML',
    {
      after: (d) => {
        const answer = createPet(d).responses['201'];
        answer.content['application/xml'] = { schema: answer.content['application/json'].schema };
      },
      verdict: 'info',
      checks: ['response.media-type-added'],
    },
  ],
  [
    'Pet id removed',
    {
      after: (d) => {
        delete petProperties(d).id;
        delete schemas(d).Pet.allOf[1].required;
      },
      verdict: 'breaking',
      checks: ['response.property-removed'],
    },
  ],
  [
    'Pet id optional',
    {
      after: (d) => delete schemas(d).Pet.allOf[1].required,
      verdict: 'breaking',
      checks: ['response.property-became-optional'],
    },
  ],
  [
    'Pet id loses its format',
    { after: (d) => delete petProperties(d).id.format, verdict: 'breaking', checks: ['response.format-changed'] },
  ],
  [
    'Pet id nullable',
    { after: (d) => (petProperties(d).id.nullable = true), verdict: 'breaking', checks: ['response.became-nullable'] },
  ],
  [
    'Pet id given a default',
    { after: (d) => (petProperties(d).id.default = 0), verdict: 'warning', checks: ['response.default-changed'] },
  ],
  [
    'Pet id minimum dropped',
    {
      before: (d) => (petProperties(d).id.minimum = 1),
      after: (d) => delete petProperties(d).id.minimum,
      verdict: 'breaking',
      checks: ['response.minimum-decreased'],
    },
  ],
  [
    'Pet id maximum raised',
    {
      before: (d) => (petProperties(d).id.maximum = 1000),
      after: (d) => (petProperties(d).id.maximum = 100000),
      verdict: 'breaking',
      checks: ['response.maximum-increased'],
    },
  ],
  [
    'Pet id given a minimum',
    { after: (d) => (petProperties(d).id.minimum = 1), verdict: 'info', checks: ['response.constraint-tightened'] },
  ],
  [
    'Error.status typed string',
    {
      after: (d) => (schemas(d).Error.properties.status.type = 'string'),
      verdict: 'breaking',
      checks: ['response.type-changed'],
    },
  ],
  [
    'Error.code maxLength raised',
    {
      before: (d) => (schemas(d).Error.properties.code.maxLength = 40),
      after: (d) => (schemas(d).Error.properties.code.maxLength = 80),
      verdict: 'breaking',
      checks: ['response.max-length-increased'],
    },
  ],
  [
    'Error.code minLength dropped',
    {
      before: (d) => (schemas(d).Error.properties.code.minLength = 1),
      after: (d) => delete schemas(d).Error.properties.code.minLength,
      verdict: 'breaking',
      checks: ['response.min-length-decreased'],
    },
  ],
  [
    'Error.code pattern dropped',
    {
      before: (d) => (schemas(d).Error.properties.code.pattern = '^[a-z_]+$'),
      after: (d) => delete schemas(d).Error.properties.code.pattern,
      verdict: 'breaking',
      checks: ['response.pattern-changed'],
    },
  ],
  [
    'Error.code no longer an enum',
    {
      before: (d) => (schemas(d).Error.properties.code.enum = ['unauthorized', 'not_found', 'invalid_body']),
      after: (d) => delete schemas(d).Error.properties.code.enum,
      verdict: 'breaking',
      checks: ['response.enum-removed'],
    },
  ],
  [
    'Pets maxItems dropped',
    {
      before: (d) => (schemas(d).Pets.maxItems = 100),
      after: (d) => delete schemas(d).Pets.maxItems,
      verdict: 'breaking',
      checks: ['response.max-items-increased'],
    },
  ],
  [
    'Pets minItems dropped',
    {
      before: (d) => (schemas(d).Pets.minItems = 1),
      after: (d) => delete schemas(d).Pets.minItems,
      verdict: 'breaking',
      checks: ['response.min-items-decreased'],
    },
  ],
  // What a client never meets.
  [
    'a description reworded',
    { after: (d) => (listPets(d).description = 'Lists animals.'), verdict: 'none', checks: [] },
  ],
  [
    'an example changed',
    {
      after: (d) => (createPet(d).responses['201'].content['application/json'].examples.created.value.name = 'Max'),
      verdict: 'none',
      checks: [],
    },
  ],
];

const EDITED_AT = new Date('2026-11-26T00:00:00Z');

let original: LoadedDocument;
beforeAll(async () => {
  original = await loadDocument({ path: defaultSpecFile });
});

async function judgePair(pair: Pair): Promise<{ old: LoadedDocument; current: LoadedDocument; findings: Finding[] }> {
  const before = structuredClone(original.bundled) as Doc;
  pair.before?.(before);
  const old = pair.before ? await loadDocument({ label: 'old', value: before }) : original;
  const after = structuredClone(before);
  pair.after(after);
  const current = await loadDocument({ label: 'new', value: after });
  const date = pair.date ? new Date(`${pair.date}T00:00:00Z`) : EDITED_AT;
  return { old, current, findings: compareDocuments(old, current, { date, minNoticeDays: 180 }) };
}

function verdictOf(findings: Finding[]): Verdict {
  for (const level of ['breaking', 'warning', 'info'] as const)
    if (findings.some((f) => f.level === level)) return level;
  return 'none';
}

describe('compat corpus: one change each on openapi.yaml', () => {
  it('has at least 60 pairs, and every document check of the table has one', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    const covered = new Set(corpus.flatMap(([, pair]) => pair.checks));
    const documentChecks = checkIds.filter((id) => !id.startsWith('journal.'));
    expect(documentChecks.filter((id) => !covered.has(id))).toEqual([]);
  });

  it.each(corpus)('%s', async (_, pair) => {
    const { old, current, findings } = await judgePair(pair);
    expect(verdictOf(findings)).toBe(pair.verdict);
    const found = new Set(findings.map((f) => f.check));
    for (const check of pair.checks) expect([...found], `${check} among the findings`).toContain(check);
    for (const f of findings) {
      // A finding's level is its check's, except a change to an unstable operation, filed as info.
      expect(f.level).toBe(checks[f.check].level);
      expect(f.message).toMatch(/^\S.*[^.]$/s);
      expect(f.message).not.toContain('\n');
      // Each pointer names something written in its document.
      if (f.old) expect(follow(old.bundled, { value: { $ref: f.old }, pointer: '' }), f.old).toBeDefined();
      if (f.new) expect(follow(current.bundled, { value: { $ref: f.new }, pointer: '' }), f.new).toBeDefined();
      expect(f.old ?? f.new).toBeDefined();
    }
    const exit = buildCompatReport(
      { version: 'test', old: 'old', new: 'new', date: '2026-11-26', minNoticeDays: 180, failOn: 'breaking' },
      findings,
    ).exitCode;
    expect(exit).toBe(pair.verdict === 'breaking' ? 1 : 0);
    const strict = buildCompatReport(
      { version: 'test', old: 'old', new: 'new', date: '2026-11-26', minNoticeDays: 180, failOn: 'warning' },
      findings,
    ).exitCode;
    expect(strict).toBe(pair.verdict === 'breaking' || pair.verdict === 'warning' ? 1 : 0);
  });
});

describe('the lifecycle the interface states (§4.3, §9): openapi.yaml without getPet', () => {
  const withoutGetPet: Pair = { after: (d) => delete d.paths['/pets/{petId}'], verdict: 'breaking', checks: [] };

  it('is breaking before 5 December 2030, naming the sunset', async () => {
    const { findings } = await judgePair({ ...withoutGetPet, date: '2030-12-04' });
    expect(findings).toEqual([
      expect.objectContaining({
        check: 'operation.removed-before-sunset',
        level: 'breaking',
        operation: 'GET /pets/{petId} (getPet)',
        old: '#/paths/~1pets~1%7BpetId%7D/get',
      }),
    ]);
    expect(findings[0]!.message).toContain('2030-12-05');
  });

  it('is allowed from 5 December 2030 on', async () => {
    const { findings } = await judgePair({ ...withoutGetPet, date: '2030-12-05' });
    expect(findings.map((f) => [f.check, f.level])).toEqual([['operation.removed-after-sunset', 'info']]);
  });
});

describe('recursive schemas', () => {
  it('are walked once per pair of places, and a change deep inside is still found', async () => {
    const tree = (d: Doc, max?: number) => {
      schemas(d).Category = {
        type: 'object',
        properties: {
          name: { type: 'string', ...(max ? { maxLength: max } : {}) },
          children: { type: 'array', items: { $ref: '#/components/schemas/Category' } },
        },
      };
      schemas(d).NewPet.properties.category = { $ref: '#/components/schemas/Category' };
    };
    const { findings } = await judgePair({
      before: (d) => tree(d),
      after: (d) => tree(d, 20),
      verdict: 'breaking',
      checks: [],
    });
    expect(findings.filter((f) => f.check === 'request.max-length-decreased').map((f) => f.message)).toEqual([
      'POST /pets (createPet): body.category.name has maxLength 20 (none before): a value a client of the old document sends may be refused',
    ]);
  });
});

describe('loading', () => {
  it('refuses a document whose $ref does not resolve, naming it', async () => {
    const broken = structuredClone(original.bundled) as Doc;
    listPets(broken).responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Animals' };
    await expect(loadDocument({ label: 'new.yaml', value: broken })).rejects.toThrow(/^new\.yaml: .*Animals/);
  });

  it('refuses what is not an OpenAPI 3 document', async () => {
    await expect(
      loadDocument({ label: '-', text: 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n' }),
    ).rejects.toThrow(/^-: not an OpenAPI 3 document/);
  });

  it('reads YAML from standard input as it reads a file', async () => {
    const loaded = await loadDocument({
      label: '-',
      text: 'openapi: 3.0.3\ninfo: {title: x, version: "1"}\npaths: {}\n',
    });
    expect(loaded.bundled).toEqual({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {} });
  });
});

describe("format and pattern findings' words", () => {
  // One edit each way for both keywords, in a request (NewPet, petId) and the responses (Pet): the corpus holds the
  // checks; this holds the words a reader gets.
  const nameRule = '^[a-z]+$';
  const edits: [string, Pair['after'], Pair['before'], string[]][] = [
    [
      'petId int64 → int32',
      (d) => (petId(d).schema.format = 'int32'),
      undefined,
      [
        'request.format-changed: GET /pets/{petId} (getPet): path.petId must be of format int32 (it was int64): a value a client sent may be refused',
      ],
    ],
    [
      'petId loses its format',
      (d) => delete petId(d).schema.format,
      undefined,
      ['request.constraint-relaxed: GET /pets/{petId} (getPet): path.petId has no format (it had int64)'],
    ],
    [
      "Pet's id loses its format",
      (d) => delete petProperties(d).id.format,
      undefined,
      [
        'response.format-changed: GET /pets (listPets): response 200 body[].id is no longer of format int64: a client may read a value it cannot parse',
        'response.format-changed: POST /pets (createPet): response 201 body.id is no longer of format int64: a client may read a value it cannot parse',
        'response.format-changed: GET /pets/{petId} (getPet): response 200 body.id is no longer of format int64: a client may read a value it cannot parse',
      ],
    ],
    [
      'name given a pattern',
      (d) => (schemas(d).NewPet.properties.name.pattern = nameRule),
      undefined,
      [
        'response.constraint-tightened: GET /pets (listPets): response 200 body[].name has pattern ^[a-z]+$ (none before)',
        'request.pattern-changed: POST /pets (createPet): body.name has pattern ^[a-z]+$ (none before): a value a client sent may be refused',
        'response.constraint-tightened: POST /pets (createPet): response 201 body.name has pattern ^[a-z]+$ (none before)',
        'response.constraint-tightened: GET /pets/{petId} (getPet): response 200 body.name has pattern ^[a-z]+$ (none before)',
      ],
    ],
    [
      'name loses its pattern',
      (d) => delete schemas(d).NewPet.properties.name.pattern,
      (d) => (schemas(d).NewPet.properties.name.pattern = nameRule),
      [
        'response.pattern-changed: GET /pets (listPets): response 200 body[].name has no pattern (it was ^[a-z]+$): a client may receive a value it does not expect',
        'request.constraint-relaxed: POST /pets (createPet): body.name has no pattern (it was ^[a-z]+$)',
        'response.pattern-changed: POST /pets (createPet): response 201 body.name has no pattern (it was ^[a-z]+$): a client may receive a value it does not expect',
        'response.pattern-changed: GET /pets/{petId} (getPet): response 200 body.name has no pattern (it was ^[a-z]+$): a client may receive a value it does not expect',
      ],
    ],
  ];
  it.each(edits)('%s', async (_, after, before, want) => {
    const { findings } = await judgePair({ after, ...(before ? { before } : {}), verdict: 'none', checks: [] });
    const words = findings.filter((f) => /format|pattern/.test(f.message)).map((f) => `${f.check}: ${f.message}`);
    expect(words).toEqual(want);
  });
});
