import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exactJson } from './exact-json.js';

/**
 * A Petstore API v1 written from the interface document alone, on plain node:http, sharing no code with the mock
 * (its JSON handling included: ./exact-json.ts). It differs from the mock wherever the interface lets it: it clamps
 * an out-of-range `limit` and ignores a non-numeric one instead of answering 400, answers 422 for an unknown
 * `status` filter, 400 for an id that is not an int64 and 415 for a body that is not labelled JSON, uses its own
 * error codes, lists newest first, gives a pet created without status the status "available", numbers pets from
 * 1000 in steps of 7, holds more pets than one page shows, and sends no deprecation headers. With `rateLimit` it
 * also limits requests per second, answering 429 with Retry-After (rate limits are "not shown": allowed).
 *
 * Each `Fault` breaks exactly one thing, so that the contract suite can be shown to catch it.
 */
export const FAULTS = [
  // The first seventeen: what the fixed cases were written for.
  'auth-ignored-on-getPet',
  'wrong-scheme-accepted',
  'empty-token-accepted',
  'getPet-id-as-string',
  'createPet-drops-categoryId',
  'createPet-answers-200',
  'limit-ignored',
  'limit-above-100-honoured',
  'status-filter-ignored',
  'write-not-persisted',
  '500-on-non-numeric-limit',
  'not-found-body-wrong-shape',
  'list-as-text-plain',
  'getPet-returns-another-pet',
  'unknown-id-gets-400',
  'categoryId-string-coerced',
  'unknown-id-never-answers',
  // Credentials.
  'key-with-suffix-accepted',
  'key-case-insensitive',
  'extra-words-accepted',
  'bare-key-accepted',
  'key-in-other-header-accepted',
  'same-length-wrong-key-403',
  'other-scheme-401-without-error',
  'auth-skipped-on-later-pets',
  'lowercase-scheme-refused',
  // Bodies.
  'status-null-accepted',
  'status-empty-accepted',
  'status-case-insensitive',
  'name-boolean-accepted',
  'name-optional-with-status',
  'scalar-body-500',
  'charset-refused',
  'array-body-accepted',
  // Stored data changed on the way.
  'non-ascii-mangled',
  'long-name-truncated',
  'control-characters-unescaped',
  'categoryId-int32-wrapped',
  'categoryId-zero-dropped',
  'categoryId-beyond-2^53-refused',
  'categoryId-rounded-to-double',
  // Ids.
  'repeated-name-same-id',
  'parallel-creates-same-id',
  'pet-listed-twice',
  // getPet wrong answers.
  'unknown-id-gets-neighbour',
  'negative-id-500',
  'max-int64-id-500',
  'twenty-digit-id-500',
  'getPet-wrong-status',
  // listPets.
  'default-limit-ignored-with-status',
  'limit-ignored-with-status',
  'limit-50-500',
  'absurd-limit-500',
  'absurd-status-500',
  'non-ascii-status-500',
  'getPet-disagrees-with-list',
  'validates-before-auth',
  // The key where the interface does not put it, and media types beside application/json.
  'key-in-query-accepted',
  'key-in-cookie-accepted',
  'errors-as-problem-json',
  'long-id-414-as-text',
] as const;

export type Fault = (typeof FAULTS)[number];

interface Pet {
  id: number;
  name: string;
  categoryId: number | bigint;
  status?: string;
}

const STATUSES = ['available', 'pending', 'sold'];
const BASE = '/v1';
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export interface IndependentPetstore {
  url: string;
  close(): Promise<void>;
  /** Methods and paths of every request received, to assert what a run sent. */
  requests: string[];
  /** How many requests were answered 429 (with `rateLimit`). */
  limited: number;
}

export interface TargetOptions {
  key: string;
  fault?: Fault;
  /** How many pets it starts with (default 130). */
  seed?: number;
  /** Wait this long before answering each request: a target across a network. */
  delayMs?: number;
  /** Read a JSON body sent without a Content-Type as JSON (allowed: RFC 9110 §8.3), not a fault. */
  readsUntypedJson?: boolean;
  /** Read a JSON body under any media type label as JSON (allowed: 415 is a server's option), not a fault. */
  readsLabelledJson?: boolean;
  /** Answer 429 with Retry-After once more than this many requests arrive within one second. */
  rateLimit?: number;
  /**
   * Refuse a petId longer than this with 414 and an Error before authentication (allowed: RFC 9110 §15.5.15 lets a
   * server refuse a request target it will not interpret, and the interface sets no length).
   */
  maxPetIdLength?: number;
}

