import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { exactJson } from './exact-json.js';

/**
 * The Petstore API v1 as a team writes it on plain node:http: the list streamed pet by pet (`res.write` per pet, so
 * the body leaves in many chunks), gzip through a zlib stream when the client accepts it, the key checked first,
 * int64-exact JSON. Each fault is what node:http and JavaScript do when nobody says otherwise.
 */
export const NODE_HTTP_FAULTS = [
  // JSON.parse and JSON.stringify: a categoryId beyond 2^53 comes back rounded.
  'json-parse-precision',
  // res.end(JSON.stringify(…)) with no Content-Type set: node:http sends none.
  'no-content-type',
  // A missing pet answered as node:http's own examples answer: 404 "Not Found" as text.
  'missing-pet-as-text',
] as const;

export type NodeHttpFault = (typeof NODE_HTTP_FAULTS)[number];

const STATUSES = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

interface Pet {
  id: number;
  name: string;
  categoryId: number | bigint;
  status?: string;
}

export interface NodeHttpPetstore {
  url: string;
  close(): Promise<void>;
}

export async function startNodeHttpPetstore(options: {
  key: string;
  fault?: NodeHttpFault;
  /** Every request is handled this many milliseconds late (a target across a network). */
  delayMs?: number;
}): Promise<NodeHttpPetstore> {
  const { key, fault } = options;
  const json =
    fault === 'json-parse-precision'
      ? {
          parse: JSON.parse as (text: string) => unknown,
          stringify: (value: unknown) =>
            JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
        }
      : exactJson;
  const pets: Pet[] = Array.from({ length: 30 }, (_, i) => ({
    id: 100 + i,
    name: `Pet ${i}`,
    categoryId: i % 3,
    status: STATUSES[i % 3]!,
  }));
  let nextId = 200;

  /** The answer's body, gzip-compressed through a stream when asked (RFC 9110 §8.4), written in the pieces given. */
  const answer = (req: IncomingMessage, res: ServerResponse, status: number, pieces: string[]) => {
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const headers: Record<string, string> = fault === 'no-content-type' ? {} : { 'content-type': 'application/json' };
    if (gzip) headers['content-encoding'] = 'gzip';
    res.writeHead(status, headers);
    const out = gzip ? createGzip({ chunkSize: 64 }) : res;
    if (gzip) out.pipe(res);
    for (const piece of pieces) out.write(piece);
    out.end();
  };
  const error = (req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string) =>
    answer(req, res, status, [json.stringify({ code, message, status })]);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const item = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    const known = url.pathname === '/v1/pets' || item !== null;
    if (!known || (item && req.method !== 'GET') || (!item && req.method !== 'GET' && req.method !== 'POST'))
      return error(req, res, 404, 'not_found', `no route ${req.method} ${url.pathname}`);
    const [scheme, token, extra] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || token !== key || extra !== undefined)
      return error(req, res, 401, 'unauthorized', 'a valid bearer key is required');
    if (item) return getPet(req, res, decodeURIComponent(item[1]!));
    if (req.method === 'GET') return listPets(req, res, url.searchParams);
    createPet(req, res).catch(() => error(req, res, 400, 'bad_request', 'the body cannot be read'));
  };
  const server = createServer((req, res) =>
    options.delayMs ? void setTimeout(() => handle(req, res), options.delayMs) : handle(req, res),
  );

  const listPets = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => {
    const limitText = query.get('limit') ?? '20';
    const status = query.get('status');
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100)
      return error(req, res, 400, 'bad_limit', 'limit must be an integer from 1 to 100');
    if (status !== null && !STATUSES.includes(status))
      return error(req, res, 400, 'bad_status', `status must be one of ${STATUSES.join(', ')}`);
    const page = pets.filter((pet) => status === null || pet.status === status).slice(0, Number(limitText));
    // Streamed as teams stream a list: the bracket, then each pet as it is serialised.
    answer(req, res, 200, ['[', ...page.map((pet, i) => `${i ? ',' : ''}${json.stringify(pet)}`), ']']);
  };

  const createPet = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return error(req, res, 415, 'unsupported_media_type', 'send application/json');
    let body: Record<string, unknown>;
    try {
      body = json.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return error(req, res, 400, 'bad_json', 'the body is not JSON');
    }
    const isInt64 = (v: unknown) =>
      (typeof v === 'number' && Number.isInteger(v) && (fault === 'json-parse-precision' || Number.isSafeInteger(v))) ||
      (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX);
    const problem =
      typeof body !== 'object' || body === null || Array.isArray(body)
        ? 'the body must be an object'
        : typeof body.name !== 'string'
          ? 'name: a string is required'
          : !isInt64(body.categoryId)
            ? 'categoryId: an int64 is required'
            : body.status !== undefined && !STATUSES.includes(body.status as string)
              ? 'status: not a PetStatus'
              : undefined;
    if (problem) return error(req, res, 400, 'validation_failed', problem);
    const pet: Pet = {
      id: nextId++,
      name: body.name as string,
      categoryId: body.categoryId as number | bigint,
      ...(body.status !== undefined ? { status: body.status as string } : {}),
    };
    pets.push(pet);
    answer(req, res, 201, [json.stringify(pet)]);
  };

  const getPet = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (!/^-?\d{1,19}$/.test(raw) || BigInt(raw) < INT64_MIN || BigInt(raw) > INT64_MAX)
      return error(req, res, 400, 'bad_id', 'petId must be an int64');
    const pet = pets.find((p) => BigInt(p.id) === BigInt(raw));
    if (!pet && fault === 'missing-pet-as-text') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('Not Found');
    }
    if (!pet) return error(req, res, 404, 'not_found', `no pet ${raw}`);
    answer(req, res, 200, [json.stringify(pet)]);
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
