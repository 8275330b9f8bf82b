import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Agent, request as httpRequest } from 'node:http';
import { startApi, TEST_KEY, type Api } from './support/api.js';
import { checkResponse } from '../src/openapi/check-response.js';
import { createRouter } from '../src/mock/front-door/router.js';
import { operationAt } from './support/operation-at.js';
import type { Operation } from '../src/openapi/operations.js';
import type { Pet } from '../src/types.js';
import { parseJson } from '../src/json/parse-json.js';
import { stringifyJson } from '../src/json/stringify-json.js';
import { isInt64 } from '../src/json/int64.js';

// Property-based fuzzing over real HTTP. Bounded twice: a number of runs per property and a time limit, so the
// file stays a few seconds long however slow the machine is. A failure prints fast-check's seed and the shrunk case.
const RUNS = 250;
const TIME_LIMIT_MS = 8_000;
const settings = { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS };

let api: Api;
let agent: Agent;
let operationFor: (method: string, path: string) => Operation | undefined;
/** Every pet a 201 handed out, by id: what the store must hold besides its seed. */
const created = new Map<number, Pet>();
let seedSize = 0;

beforeAll(async () => {
  api = await startApi();
  agent = new Agent({ keepAlive: true, maxSockets: 4 });
  seedSize = await api.server.mock.store.count();
  const router = createRouter(api.server.mock.spec.operations, api.server.mock.spec.basePath);
  operationFor = (method, path) => operationAt(router, method, path);
});
afterAll(async () => {
  agent.destroy();
  await api.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One raw request: the path goes out exactly as generated (node:http only refuses spaces and control characters). */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: api.server.port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    // A dropped connection or a reset fails the property.
    req.on('error', reject);
    req.end(body);
  });
}