export async function startIndependentPetstore(options: TargetOptions): Promise<IndependentPetstore> {
  const { key, fault } = options;
  const pets: Pet[] = [];
  let nextId = 1000;
  const add = (pet: Omit<Pet, 'id'>) => {
    const stored = { id: nextId, ...pet };
    nextId += 7;
    pets.push(stored);
    return stored;
  };
  for (let i = 0; i < (options.seed ?? 130); i++) {
    add({ name: `Pet ${i}`, categoryId: (i % 5) + 1, ...(i % 4 === 3 ? {} : { status: STATUSES[i % 3]! }) });
  }
  // Pets from here on were created by clients (for the fault that skips auth on them).
  const firstClientId = nextId;
  const requests: string[] = [];
  const state = { limited: 0, window: 0, count: 0 };

  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    type = fault === 'errors-as-problem-json' && status >= 400
      ? 'application/problem+json'
      : 'application/json; charset=utf-8',
  ) => {
    res.writeHead(status, { 'content-type': type });
    res.end(
      fault === 'control-characters-unescaped'
        ? exactJson
            .stringify(body)
            .replace(/\\u00([01][0-9a-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : exactJson.stringify(body),
    );
  };
  const error = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { code, message, status });

  /** RFC 9110 §11.4: credentials = auth-scheme [ 1*SP token68 ], the scheme case-insensitive; RFC 6750 §2.1. */
  const authorised = (req: IncomingMessage, operation: string, petId?: bigint): boolean => {
    if (fault === 'auth-ignored-on-getPet' && operation === 'getPet') return true;
    if (
      fault === 'auth-skipped-on-later-pets' &&
      operation === 'getPet' &&
      petId !== undefined &&
      petId >= BigInt(firstClientId)
    )
      return true;
    if (fault === 'key-in-other-header-accepted' && req.headers['x-api-key'] === key) return true;
    if (
      fault === 'key-in-query-accepted' &&
      new URL(req.url ?? '/', 'http://localhost').searchParams.get('api_key') === key
    )
      return true;
    if (fault === 'key-in-cookie-accepted' && (req.headers.cookie ?? '').split(/;\s*/).includes(`api_key=${key}`))
      return true;
    const header = req.headers.authorization ?? '';
    if (fault === 'empty-token-accepted' && /^Bearer\s*$/.test(header)) return true;
    if (fault === 'bare-key-accepted' && header === key) return true;
    if (fault === 'extra-words-accepted') {
      const [scheme, token] = header.split(' ');
      return scheme?.toLowerCase() === 'bearer' && token === key;
    }
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +([A-Za-z0-9\-._~+/]+=*)$/.exec(header);
    if (!match) return false;
    const [, scheme, token] = match as unknown as [string, string, string];
    if (fault === 'wrong-scheme-accepted') return token === key;
    if (fault === 'lowercase-scheme-refused' ? scheme !== 'Bearer' : scheme.toLowerCase() !== 'bearer') return false;
    if (fault === 'key-with-suffix-accepted') return token.startsWith(key);
    if (fault === 'key-case-insensitive') return token.toLowerCase() === key.toLowerCase();
    return token === key;
  };

  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers.authorization ?? '';
    const token = header.split(' ')[1] ?? '';
    if (fault === 'same-length-wrong-key-403' && token.length === key.length && token !== key)
      return error(res, 403, 'FORBIDDEN', 'this key may not do that');
    if (fault === 'other-scheme-401-without-error' && /^(basic|token|digest|apikey)\s/i.test(header)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' });
      return res.end('unauthorised');
    }
    return error(res, 401, 'AUTH_REQUIRED', 'a valid bearer key is required');
  };

  const listPets = (res: ServerResponse, query: URLSearchParams) => {
    const raw = query.get('limit');
    const status = query.get('status');
    let limit = 20;
    if (raw !== null && /^-?\d+$/.test(raw)) {
      if (fault === 'absurd-limit-500' && raw.length > 15) return error(res, 500, 'INTERNAL', 'limit overflow');
      limit = Math.max(1, fault === 'limit-above-100-honoured' ? Number(raw) : Math.min(100, Number(raw)));
    } else if (raw !== null && fault === '500-on-non-numeric-limit')
      return error(res, 500, 'INTERNAL', 'limit parse failure');
    if (fault === 'limit-50-500' && limit >= 50) return error(res, 500, 'INTERNAL', 'page too large');
    if (fault === 'limit-ignored') limit = 20;
    if (status !== null && fault === 'default-limit-ignored-with-status' && raw === null) limit = Infinity;
    if (status !== null && fault === 'limit-ignored-with-status') limit = 20;
    if (status !== null && !STATUSES.includes(status)) {
      if (fault === 'absurd-status-500') return error(res, 500, 'INTERNAL', 'unknown status');
      if (fault === 'non-ascii-status-500' && /[^\x00-\x7f]/.test(status))
        return error(res, 500, 'INTERNAL', 'cannot encode status');
      return error(res, 422, 'INVALID_STATUS', `status must be one of ${STATUSES.join(', ')}`);
    }
    const matching =
      status === null || fault === 'status-filter-ignored' ? pets : pets.filter((p) => p.status === status);
    const page = matching.slice().reverse().slice(0, limit);
    if (fault === 'pet-listed-twice' && page.length > 1 && page.length < limit) page.push(page[0]!);
    return send(res, 200, page, fault === 'list-as-text-plain' ? 'text/plain' : undefined);
  };

  const createPet = async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.setEncoding('utf8');
    for await (const chunk of req) text += chunk;
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const charset = /;\s*charset=/i.test(req.headers['content-type'] ?? '');
    if (fault === 'charset-refused' && charset)
      return error(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'send application/json');
    if (type !== 'application/json' && !(options.readsUntypedJson && type === '') && !options.readsLabelledJson)
      return error(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json');
    let body: unknown;
    try {
      body = exactJson.parse(text);
    } catch {
      return error(res, 400, 'BAD_JSON', 'the body is not JSON');
    }
    if (fault === 'scalar-body-500' && (typeof body !== 'object' || body === null))
      return error(res, 500, 'INTERNAL', 'cannot read properties');
    const input = (Array.isArray(body) && fault === 'array-body-accepted' ? (body[0] ?? {}) : body) as Record<
      string,
      unknown
    >;
    if (fault === 'categoryId-string-coerced' && typeof input?.categoryId === 'string')
      input.categoryId = Number(input.categoryId);
    if (fault === 'status-null-accepted' && input?.status === null) delete input.status;
    if (fault === 'status-empty-accepted' && input?.status === '') delete input.status;
    if (fault === 'status-case-insensitive' && typeof input?.status === 'string')
      input.status = input.status.toLowerCase();
    if (fault === 'name-boolean-accepted' && typeof input?.name === 'boolean') input.name = String(input.name);
    if (fault === 'name-optional-with-status' && input && input.name === undefined && input.status !== undefined)
      input.name = 'unnamed';
    if (fault === 'categoryId-rounded-to-double' && typeof input?.categoryId === 'bigint')
      input.categoryId = BigInt(Number(input.categoryId));
    const isInt64 = (v: unknown) =>
      (typeof v === 'number' && Number.isSafeInteger(v)) ||
      (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX && fault !== 'categoryId-beyond-2^53-refused');
    const problem =
      typeof input !== 'object' || input === null || (Array.isArray(input) && fault !== 'array-body-accepted')
        ? 'the body must be an object'
        : typeof input.name !== 'string'
          ? 'name: required string'
          : !isInt64(input.categoryId)
            ? 'categoryId: required int64'
            : input.status !== undefined && !STATUSES.includes(input.status as string)
              ? 'status: unknown value'
              : undefined;
    if (problem) return error(res, 400, 'VALIDATION_FAILED', problem);
    let name = input.name as string;
    if (fault === 'non-ascii-mangled') name = name.replace(/[^\x00-\x7f]/g, '?');
    if (fault === 'long-name-truncated') name = [...name].slice(0, 64).join('');
    let categoryId = input.categoryId as number | bigint;
    if (fault === 'categoryId-int32-wrapped') categoryId = Number(BigInt.asIntN(32, BigInt(categoryId)));
    const fields: Omit<Pet, 'id'> = { name, categoryId, status: (input.status as string | undefined) ?? 'available' };
    if (fault === 'categoryId-zero-dropped' && !categoryId) delete (fields as Partial<Pet>).categoryId;
    if (fault === 'repeated-name-same-id') {
      const same = pets.find((p) => p.name === name);
      if (same) return send(res, 201, { ...fields, id: same.id });
    }
    let pet: Pet;
    if (fault === 'parallel-creates-same-id') {
      // Reads the next id, then "writes" after a pause: creates that overlap get the same one. The pause is wide
      // enough for the runner's creates sent at once to overlap when the machine is loaded (at 5 ms, one whole-file
      // run in three beside stress-ng saw them arrive one after another and the fault went unseen).
      const id = nextId;
      await new Promise((resolve) => setTimeout(resolve, 40));
      pet = { id, ...fields };
      pets.push(pet);
      nextId = id + 7;
    } else pet = fault === 'write-not-persisted' ? { id: nextId, ...fields } : add(fields);
    if (fault === 'write-not-persisted') nextId += 7;
    const answer: Record<string, unknown> = { ...pet };
    if (fault === 'createPet-drops-categoryId') delete answer.categoryId;
    return send(res, fault === 'createPet-answers-200' ? 200 : 201, answer);
  };

  const getPet = (res: ServerResponse, rawId: string) => {
    if (!/^-?\d+$/.test(rawId)) return error(res, 400, 'BAD_ID', 'petId must be an integer');
    const id = BigInt(rawId);
    if (fault === 'negative-id-500' && id < 0n) return error(res, 500, 'INTERNAL', 'negative index');
    if (fault === 'max-int64-id-500' && id === INT64_MAX) return error(res, 500, 'INTERNAL', 'overflow');
    if (fault === 'twenty-digit-id-500' && rawId.replace('-', '').length >= 20)
      return error(res, 500, 'INTERNAL', 'overflow');
    if (id < INT64_MIN || id > INT64_MAX) return error(res, 400, 'BAD_ID', 'petId must be an int64');
    let pet = pets.find((p) => BigInt(p.id) === id);
    if (pet && fault === 'getPet-returns-another-pet') pet = pets.find((p) => BigInt(p.id) !== id);
    if (!pet && fault === 'unknown-id-gets-neighbour') pet = pets.filter((p) => BigInt(p.id) < id).at(-1);
    if (!pet) {
      // Never answers: the connection stays open until the client gives up (close() ends it).
      if (fault === 'unknown-id-never-answers') return;
      if (fault === 'unknown-id-gets-400') return error(res, 400, 'BAD_ID', 'no such id');
      if (fault === 'not-found-body-wrong-shape') return send(res, 404, { error: 'not found' });
      return error(res, 404, 'PET_NOT_FOUND', `no pet ${id}`);
    }
    // Pets deep in the seeded list (not the first page a client reads first) come back with another category.
    if (fault === 'getPet-disagrees-with-list' && pets.indexOf(pet) < pets.length - 30)
      return send(res, 200, { ...pet, categoryId: BigInt(pet.categoryId) + 1n });
    if (fault === 'getPet-wrong-status')
      return send(res, 200, { ...pet, status: pet.status === 'sold' ? 'available' : 'sold' });
    return send(res, 200, fault === 'getPet-id-as-string' ? { ...pet, id: String(pet.id) } : pet);
  };

  const overLimit = (res: ServerResponse): boolean => {
    if (!options.rateLimit) return false;
    const second = Math.floor(Date.now() / 1000);
    if (second !== state.window) Object.assign(state, { window: second, count: 0 });
    if (++state.count <= options.rateLimit) return false;
    state.limited++;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ code: 'RATE_LIMITED', message: 'too many requests', status: 429 }));
    return true;
  };

  const server = createServer((req, res) => {
    if (options.delayMs) setTimeout(() => handle(req, res), options.delayMs);
    else handle(req, res);
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}`);
    if (overLimit(res)) return;
    const path = url.pathname.startsWith(`${BASE}/`) ? url.pathname.slice(BASE.length) : '';
    const item = /^\/pets\/([^/]+)$/.exec(path);
    const operation =
      path === '/pets' && req.method === 'GET'
        ? 'listPets'
        : path === '/pets' && req.method === 'POST'
          ? 'createPet'
          : item && req.method === 'GET'
            ? 'getPet'
            : undefined;
    if (!operation) return error(res, 404, 'NO_ROUTE', `no route ${req.method} ${url.pathname}`);
    const rawId = item ? decodeURIComponent(item[1]!) : undefined;
    const petId = rawId !== undefined && /^-?\d{1,19}$/.test(rawId) ? BigInt(rawId) : undefined;
    const maxPetIdLength = fault === 'long-id-414-as-text' ? 100 : options.maxPetIdLength;
    if (rawId !== undefined && maxPetIdLength !== undefined && rawId.length > maxPetIdLength) {
      if (fault !== 'long-id-414-as-text')
        return error(res, 414, 'URI_TOO_LONG', `petId is longer than ${maxPetIdLength} characters`);
      res.writeHead(414, { 'content-type': 'text/plain' });
      return res.end('URI Too Long');
    }
    // The interface's 401 rule has no condition; this fault judges the query first, so a bad limit without a key is a 400.
    if (
      fault === 'validates-before-auth' &&
      operation === 'listPets' &&
      url.searchParams.has('limit') &&
      !/^\d+$/.test(url.searchParams.get('limit')!)
    )
      return error(res, 400, 'BAD_LIMIT', 'limit must be an integer');
    if (!authorised(req, operation, petId)) return refuse(req, res);
    if (operation === 'listPets') return listPets(res, url.searchParams);
    if (operation === 'getPet') return getPet(res, rawId!);
    createPet(req, res).catch(() => error(res, 400, 'BAD_REQUEST', 'unreadable body'));
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    requests,
    get limited() {
      return state.limited;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
