import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenAPIV3 } from 'openapi-types';
import { body, error, send } from './resource-petstore.js';

/**
 * The pets of the v1.1 document (test/fixtures/documents/petstore-v1.1.yaml) as other documents may declare them,
 * and a plain node:http service of each, sharing no code with the mock or the runner: ids that are UUIDs or free
 * strings, no 404 declared for an unknown id (the service answers 410 Gone), a PUT that may create (201 declared),
 * a delete answering 200 with the deleted pet, no Location declared, no PUT or no PATCH. Each fault plants one bug
 * an item oracle (src/contract/stateful/resource-oracles.ts) must catch under its own check id on such a document.
 */
export interface Variant {
  ids?: 'int64' | 'uuid' | 'string';
  /** The item operations declare 404 (default) or no answer at all for an unknown id. */
  notFound?: boolean;
  /** replacePet declares 201 too: a PUT to an id no pet has creates it (RFC 9110 §9.3.4). */
  putCreates?: boolean;
  /** createPet's 201 declares a Location header (default). */
  location?: boolean;
  /** The headers createPet's 201 declares instead (a Location or not). */
  createHeaders?: string[];
  /** createPet declares a 200 beside its 201, with no Location (the fault create-answers-200 answers it). */
  create200?: boolean;
  /** deletePet answers 200 with the deleted pet instead of 204. */
  deleteAnswersPet?: boolean;
  /** deletePet declares 409: the service may refuse to delete a pet (the fault delete-refused does, always). */
  deleteConflict?: boolean;
  /** Item operations the document leaves out. */
  without?: ('replace' | 'merge')[];
  /** The fields of the merge patch (PetPatch) that may be null, as v1.1 has them by default (categoryId, status, tag). */
  patchNullable?: string[];
  /** The only media type updatePet takes (v1.1: application/merge-patch+json). */
  patchMediaType?: string;
  /** The statuses createPet declares for a bad body (v1.1: 400); the service refuses with the first. */
  createRefusals?: string[];
}

export type VariantFault =
  | 'delete-keeps' // DELETE answers with a success and keeps the pet (use after free)
  | 'gone-is-500' // an unknown or deleted pet is answered 500 instead of a 4xx
  | 'location-missing' // a created pet is answered without the Location its 201 declares
  | 'unknown-delete-succeeds' // DELETE of an id no pet has answers with a success
  | 'refused-patch-applies' // a merge patch refused with 400 still stores its valid fields
  | 'invalid-put-accepted' // a PUT whose name is no string is answered 200 (and stored as a string)
  | 'patch-ignored' // a merge patch is answered 200 and changes nothing
  | 'refused-create-409' // a bad create is refused with 409, which the document does not declare for it
  | 'deleted-is-410' // a deleted pet is answered 410 Gone, where the document declares 404 for an unknown id
  | 'delete-refused' // DELETE of a pet is answered 409 and deletes nothing
  | 'refused-put-500' // a PUT with an invalid body is answered 500 instead of a 4xx
  | 'put-creates-undeclared' // a PUT to an id no pet has creates it (201), which the document does not declare
  | 'put-refused' // a valid PUT to a pet is answered 409 and changes nothing
  | 'put-not-idempotent' // a second PUT of a pet stores its name with a suffix (the first stores it as sent)
  | 'patch-refused' // a valid merge patch is answered 409 and changes nothing
  | 'unknown-put-400' // a PUT to an id no pet has is answered 400 (neither its 404 nor a 201)
  | 'create-answers-200' // a create is answered 200 without a Location (the document declares 201 with one)
  | 'created-unreadable' // a pet created after the seeds is answered 404 when read (it is listed all the same)
  | 'filter-misses-new' // a list filtered by tag leaves out every pet created after the seeds
  | 'ids-repeat'; // every pet created after the seeds gets the same id (the one after theirs), the last stored under it

const v11 = fileURLToPath(new URL('../fixtures/documents/petstore-v1.1.yaml', import.meta.url));

type Operation = OpenAPIV3.OperationObject;

