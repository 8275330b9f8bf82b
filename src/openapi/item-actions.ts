import type { Operation } from './operations.js';
import type { ResourceCollection, ResourceModel } from './resource-types.js';
import { optedOut } from './resource-roles.js';

/**
 * An operation that acts on one existing item of a collection without being one of the collection's roles: a path
 * that is an item path followed by literal segments (`POST /bookings/{bookingId}/payment`, `POST
 * /pet/{petId}/uploadImage`), or the item path itself under a method with no role there (`POST /pet/{petId}`). Read
 * from the document alone, as the resource model is, so the mock and the runner agree on which operations act on an
 * item (the mock answers such an action on an item it does not hold with the document's 404; the runner sends it to
 * items it made).
 */
export interface ItemAction {
  /** The collection whose item the operation acts on: `/bookings` for `POST /bookings/{bookingId}/payment`. */
  collection: ResourceCollection;
  /**
   * The item path's parameter names (the model's, `bookingId`) mapped to the operation's own at the same place:
   * OpenAPI 3.1 §4.8.8 (Path Templating Matching) matches templates by place, so `/bookings/{id}/payment` acts on `/bookings/{bookingId}`.
   */
  names: Record<string, string>;
}

const TEMPLATE = /^\{([^{}]+)\}$/;

/**
 * The item `operation` acts on, or undefined when it is no action on an item: it has a role of its own (or the user
 * opted it out with `x-petstore-kit-role: none`), or no collection's item path prefixes its path with only literal
 * segments after it. The longest such item path wins (`/pets/{petId}/photos/{photoId}/like` acts on a photo).
 * @example itemActionOf(spec.resources, spec.operationById.get('create-booking-payment')!)?.collection.path // '/bookings'
 */
export function itemActionOf(model: ResourceModel, operation: Operation): ItemAction | undefined {
  const placed = model.operations.find((o) => o.operationId === operation.id);
  if (!placed || placed.role !== 'none' || optedOut(operation)) return undefined;
  const segments = segmentsOf(operation.path);
  let found: ItemAction | undefined;
  let longest = -1;
  for (const collection of model.collections) {
    if (!collection.itemPath) continue;
    const prefix = segmentsOf(collection.itemPath);
    if (prefix.length > segments.length || prefix.length <= longest) continue;
    if (segments.slice(prefix.length).some((segment) => segment.includes('{'))) continue;
    const names = alignedNames(prefix, segments);
    if (!names) continue;
    found = { collection, names };
    longest = prefix.length;
  }
  return found;
}

/** The template names of `prefix` mapped to those of `segments` at the same places, or undefined where they differ. */
function alignedNames(prefix: string[], segments: string[]): Record<string, string> | undefined {
  const names: Record<string, string> = {};
  for (const [index, segment] of prefix.entries()) {
    const own = segments[index]!;
    const template = TEMPLATE.exec(segment);
    if (!template) {
      if (own !== segment) return undefined;
      continue;
    }
    const mine = TEMPLATE.exec(own);
    if (!mine) return undefined;
    names[template[1]!] = mine[1]!;
  }
  return names;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}
