import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { moreCollections } from './resource-petstore-more.js';
import { jsonPatchPet, putToUnknownPet, type V12Fault } from './resource-petstore-v12.js';

/**
 * A pets service of the v1.1 document (test/fixtures/documents/petstore-v1.1.yaml) on plain node:http, sharing no
 * code with the mock or the runner: create, list (limit, status, tag), read, replace (PUT), merge patch (RFC 7396)
 * and delete, in memory. Each fault plants one bug a stateful oracle must catch under its own check id.
 */
export type ResourceFault =
  | 'delete-keeps' // DELETE answers 204 and keeps the pet (use after free)
  | 'put-merges' // PUT merges into the stored pet instead of replacing it
  | 'patch-ignores-null' // a null in a merge patch leaves the field as it was
  | 'drops-tag' // the new optional field `tag` is accepted and never stored
  | 'ignores-filter' // the list ignores `tag` and `status`
  | 'refused-put-applies' // a PUT refused with 400 still stores its valid fields
  | 'unknown-delete-succeeds' // DELETE of an id no pet has answers 204
  // The collection oracles' faults (orders and photos in resource-petstore-more.ts):
  | 'refused-create-stores' // a create refused with 400 stores the pet anyway
  | 'valid-create-409' // every valid create of a pet is answered 409 Conflict (an invalid one still 400)
  | 'photo-create-409' // the same for a photo
  | 'refused-create-stores-valid' // the same, its wrong field stored made valid (a string): a pet the schema accepts
  | 'refused-photo-stores' // the same for a photo
  | 'refused-photo-stores-bare' // a refused photo is stored as a placeholder: a photo, none of the fields sent
  | 'order-ids-repeat' // two orders created at once get the same id
  | 'photo-any-parent' // a photo is reached through any pet's path
  | 'photos-outlive-pet' // a deleted pet's photos are still read through its path
  | 'orphan-photo-410' // a deleted pet's photo is answered 410 Gone (404 otherwise)
  | 'orphan-photo-500' // a deleted pet's photo is answered 500
  | 'orphan-photos-listed' // the photo list of a deleted pet answers 200 with its photos (a read of one is 404)
  | 'orphan-list-empty' // the photo list of a deleted pet answers 200 [] instead of 404
  | 'pet-with-photos-409' // the delete of a pet that has photos is refused with 409
  | 'photos-ignore-limit' // the photos list ignores limit and its default
  | 'photos-short-page' // the photos list gives one photo fewer than it should (than its limit, or than there are)
  | 'photo-echo-drops-caption' // a created photo is answered without its caption (stored all the same)
  | 'delete-keeps-listed' // a deleted pet reads as 404 but stays in the list
  | 'wrong-location' // a created pet's Location names the next id
  | 'create-answers-other-status' // a created pet is answered with another status than sent (stored as sent)
  // The v1.2 document's faults (nested item oracles, JSON Patch and PUT-create in sequences): resource-petstore-v12.ts.
  | V12Fault;

export interface ResourcePetstore {
  url: string;
  close(): Promise<void>;
}

type Pet = Record<string, unknown> & { id: number };

const STATUSES = ['available', 'pending', 'sold'];

/**
 * `delayMs`: every answer that late, as a deployment that far away (the long suite's 40 ms). `reuseIds`: a new pet
 * gets the smallest id no pet holds, so the id of a deleted pet is soon given again (to another client's pet, when
 * several write at once): allowed, and no fault. `putCreates`: a PUT to an id no pet has creates it (201), as the
 * v1.2 document allows.
 */
