import type { IncomingMessage, ServerResponse } from 'node:http';
import { body, error, send, type ResourceFault } from './resource-petstore.js';

/**
 * What the v1.2 document (test/fixtures/documents/petstore-v1.2.yaml) adds to test/targets/resource-petstore.ts, on
 * the same plain node:http server and sharing no code with the mock: a PUT that creates a pet at an id no pet has
 * (201; only with `putCreates`, as v1.1 declares no 201), a pet's PATCH as RFC 6902 JSON Patch (a failed `test`
 * answered 409, any other error 400, and nothing changed either way), and a photo's PUT and merge patch through its
 * pet's address. Each fault plants one bug the item oracles on a nested collection or the sequences must catch.
 */
export type V12Fault =
  | 'nested-put-merges' // a photo's PUT merges into the stored photo instead of replacing it
  | 'nested-delete-keeps' // a photo's DELETE answers 204 and keeps the photo
  | 'json-patch-remove-ignored' // a JSON Patch `remove` leaves the member as it was
  | 'json-patch-test-applies' // a JSON Patch whose `test` fails is answered 409, and its other operations stored
  | 'put-create-stores-nothing'; // a PUT to an id no pet has answers 201 and stores nothing

type Row = Record<string, unknown> & { id: number };

/** The largest id a PUT may create a pet at: past it the id would not survive a JavaScript number (answered 404). */
const LARGEST_CREATED = Number.MAX_SAFE_INTEGER;

/**
 * A PUT to an id no pet has: with `putCreates`, the pet is made at that id from a valid NewPet (201); otherwise, or
 * past the ids a number holds, the document's 404. `check` is resource-petstore.ts's NewPet check.
 */
export async function putToUnknownPet(
  req: IncomingMessage,
  res: ServerResponse,
  id: number,
  pets: Map<number, Row>,
  options: { putCreates: boolean; fault: ResourceFault | undefined; stored: (sent: Record<string, unknown>) => object },
  check: (sent: unknown) => string,
): Promise<void> {
  if (!options.putCreates || id < 1 || id > LARGEST_CREATED) return send(res, 404, error(404, 'not_found'));
  const sent = await body(req);
  const problem = check(sent);
  if (problem) return send(res, 400, error(400, problem));
  const pet = { ...options.stored(sent as Record<string, unknown>), id } as Row;
  if (options.fault !== 'put-create-stores-nothing') pets.set(id, pet);
  send(res, 201, pet);
}

/**
 * RFC 6902 on a pet, written for this target: add, remove, replace, move, copy and test on the pet's own members
 * (`/name`), applied in order to a copy; any error refuses the whole patch (§5), a failed `test` as 409 (RFC 5789
 * §2.2, conflicting state). The id stays; a result that is no valid pet is 400.
 */
export function jsonPatchPet(
  res: ServerResponse,
  pet: Row,
  patch: unknown,
  pets: Map<number, Row>,
  fault: ResourceFault | undefined,
  check: (sent: unknown) => string,
): void {
  if (!Array.isArray(patch)) return send(res, 400, error(400, 'body must be an array of operations'));
  const next: Record<string, unknown> = { ...pet };
  let failedTest = false;
  for (const operation of patch as Record<string, unknown>[]) {
    const outcome = applyOne(next, operation, fault);
    if (outcome === 'test-failed' && fault === 'json-patch-test-applies') {
      failedTest = true;
      continue;
    }
    if (outcome === 'test-failed') return send(res, 409, error(409, 'test_failed'));
    if (outcome) return send(res, 400, error(400, outcome));
  }
  next.id = pet.id;
  const problem = check(next);
  if (problem) return send(res, 400, error(400, problem));
  pets.set(pet.id, next as Row);
  if (failedTest) return send(res, 409, error(409, 'test_failed'));
  send(res, 200, next);
}

/** One operation on `pet` in place: '' when applied, 'test-failed', or why it cannot be. */
function applyOne(pet: Record<string, unknown>, operation: Record<string, unknown>, fault: ResourceFault | undefined) {
  if (typeof operation !== 'object' || operation === null) return 'an operation must be an object';
  const member = memberOf(operation.path);
  if (member === undefined) return `path ${String(operation.path)} names no member of a pet`;
  const has = Object.hasOwn(pet, member);
  switch (operation.op) {
    case 'add':
    case 'replace':
      if (!('value' in operation)) return 'value is required';
      if (operation.op === 'replace' && !has) return `no ${member} to replace`;
      pet[member] = operation.value;
      return '';
    case 'remove':
      if (!has) return `no ${member} to remove`;
      if (fault !== 'json-patch-remove-ignored') delete pet[member];
      return '';
    case 'test':
      return has && JSON.stringify(pet[member]) === JSON.stringify(operation.value) ? '' : 'test-failed';
    case 'move':
    case 'copy': {
      const from = memberOf(operation.from);
      if (from === undefined || !Object.hasOwn(pet, from)) return `no ${String(operation.from)} to ${operation.op}`;
      pet[member] = pet[from];
      if (operation.op === 'move' && from !== member) delete pet[from];
      return '';
    }
    default:
      return `op ${String(operation.op)} is not an RFC 6902 operation`;
  }
}

/** `/name` → `name` (RFC 6901, one level: a pet's members are scalars). */
function memberOf(pointer: unknown): string | undefined {
  if (typeof pointer !== 'string' || !/^\/[^/]+$/.test(pointer)) return undefined;
  return pointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * A photo's PUT (its url and caption replace the photo's whole; the id and pet stay), merge patch (RFC 7396: null
 * removes the caption) and, with 'nested-delete-keeps', DELETE. True when it answered.
 */
export async function photoWrites(
  req: IncomingMessage,
  res: ServerResponse,
  photos: Map<number, Row>,
  photo: Row,
  fault: ResourceFault | undefined,
  check: (sent: Record<string, unknown> | undefined) => string,
): Promise<boolean> {
  if (req.method === 'DELETE' && fault === 'nested-delete-keeps') return (send(res, 204), true);
  if (req.method !== 'PUT' && req.method !== 'PATCH') return false;
  const sent = (await body(req)) as Record<string, unknown> | undefined;
  if (req.method === 'PATCH' && !req.headers['content-type']?.startsWith('application/merge-patch+json'))
    return (send(res, 415, error(415, 'unsupported_media_type')), true);
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent))
    return (send(res, 400, error(400, 'body')), true);
  const next: Record<string, unknown> =
    req.method === 'PUT' && fault !== 'nested-put-merges' ? { id: photo.id, petId: photo.petId } : { ...photo };
  for (const [name, value] of Object.entries(sent)) {
    if (name === 'id' || name === 'petId') continue;
    if (value === null && req.method === 'PATCH') delete next[name];
    else next[name] = value;
  }
  const problem = check(next);
  if (problem) return (send(res, 400, error(400, problem)), true);
  photos.set(photo.id, next as Row);
  send(res, 200, next);
  return true;
}