/** What every answer must satisfy, whatever was sent. */
function checkAnswer(method: string, path: string, answer: Answer): void {
  const label = `${method} ${path} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, label).toBeLessThan(500);
  expect(answer.headers['x-content-type-options'], label).toBe('nosniff');
  for (const leak of ['\n    at ', 'node_modules', process.cwd(), '.ts:', '.js:'])
    expect(answer.text, label).not.toContain(leak);
  // HEAD never has content; OPTIONS has none unless it is an Error (an unknown path).
  if (method === 'HEAD' || (method === 'OPTIONS' && answer.status < 400)) {
    expect(answer.text, label).toBe('');
    return;
  }
  let body: unknown;
  try {
    body = answer.text ? parseJson(answer.text) : undefined;
  } catch {
    body = undefined;
  }
  const pathname = path.split('?')[0]!;
  const observed = {
    status: answer.status,
    contentType: (answer.headers['content-type'] as string | undefined) ?? null,
    body,
    text: answer.text,
  };
  expect(checkResponse(api.server.mock.spec, operationFor(method, pathname), observed), label).toEqual([]);
  if (answer.status === 201) {
    const pet = body as Pet;
    expect(created.has(pet.id), `${label}: id ${pet.id} handed out twice`).toBe(false);
    created.set(pet.id, pet);
  }
}

/** The store's invariants: seed + accepted creates, unique ids, every created pet stored as answered, clean objects. */
async function checkStore(): Promise<void> {
  const store = api.server.mock.store;
  expect(await store.count()).toBe(seedSize + created.size);
  for (const [id, pet] of created) {
    const stored = await store.get(id);
    expect(stored).toEqual(pet);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.keys(stored!).every((key) => ['id', 'name', 'categoryId', 'status'].includes(key))).toBe(true);
  }
  // No request may pollute prototypes.
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
}

const hex = fc.integer({ min: 0, max: 255 }).map((n) => `%${n.toString(16).padStart(2, '0').toUpperCase()}`);
/** Path and query text: printable ASCII, percent escapes (valid, truncated, invalid), UTF-8 and odd bytes. */
const oddText = fc
  .array(
    fc.oneof(
      fc.string({ unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/".split('')), maxLength: 8 }),
      hex,
      fc.constantFrom(
        '%',
        '%Z',
        '%zz',
        '%E0%A4%A',
        '%C0%AF',
        '%00',
        '%2F',
        '%252F',
        '..',
        '//',
        '+',
        '%20',
        'é',
        '\u00ff',
        encodeURIComponent('€'),
        encodeURIComponent('😀'),
      ),
      fc.string({ unit: 'grapheme', maxLength: 3 }).map(encodeURIComponent),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

const pathArb = fc.oneof(
  fc.constantFrom(
    '/v1/pets',
    '/v1/pets/1',
    '/v1/pets/57',
    '/v1/pets/',
    '/v1',
    '/',
    '/v2/pets',
    '//v1/pets',
    '/V1/PETS',
  ),
  fc.tuple(fc.constantFrom('/v1/pets/', '/v1/', '/', '/v1/pets/1/'), oddText).map(([prefix, rest]) => prefix + rest),
  fc
    .oneof(fc.bigInt(), fc.double().map(String), fc.constantFrom('-0', '+7', '0x10', '1e3', '9007199254740993', '%201'))
    .map((id) => `/v1/pets/${encodeURIComponent(String(id))}`),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '20',
    '100',
    '0',
    '101',
    '-1',
    '1.5',
    '1e2',
    '%205',
    '5%20',
    'available',
    'pending',
    'sold',
    'AVAILABLE',
    'x'.repeat(5_000),
  ),
  oddText,
  fc.integer().map(String),
);
const queryArb = fc
  .array(
    fc.tuple(fc.constantFrom('limit', 'status', 'Limit', '', 'x', '__proto__', 'constructor', 'limit[]'), queryValue),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs.length ? `?${pairs.map(([k, v]) => (v === '' && k === 'x' ? k : `${k}=${v}`)).join('&')}` : '',
  );

const latin1 = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const authArb = fc.oneof(
  fc.constant(`Bearer ${TEST_KEY}`),
  fc.constant(`bearer ${TEST_KEY}`),
  fc.constantFrom('', 'Bearer', 'Bearer ', `Basic ${TEST_KEY}`, `Bearer ${TEST_KEY}x`, 'Bearer a b', 'Bearer %%%'),
  latin1.map((s) => `Bearer ${s}`),
  latin1,
);

/** A JSON value as text: valid NewPets, near misses, odd keys and numbers, deep nesting, and text that is not JSON. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 3 }),
    tie('newPet'),
    tie('nested'),
  ),
  newPet: fc
    .record(
      {
        name: fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 20 }),
          fc.constant(''),
          fc.integer(),
          fc.constant(null),
        ),
        categoryId: fc.oneof(
          fc.integer(),
          fc.maxSafeInteger(),
          // The whole int64 range and a little beyond it on both sides, sent as plain digits.
          fc.bigInt({ min: -(2n ** 63n) - 1000n, max: 2n ** 63n + 1000n }),
          fc.constantFrom(9007199254740992, 1e308, -0, 1.5, '1', null),
          fc.double(),
        ),
        status: fc.constantFrom('available', 'pending', 'sold', 'Sold', '', 42),
        __proto__: fc.record({ polluted: fc.constant(true), isAdmin: fc.constant(true) }),
        constructor: fc.record({ prototype: fc.record({ polluted: fc.constant(true) }) }),
        extra: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((value) => value as unknown),
  nested: fc.integer({ min: 1, max: 60 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
}));

// JSON.stringify drops an own "__proto__" key made by fc.record? No: fc.record defines it as an own property, and
// JSON.stringify writes it, which is exactly what a hostile client sends.
const bodyArb = fc.oneof(
  { weight: 6, arbitrary: jsonish.value.map((value) => stringifyJson(value) ?? 'null') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"name":',
      'null',
      '[]',
      '"text"',
      '{"name":"a","categoryId":1}garbage',
      '\u0000',
      '{"a":1e999999}',
    ),
  },
  { weight: 1, arbitrary: fc.constant('{"name":"big","categoryId":123456789012345678901234567890}') },
);

const contentTypeArb = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/merge-patch+json',
    'text/plain',
    'application/xml',
    'APPLICATION/JSON',
    'application/json;;',
    'multipart/form-data; boundary=x',
  ),
  { nil: undefined, freq: 4 },
);

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'x-anything',
    'accept',
    'prefer',
    'origin',
    'x-forwarded-for',
    'access-control-request-method',
    'if-none-match',
    'range',
  ),
  latin1,
  { maxKeys: 3 },
);

describe('fuzzing over HTTP', () => {
  it('answers any request without a 5xx or a dropped connection, within the contract, and keeps the store intact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'GET', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        pathArb,
        queryArb,
        fc.option(authArb, { nil: undefined, freq: 6 }),
        contentTypeArb,
        fc.option(bodyArb, { nil: undefined }),
        extraHeaders,
        async (method, path, query, authorization, contentType, body, extra) => {
          const headers: Record<string, string> = { ...extra };
          if (authorization !== undefined) headers.authorization = authorization;
          if (contentType !== undefined) headers['content-type'] = contentType;
          const sent = method === 'GET' || method === 'HEAD' ? undefined : body;
          checkAnswer(method, path + query, await send(method, path + query, headers, sent));
          await checkStore();
        },
      ),
      settings,
    );
  });

  it('answers any body sent to createPet with 201 and the stored pet, or a 4xx Error and nothing stored', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodyArb, contentTypeArb, async (body, contentType) => {
        const before = await api.server.mock.store.count();
        const headers: Record<string, string> = { authorization: `Bearer ${TEST_KEY}` };
        if (contentType !== undefined) headers['content-type'] = contentType;
        const answer = await send('POST', '/v1/pets', headers, body);
        statuses.add(answer.status);
        checkAnswer('POST', '/v1/pets', answer);
        expect(await api.server.mock.store.count()).toBe(answer.status === 201 ? before + 1 : before);
        if (answer.status === 201) {
          const sent = parseJson(body) as Record<string, unknown>;
          const pet = parseJson(answer.text) as Pet;
          expect(pet).toEqual({
            id: pet.id,
            name: sent.name,
            categoryId: sent.categoryId,
            ...(sent.status === undefined ? {} : { status: sent.status }),
          });
        }
        await checkStore();
      }),
      {
        ...settings,
        // Run first, so each side is reached whatever the random runs draw (or how few a slow machine gets through).
        examples: [
          ['{"name":"Rex","categoryId":1,"status":"sold"}', 'application/json'],
          ['{"name":"Rex","categoryId":"1"}', 'application/json'],
          ['{"name":"Rex","categoryId":1}', 'text/plain'],
        ],
      },
    );
    // Both sides are exercised: accepted pets and each kind of refusal.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([201, 400, 415]));
  });

  it('accepts every int64 categoryId and returns exactly the digits sent; refuses every integer beyond int64, storing nothing', async () => {
    const edges = [
      -(2n ** 63n),
      2n ** 63n - 1n,
      -(2n ** 63n) - 1n,
      2n ** 63n,
      2n ** 53n,
      2n ** 53n + 1n,
      -(2n ** 53n) - 1n,
      55891266195648512n,
      0n,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...edges),
          fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        ),
        async (categoryId) => {
          const before = await api.server.mock.store.count();
          const text = `{"name":"int64","categoryId":${categoryId}}`;
          const answer = await send(
            'POST',
            '/v1/pets',
            { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
            text,
          );
          checkAnswer('POST', '/v1/pets', answer);
          if (isInt64(categoryId) || (categoryId >= -(2n ** 63n) && categoryId <= 2n ** 63n - 1n)) {
            expect(answer.status, answer.text).toBe(201);
            expect(answer.text).toMatch(new RegExp(`"categoryId":${categoryId}}$`));
            const id = (parseJson(answer.text) as Pet).id;
            expect((await send('GET', `/v1/pets/${id}`, { authorization: `Bearer ${TEST_KEY}` })).text).toContain(
              `"categoryId":${categoryId}}`,
            );
          } else {
            expect(answer.status, answer.text).toBe(400);
            expect(await api.server.mock.store.count()).toBe(before);
          }
          await checkStore();
        },
      ),
      { ...settings, examples: edges.map((edge) => [edge]) },
    );
  });

  it('answers any encoding, charset and byte sequence with 201 only for an uncompressed UTF-8 NewPet, else a 4xx and nothing stored', async () => {
    const encodingArb = fc.option(
      fc.constantFrom(
        'gzip',
        'br',
        'deflate',
        'compress',
        'identity',
        'IDENTITY',
        'gzip, identity',
        'identity, br',
        'x-custom',
        '',
      ),
      { nil: undefined },
    );
    const charsetArb = fc.option(
      fc.constantFrom(
        'utf-8',
        'UTF-8',
        'utf8',
        '"utf-8"',
        'latin1',
        'iso-8859-1',
        'utf-16',
        'utf-16le',
        'ascii',
        'windows-1252',
      ),
      { nil: undefined },
    );
    const bytesArb = fc.oneof(
      fc.constant(Buffer.from('{"name":"Zoë","categoryId":1}')),
      fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) =>
          Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('","categoryId":1}')]),
        ),
      fc
        .string({ unit: 'grapheme', maxLength: 10 })
        .map((name) => Buffer.from(`{"name":${JSON.stringify(name)},"categoryId":2}`, 'utf16le')),
      fc
        .string({ unit: 'grapheme', maxLength: 10 })
        .map((name) => Buffer.from(`\uFEFF{"name":${JSON.stringify(name)},"categoryId":3}`)),
    );
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(encodingArb, charsetArb, bytesArb, async (encoding, charset, bytes) => {
        const before = await api.server.mock.store.count();
        const headers: Record<string, string> = {
          authorization: `Bearer ${TEST_KEY}`,
          'content-type': `application/json${charset === undefined ? '' : `; charset=${charset}`}`,
        };
        if (encoding !== undefined) headers['content-encoding'] = encoding;
        const answer = await send('POST', '/v1/pets', headers, bytes as unknown as string);
        statuses.add(answer.status);
        checkAnswer('POST', '/v1/pets', answer);
        const identity =
          encoding === undefined ||
          encoding.split(',').every((coding) => ['identity', ''].includes(coding.trim().toLowerCase()));
        const utf8 = charset === undefined || ['utf-8', 'utf8'].includes(charset.replace(/"/g, '').toLowerCase());
        let decodable = true;
        try {
          const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
          JSON.parse(text);
        } catch {
          decodable = false;
        }
        if (!identity || !utf8) expect(answer.status, answer.text).toBe(415);
        else if (!decodable) expect(answer.status, answer.text).toBe(400);
        if (answer.status !== 201) expect(await api.server.mock.store.count()).toBe(before);
        else expect(identity && utf8 && decodable).toBe(true);
        await checkStore();
      }),
      settings,
    );
    expect([...statuses]).toEqual(expect.arrayContaining([201, 400, 415]));
  });

  it('lists exactly what the store holds for any valid limit and status', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom(undefined, 'available', 'pending', 'sold'),
        async (limit, status) => {
          const path = `/v1/pets?limit=${limit}${status ? `&status=${status}` : ''}`;
          const answer = await send('GET', path, { authorization: `Bearer ${TEST_KEY}` });
          checkAnswer('GET', path, answer);
          expect(answer.status).toBe(200);
          const pets = parseJson(answer.text) as Pet[];
          expect(pets).toEqual(await api.server.mock.store.list({ limit, status }));
          expect(pets.length).toBeLessThanOrEqual(limit);
          if (status) expect(pets.every((pet) => pet.status === status)).toBe(true);
          expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b));
        },
      ),
      settings,
    );
  });
});
