import type { IncomingMessage, ServerResponse } from 'node:http';
import { body, error, send, type ResourceFault } from './resource-petstore.js';
import { photoWrites } from './resource-petstore-v12.js';

/**
 * The v1.1 document's other collections for test/targets/resource-petstore.ts, on the same plain node:http server:
 * /store/orders (its own ids, a readOnly placedAt filled in) and photos nested under a pet
 * (/pets/{petId}/photos, limit 1..10, default 5), whose items are reached only through their own pet and are gone
 * with it. Each fault of the collection oracles plants one bug here.
 */
type Row = Record<string, unknown> & { id: number };

const ORDER_STATUSES = ['placed', 'approved', 'delivered'];

export function moreCollections(
  fault: ResourceFault | undefined,
  pets: ReadonlyMap<number, unknown>,
): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> {
  const orders = new Map<number, Row>();
  const photos = new Map<number, Row>();
  let nextOrder = 1;
  let nextPhoto = 1;
  // 'order-ids-repeat': a create waits for a second one to arrive, and both get the same id (a counter read twice
  // before it is written, made certain).
  let waiting: { id: number; release: () => void } | undefined;

  async function orderId(): Promise<number> {
    if (fault !== 'order-ids-repeat') return nextOrder++;
    if (waiting) {
      const { id, release } = waiting;
      waiting = undefined;
      release();
      return id;
    }
    const id = nextOrder++;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      waiting = {
        id,
        release: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
    // Nobody came within the second: the next create starts a new pair.
    if ((waiting as { id: number } | undefined)?.id === id) waiting = undefined;
    return id;
  }

  async function ordersRoute(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const item = /^\/v1\/store\/orders\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/v1/store/orders' && req.method === 'GET') {
      const status = url.searchParams.get('status');
      send(
        res,
        200,
        [...orders.values()].filter((o) => status === null || o.status === status),
      );
      return true;
    }
    if (url.pathname === '/v1/store/orders' && req.method === 'POST') {
      const sent = (await body(req)) as Record<string, unknown> | undefined;
      const problem = invalidOrder(sent);
      if (problem) return (send(res, 400, error(400, problem)), true);
      const { petId, quantity, status } = sent!;
      const order = { id: await orderId(), petId, quantity, ...(status === undefined ? {} : { status }) } as Row;
      order.placedAt = '2026-01-02T03:04:05Z';
      orders.set(order.id, order);
      send(res, 201, order, { location: `/v1/store/orders/${order.id}` });
      return true;
    }
    if (!item) return false;
    const order = orders.get(Number(item[1]));
    if (!order) send(res, 404, error(404, 'not_found'));
    else if (req.method === 'GET') send(res, 200, order);
    else if (req.method === 'DELETE') removed(res, orders, order.id);
    else send(res, 405, error(405, 'method_not_allowed'));
    return true;
  }

  async function photosRoute(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const match = /^\/v1\/pets\/(\d+)\/photos(?:\/(\d+))?$/.exec(url.pathname);
    if (!match) return false;
    const petId = Number(match[1]);
    const photoId = match[2] === undefined ? undefined : Number(match[2]);
    const photo = photoId === undefined ? undefined : photos.get(photoId);
    // A photo of another pet is not found through this one; a photo of a deleted pet is gone with it.
    const reachable =
      photo !== undefined &&
      (fault === 'photo-any-parent' || photo.petId === petId) &&
      (fault === 'photos-outlive-pet' || pets.has(petId));
    if (photoId !== undefined) {
      if (!reachable) orphanOrNotFound(res, photo !== undefined && photo.petId === petId && !pets.has(petId));
      else if (await photoWrites(req, res, photos, photo, fault, invalidPhoto)) return true;
      else if (req.method === 'GET') send(res, 200, photo);
      else if (req.method === 'DELETE') removed(res, photos, photo.id);
      else send(res, 405, error(405, 'method_not_allowed'));
      return true;
    }
    if (!pets.has(petId)) {
      if (fault === 'orphan-photos-listed')
        send(
          res,
          200,
          [...photos.values()].filter((p) => p.petId === petId),
        );
      else if (fault === 'orphan-list-empty') send(res, 200, []);
      else send(res, 404, error(404, 'not_found'));
      return true;
    }
    if (req.method === 'GET') {
      const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : 5;
      const own = [...photos.values()].filter((p) => p.petId === petId);
      const page = fault === 'photos-short-page' ? own.slice(0, Math.min(limit, own.length) - 1) : own.slice(0, limit);
      send(res, 200, fault === 'photos-ignore-limit' ? own : page);
      return true;
    }
    const sent = (await body(req)) as Record<string, unknown> | undefined;
    const problem = invalidPhoto(sent);
    const storesRefused = fault === 'refused-photo-stores' || fault === 'refused-photo-stores-bare';
    if (problem && !storesRefused) return (send(res, 400, error(400, problem)), true);
    if (!problem && fault === 'photo-create-409') return (send(res, 409, error(409, 'conflict')), true);
    const { url: address, caption } = sent!;
    // The bare fault keeps a placeholder of the refused photo: none of the fields sent, a photo all the same.
    const fields =
      problem && fault === 'refused-photo-stores-bare'
        ? { url: 'https://example.com/placeholder' }
        : { url: address, ...(caption === undefined ? {} : { caption }) };
    const stored = { id: nextPhoto++, petId, ...fields } as Row;
    photos.set(stored.id, stored);
    if (problem) return (send(res, 400, error(400, problem)), true);
    const echoed = fault === 'photo-echo-drops-caption' ? { ...stored, caption: undefined } : stored;
    send(res, 201, echoed);
    return true;
  }

  /** The answer for a photo not reached: 404, or for a photo of a deleted pet what an orphan fault answers. */
  function orphanOrNotFound(res: ServerResponse, orphan: boolean): void {
    if (orphan && fault === 'orphan-photo-410') send(res, 410, error(410, 'gone'));
    else if (orphan && fault === 'orphan-photo-500') send(res, 500, error(500, 'internal'));
    else send(res, 404, error(404, 'not_found'));
  }

  /** 'pet-with-photos-409': the delete of a pet that has photos is refused (checked before the pets' own route). */
  function petDeleteRefused(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const pet = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
    if (fault !== 'pet-with-photos-409' || req.method !== 'DELETE' || !pet) return false;
    if (![...photos.values()].some((p) => p.petId === Number(pet[1]))) return false;
    send(res, 409, error(409, 'pet_has_photos'));
    return true;
  }

  return async (req, res, url) =>
    petDeleteRefused(req, res, url) || (await ordersRoute(req, res, url)) || photosRoute(req, res, url);
}

function removed(res: ServerResponse, rows: Map<number, Row>, id: number): void {
  rows.delete(id);
  send(res, 204);
}

function invalidOrder(sent: Record<string, unknown> | undefined): string {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return 'body must be an object';
  if (!Number.isInteger(sent.petId)) return 'body.petId must be an integer';
  if (!Number.isInteger(sent.quantity) || (sent.quantity as number) < 1) return 'body.quantity must be at least 1';
  if (sent.status !== undefined && !ORDER_STATUSES.includes(sent.status as string))
    return 'body.status must be an OrderStatus';
  return '';
}

function invalidPhoto(sent: Record<string, unknown> | undefined): string {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return 'body must be an object';
  if (typeof sent.url !== 'string' || !/^https?:\/\//.test(sent.url)) return 'body.url must be a URI';
  if (sent.caption !== undefined && typeof sent.caption !== 'string') return 'body.caption must be a string';
  return '';
}
