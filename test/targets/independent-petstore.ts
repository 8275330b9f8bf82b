import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Petstore API v1 written from the interface document alone, on plain node:http, sharing no code with the mock.
 * It differs from the mock wherever the interface lets it: it clamps an out-of-range `limit` and ignores a
 * non-numeric one instead of answering 400, answers 422 for an unknown `status` filter and 400 for a non-integer
 * id, uses its own error codes, lists newest first, gives a pet created without status the status "available",
 * numbers pets from 1000 in steps of 7, holds more pets than one page shows, and sends no deprecation headers.
 *
 * Each `Fault` breaks exactly one thing, so that the contract suite can be shown to catch it.
 */
export type Fault =
  | 'auth-ignored-on-getPet'
  | 'wrong-scheme-accepted'
  | 'empty-token-accepted'
  | 'getPet-id-as-string'
  | 'createPet-drops-categoryId'
  | 'createPet-answers-200'
  | 'limit-ignored'
  | 'limit-above-100-honoured'
  | 'status-filter-ignored'
  | 'write-not-persisted'
  | '500-on-non-numeric-limit'
  | 'not-found-body-wrong-shape'
  | 'list-as-text-plain'
  | 'getPet-returns-another-pet'
  | 'unknown-id-gets-400'
  | 'categoryId-string-coerced'
  | 'unknown-id-never-answers';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const STATUSES = ['available', 'pending', 'sold'];
const BASE = '/v1';

export interface IndependentPetstore {
  url: string;
  close(): Promise<void>;
  /** Methods and paths of every request received, to assert what a run sent. */
  requests: string[];
}

export async function startIndependentPetstore(options: { key: string; fault?: Fault; seed?: number }): Promise<IndependentPetstore> {
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
  const requests: string[] = [];

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8') => {
    res.writeHead(status, { 'content-type': type });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, message: string) => send(res, status, { code, message, status });

  const authorised = (req: IncomingMessage, operation: string): boolean => {
    if (fault === 'auth-ignored-on-getPet' && operation === 'getPet') return true;
    const header = req.headers.authorization ?? '';
    if (fault === 'empty-token-accepted' && /^Bearer\s*$/.test(header)) return true;
    const [scheme, token] = header.split(' ');
    if (fault === 'wrong-scheme-accepted') return token === key;
    return scheme === 'Bearer' && token === key;
  };

  const listPets = (res: ServerResponse, query: URLSearchParams) => {
    const raw = query.get('limit');
    let limit = 20;
    if (raw !== null && /^-?\d+$/.test(raw)) limit = Math.max(1, fault === 'limit-above-100-honoured' ? Number(raw) : Math.min(100, Number(raw)));
    else if (raw !== null && fault === '500-on-non-numeric-limit') return error(res, 500, 'INTERNAL', 'limit parse failure');
    if (fault === 'limit-ignored') limit = 20;
    const status = query.get('status');
    if (status !== null && !STATUSES.includes(status)) return error(res, 422, 'INVALID_STATUS', `status must be one of ${STATUSES.join(', ')}`);
    const matching = status === null || fault === 'status-filter-ignored' ? pets : pets.filter((p) => p.status === status);
    const page = matching.slice().reverse().slice(0, limit);
    return send(res, 200, page, fault === 'list-as-text-plain' ? 'text/plain' : undefined);
  };

  const createPet = async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return error(res, 400, 'BAD_JSON', 'the body is not JSON');
    }
    const input = body as Record<string, unknown>;
    if (fault === 'categoryId-string-coerced' && typeof input?.categoryId === 'string') input.categoryId = Number(input.categoryId);
    const problem =
      typeof body !== 'object' || body === null || Array.isArray(body) ? 'the body must be an object'
      : typeof input.name !== 'string' ? 'name: required string'
      : !Number.isSafeInteger(input.categoryId) ? 'categoryId: required integer'
      : input.status !== undefined && !STATUSES.includes(input.status as string) ? 'status: unknown value'
      : undefined;
    if (problem) return error(res, 400, 'VALIDATION_FAILED', problem);
    const fields = { name: input.name as string, categoryId: input.categoryId as number, status: (input.status as string | undefined) ?? 'available' };
    const pet = fault === 'write-not-persisted' ? { id: nextId, ...fields } : add(fields);
    if (fault === 'write-not-persisted') nextId += 7;
    const answer: Record<string, unknown> = { ...pet };
    if (fault === 'createPet-drops-categoryId') delete answer.categoryId;
    return send(res, fault === 'createPet-answers-200' ? 200 : 201, answer);
  };

  const getPet = (res: ServerResponse, rawId: string) => {
    if (!/^\d+$/.test(rawId)) return error(res, 400, 'BAD_ID', 'petId must be an integer');
    const id = Number(rawId);
    let pet = pets.find((p) => p.id === id);
    if (pet && fault === 'getPet-returns-another-pet') pet = pets.find((p) => p.id !== id);
    if (!pet) {
      // Never answers: the connection stays open until the client gives up (close() ends it).
      if (fault === 'unknown-id-never-answers') return;
      if (fault === 'unknown-id-gets-400') return error(res, 400, 'BAD_ID', 'no such id');
      if (fault === 'not-found-body-wrong-shape') return send(res, 404, { error: 'not found' });
      return error(res, 404, 'PET_NOT_FOUND', `no pet ${id}`);
    }
    return send(res, 200, fault === 'getPet-id-as-string' ? { ...pet, id: String(pet.id) } : pet);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}`);
    const path = url.pathname.startsWith(`${BASE}/`) ? url.pathname.slice(BASE.length) : '';
    const item = /^\/pets\/([^/]+)$/.exec(path);
    const operation = path === '/pets' && req.method === 'GET' ? 'listPets' : path === '/pets' && req.method === 'POST' ? 'createPet' : item && req.method === 'GET' ? 'getPet' : undefined;
    if (!operation) return error(res, 404, 'NO_ROUTE', `no route ${req.method} ${url.pathname}`);
    if (!authorised(req, operation)) return error(res, 401, 'AUTH_REQUIRED', 'a valid bearer key is required');
    if (operation === 'listPets') return listPets(res, url.searchParams);
    if (operation === 'getPet') return getPet(res, decodeURIComponent(item![1]!));
    createPet(req, res).catch(() => error(res, 400, 'BAD_REQUEST', 'unreadable body'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