/** The pets paths of the v1.1 document as `variant` declares them (orders, photos and the inventory left out). */
export function variantDocument(variant: Variant): OpenAPIV3.Document {
  const document = parse(readFileSync(v11, 'utf8')) as OpenAPIV3.Document;
  document.paths = { '/pets': document.paths['/pets'], '/pets/{petId}': document.paths['/pets/{petId}'] };
  const item = document.paths['/pets/{petId}']!;
  const petRef = { $ref: '#/components/schemas/Pet' };
  if (variant.ids && variant.ids !== 'int64') {
    const id = variant.ids === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string' };
    (item.parameters![0] as OpenAPIV3.ParameterObject).schema = id as OpenAPIV3.SchemaObject;
    const pet = document.components!.schemas!.Pet as { allOf: { properties: Record<string, unknown> }[] };
    pet.allOf[1]!.properties.id = id;
  }
  if (variant.notFound === false)
    for (const method of ['get', 'put', 'patch', 'delete'] as const)
      delete (item[method] as Operation).responses['404'];
  if (variant.putCreates)
    (item.put as Operation).responses['201'] = {
      description: 'Animal created at that id.',
      content: { 'application/json': { schema: petRef } },
    };
  if (variant.location === false)
    delete (document.paths['/pets']!.post!.responses['201'] as { headers?: unknown }).headers;
  if (variant.create200)
    document.paths['/pets']!.post!.responses['200'] = {
      description: 'The animal, already there.',
      content: { 'application/json': { schema: petRef } },
    };
  if (variant.createHeaders)
    (document.paths['/pets']!.post!.responses['201'] as { headers?: unknown }).headers = Object.fromEntries(
      variant.createHeaders.map((name) => [name, { description: `The ${name} header.`, schema: { type: 'string' } }]),
    );
  if (variant.deleteConflict)
    (item.delete as Operation).responses['409'] = { description: 'The animal cannot be deleted now.' };
  if (variant.deleteAnswersPet) {
    const responses = (item.delete as Operation).responses;
    delete responses['204'];
    responses['200'] = { description: 'The deleted animal.', content: { 'application/json': { schema: petRef } } };
  }
  if (variant.patchNullable) {
    const patch = document.components!.schemas!.PetPatch as { properties: Record<string, Record<string, unknown>> };
    for (const [name, schema] of Object.entries(patch.properties)) {
      delete schema.nullable;
      if (Array.isArray(schema.enum)) schema.enum = schema.enum.filter((value) => value !== null);
      if (variant.patchNullable.includes(name)) {
        schema.nullable = true;
        if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
      }
    }
  }
  if (variant.patchMediaType) {
    const content = (item.patch as Operation & { requestBody: OpenAPIV3.RequestBodyObject }).requestBody.content;
    content[variant.patchMediaType] = content['application/merge-patch+json']!;
    delete content['application/merge-patch+json'];
  }
  if (variant.createRefusals) {
    const responses = document.paths['/pets']!.post!.responses;
    delete responses['400'];
    for (const status of variant.createRefusals) responses[status] = { $ref: '#/components/responses/BadRequest' };
  }
  if (variant.without?.includes('replace')) delete item.put;
  if (variant.without?.includes('merge')) delete item.patch;
  return document;
}

export interface VariantPetstore {
  url: string;
  close(): Promise<void>;
}

type Pet = Record<string, unknown> & { id: number | string };