export async function startResourcePetstore(
  key: string,
  fault?: ResourceFault,
  delayMs = 0,
  reuseIds = false,
  putCreates = false,
): Promise<ResourcePetstore> {
  const pets = new Map<number, Pet>();
  const listedAfterDelete = new Map<number, Pet>();
  const more = moreCollections(fault, pets);
  let nextId = 1;
  // Pets of other tags and statuses, so that a filter that is ignored shows.
  for (const [status, tag] of [
    ['available', 'seed-a'],
    ['sold', 'seed-b'],
    ['pending', 'seed-c'],
  ] as const)
    pets.set(nextId, { id: nextId++, name: `seed ${tag}`, categoryId: 1, status, tag });
  const server = createServer((req, res) => {
    const answer = () => void handle(req, res).catch(() => send(res, 500, error(500, 'internal')));
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.authorization !== `Bearer ${key}`) return send(res, 401, error(401, 'unauthorized'));
    const url = new URL(req.url ?? '/', 'http://x');
    const item = /^\/v1\/pets\/(-?\d+)$/.exec(url.pathname);
    if (url.pathname === '/v1/pets' && req.method === 'GET') return send(res, 200, list(url.searchParams));
    if (url.pathname === '/v1/pets' && req.method === 'POST') return create(res, await body(req));
    if (await more(req, res, url)) return;
    if (!item) return send(res, 404, error(404, 'not_found'));
    const pet = pets.get(Number(item[1]));
    if (!pet && req.method === 'PUT')
      return putToUnknownPet(req, res, Number(item[1]), pets, { putCreates, fault, stored }, isNotPet);
    if (!pet && fault === 'unknown-delete-succeeds' && req.method === 'DELETE') return send(res, 204);
    if (!pet) return send(res, 404, error(404, 'not_found'));
    if (req.method === 'GET') return send(res, 200, pet);
    if (req.method === 'DELETE') {
      if (fault === 'delete-keeps-listed') listedAfterDelete.set(pet.id, pet);
      if (fault !== 'delete-keeps') pets.delete(pet.id);
      return send(res, 204);
    }
    if (req.method === 'PUT') return replace(res, pet, await body(req));
    if (req.method === 'PATCH' && req.headers['content-type']?.startsWith('application/json-patch+json'))
      return jsonPatchPet(res, pet, await body(req), pets, fault, isNotPet);
    if (req.method === 'PATCH') return merge(req, res, pet, await body(req));
    send(res, 405, error(405, 'method_not_allowed'));
  }

  function list(query: URLSearchParams): Pet[] {
    const limit = query.has('limit') ? Number(query.get('limit')) : 20;
    return [...pets.values(), ...listedAfterDelete.values()]
      .filter((pet) => fault === 'ignores-filter' || !query.has('status') || pet.status === query.get('status'))
      .filter((pet) => fault === 'ignores-filter' || !query.has('tag') || pet.tag === query.get('tag'))
      .slice(0, limit);
  }

  function create(res: ServerResponse, sent: unknown): void {
    const problem = invalid(sent, true);
    const storesRefused = fault === 'refused-create-stores' || fault === 'refused-create-stores-valid';
    if (problem && !storesRefused) return send(res, 400, error(400, problem));
    if (!problem && fault === 'valid-create-409') return send(res, 409, error(409, 'conflict'));
    if (reuseIds) for (nextId = 1; pets.has(nextId);) nextId++;
    const fields = stored(sent as Record<string, unknown>);
    if (problem && fault === 'refused-create-stores-valid') fields.name = String(fields.name);
    const pet: Pet = { ...fields, id: nextId++ };
    pets.set(pet.id, pet);
    if (problem) return send(res, 400, error(400, problem));
    const answered =
      fault === 'create-answers-other-status' ? { ...pet, status: pet.status === 'sold' ? 'available' : 'sold' } : pet;
    send(res, 201, answered, { location: `/v1/pets/${fault === 'wrong-location' ? pet.id + 1 : pet.id}` });
  }

  function replace(res: ServerResponse, pet: Pet, sent: unknown): void {
    const problem = invalid(sent, true);
    if (problem && fault === 'refused-put-applies') Object.assign(pet, validFields(sent));
    if (problem) return send(res, 400, error(400, problem));
    const next = { ...(fault === 'put-merges' ? pet : {}), ...stored(sent as Record<string, unknown>), id: pet.id };
    pets.set(pet.id, next);
    send(res, 200, next);
  }

  function merge(req: IncomingMessage, res: ServerResponse, pet: Pet, patch: unknown): void {
    if (!req.headers['content-type']?.startsWith('application/merge-patch+json'))
      return send(res, 415, error(415, 'unsupported_media_type'));
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return send(res, 400, error(400, 'body'));
    const next: Record<string, unknown> = { ...pet };
    for (const [name, value] of Object.entries(patch)) {
      if (value === null) {
        if (fault !== 'patch-ignores-null') delete next[name];
      } else next[name] = value;
    }
    const problem = invalid(next, true);
    if (problem) return send(res, 400, error(400, problem));
    pets.set(pet.id, next as Pet);
    send(res, 200, next);
  }

  function stored(sent: Record<string, unknown>): Record<string, unknown> {
    const { name, categoryId, status, tag } = sent;
    return {
      name,
      categoryId,
      ...(status === undefined ? {} : { status }),
      ...(tag === undefined || fault === 'drops-tag' ? {} : { tag }),
    };
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function isNotPet(sent: unknown): string {
  return invalid(sent, true);
}

/** Why a NewPet is invalid, or ''. */
function invalid(sent: unknown, whole: boolean): string {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return 'body must be an object';
  const pet = sent as Record<string, unknown>;
  if (whole && typeof pet.name !== 'string') return 'body.name must be a string';
  if (whole && !Number.isInteger(pet.categoryId)) return 'body.categoryId must be an integer';
  if (pet.status !== undefined && !STATUSES.includes(pet.status as string)) return 'body.status must be a PetStatus';
  if (pet.tag !== undefined && (typeof pet.tag !== 'string' || pet.tag.length > 40))
    return 'body.tag must be a string of at most 40';
  return '';
}

function validFields(sent: unknown): Record<string, unknown> {
  if (typeof sent !== 'object' || sent === null) return {};
  return Object.fromEntries(
    Object.entries(sent).filter(([name, value]) => invalid({ name: 'x', categoryId: 1, [name]: value }, true) === ''),
  );
}

export function error(status: number, code: string): { code: string; message: string; status: number } {
  return { code, message: code, status };
}

export async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

export function send(res: ServerResponse, status: number, value?: unknown, headers: Record<string, string> = {}): void {
  const text = value === undefined ? '' : JSON.stringify(value);
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(text);
}