const STATUSES = ['available', 'pending', 'sold'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A service of `variantDocument(variant)` on loopback, with one planted fault if `fault` is given. */
export async function startVariantPetstore(
  key: string,
  variant: Variant,
  fault?: VariantFault,
): Promise<VariantPetstore> {
  const ids = variant.ids ?? 'int64';
  const patchType = variant.patchMediaType ?? 'application/merge-patch+json';
  const pets = new Map<string, Pet>();
  const deleted = new Set<string>();
  const replaced = new Set<string>();
  let next = 1;
  const newId = (): number | string => {
    const n = next++;
    if (ids === 'int64') return n;
    return ids === 'uuid' ? `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}` : `pet-${n}`;
  };
  for (const [status, tag] of [
    ['available', 'seed-a'],
    ['sold', 'seed-b'],
  ] as const) {
    const id = newId();
    pets.set(String(id), { id, name: `seed ${tag}`, categoryId: 1, status, tag });
  }
  const server = createServer((req, res) => void handle(req, res).catch(() => send(res, 500, error(500, 'internal'))));
  let origin = '';

  /** The answer for an id no pet has: the declared 404, else 410 Gone (any 4xx is right then). */
  function gone(res: ServerResponse): void {
    if (fault === 'gone-is-500') return send(res, 500, error(500, 'internal'));
    const status = variant.notFound === false ? 410 : 404;
    send(res, status, error(status, 'not_found'));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.authorization !== `Bearer ${key}`) return send(res, 401, error(401, 'unauthorized'));
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/v1/pets' && req.method === 'GET') return send(res, 200, list(url.searchParams));
    if (url.pathname === '/v1/pets' && req.method === 'POST') return create(res, await body(req));
    const item = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    if (!item) return send(res, 404, error(404, 'not_found'));
    const id = decodeURIComponent(item[1]!);
    if (ids === 'int64' ? !/^-?\d+$/.test(id) : ids === 'uuid' && !UUID.test(id))
      return send(res, 400, error(400, 'petId is no valid id'));
    const pet = pets.get(id);
    // The request is checked before the pet is looked up, as a framework's validation does: a wrong media type is a
    // 415 and a bad body a 400 whether the pet exists or not (either order is right; the oracles must send both well).
    const sent = req.method === 'PUT' || req.method === 'PATCH' ? await body(req) : undefined;
    if (req.method === 'PATCH' && !req.headers['content-type']?.startsWith(patchType))
      return send(res, 415, error(415, 'unsupported_media_type'));
    if (req.method === 'PATCH' && (typeof sent !== 'object' || sent === null || Array.isArray(sent)))
      return send(res, 400, error(400, 'body'));
    if (req.method === 'PUT' && !pet && fault === 'unknown-put-400') return send(res, 400, error(400, 'unknown'));
    if (req.method === 'PUT' && !pet && invalid(sent, true)) return send(res, 400, error(400, invalid(sent, true)));
    if (req.method === 'PUT' && (pet || variant.putCreates || fault === 'put-creates-undeclared'))
      return replace(res, id, pet, sent);
    if (!pet && fault === 'unknown-delete-succeeds' && req.method === 'DELETE') return send(res, 204);
    if (!pet && fault === 'deleted-is-410' && deleted.has(id)) return send(res, 410, error(410, 'gone'));
    if (!pet) return gone(res);
    if (req.method === 'GET' && fault === 'created-unreadable' && !String(pet.name).startsWith('seed'))
      return gone(res);
    if (req.method === 'GET') return send(res, 200, pet);
    if (req.method === 'DELETE') {
      if (fault === 'delete-refused') return send(res, 409, error(409, 'conflict'));
      if (fault !== 'delete-keeps') pets.delete(id);
      deleted.add(id);
      return variant.deleteAnswersPet ? send(res, 200, pet) : send(res, 204);
    }
    if (req.method === 'PATCH') return merge(res, pet, sent);
    send(res, 405, error(405, 'method_not_allowed'));
  }

  function list(query: URLSearchParams): Pet[] {
    const limit = query.has('limit') ? Number(query.get('limit')) : 20;
    return [...pets.values()]
      .filter((pet) => !query.has('status') || pet.status === query.get('status'))
      .filter((pet) => !query.has('tag') || pet.tag === query.get('tag'))
      .filter((pet) => fault !== 'filter-misses-new' || !query.has('tag') || String(pet.name).startsWith('seed'))
      .slice(0, limit);
  }

  function create(res: ServerResponse, sent: unknown): void {
    const problem = invalid(sent, true);
    const declared = variant.createRefusals?.find((status) => /^\d{3}$/.test(status));
    const refusal = fault === 'refused-create-409' ? 409 : Number(declared ?? 400);
    if (problem) return send(res, refusal, error(refusal, problem));
    if (fault === 'ids-repeat') next = 3;
    const pet = { ...stored(sent as Record<string, unknown>), id: newId() };
    pets.set(String(pet.id), pet);
    // An absolute Location with a query: RFC 9110 §10.2.2 allows any URI reference.
    const location = `${origin}/v1/pets/${encodeURIComponent(pet.id)}?created=1`;
    if (fault === 'create-answers-200') return send(res, 200, pet);
    send(res, 201, pet, fault === 'location-missing' ? {} : { location });
  }

  function replace(res: ServerResponse, id: string, pet: Pet | undefined, sent: unknown): void {
    const problem = invalid(sent, true);
    if (!problem && pet && fault === 'put-refused') return send(res, 409, error(409, 'conflict'));
    if (problem && fault === 'refused-put-500') return send(res, 500, error(500, 'internal'));
    if (problem && !(fault === 'invalid-put-accepted' && problem.startsWith('body.name')))
      return send(res, 400, error(400, problem));
    const fields = stored(sent as Record<string, unknown>);
    const again = fault === 'put-not-idempotent' && replaced.has(id);
    replaced.add(id);
    const name = `${String(fields.name)}${again ? ' (again)' : ''}`;
    const next = { ...fields, name, id: pet?.id ?? (ids === 'int64' ? Number(id) : id) };
    pets.set(id, next);
    send(res, pet ? 200 : 201, next);
  }

  function merge(res: ServerResponse, pet: Pet, patch: unknown): void {
    if (fault === 'patch-refused') return send(res, 409, error(409, 'conflict'));
    const nullable = variant.patchNullable ?? ['categoryId', 'status', 'tag'];
    const notNullable = Object.entries(patch as object).find(
      ([name, value]) => value === null && !nullable.includes(name),
    );
    if (notNullable) return send(res, 400, error(400, `body.${notNullable[0]} must not be null`));
    const next: Record<string, unknown> = { ...pet };
    for (const [name, value] of Object.entries(patch as object)) {
      if (value === null) delete next[name];
      else next[name] = value;
    }
    const problem = invalid(next, true);
    if (problem && fault === 'refused-patch-applies')
      for (const [name, value] of Object.entries(patch as object))
        if (value !== null && invalid({ ...pet, [name]: value }, true) === '') pet[name] = value;
    if (problem) return send(res, 400, error(400, problem));
    if (fault === 'patch-ignored') return send(res, 200, pet);
    pets.set(String(pet.id), next as Pet);
    send(res, 200, next);
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function stored(sent: Record<string, unknown>): Record<string, unknown> {
  const { name, categoryId, status, tag } = sent;
  return {
    name,
    categoryId,
    ...(status === undefined ? {} : { status }),
    ...(tag === undefined ? {} : { tag }),
  };
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
