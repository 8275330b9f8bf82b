import { isDeepStrictEqual } from 'node:util';
import type { ResourceCollection, ResourceOperation } from '../../openapi/resource-types.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { CaseContext, Sent } from '../engine/run-case.js';
import { taggedName } from '../base/session.js';
import { sameInteger, show } from '../generate/same-pet.js';
import { createdIdOf } from '../transport/created-items.js';
import { sampleBody } from './sample-body.js';
import { refusedAsTaken, withFreshId } from '../base/fresh-ids.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { parameterValue } from '../../openapi/parameter-text.js';
import { lowerBound, upperBound } from '../../openapi/schema-keywords.js';

/** One item this case created: what was sent, its id as the target gave it (text, for a path). */
export interface CreatedItem {
  sent: Record<string, unknown>;
  id: string;
  created: Sent;
}

/**
 * The requests an oracle sends to one collection, by role, all from the resource model: the operation ids, the id
 * property, the bodies from the request schemas. Items it creates are deleted at the end (`cleanUp`) where the
 * document has a delete; what it could not delete is said in a note.
 */
export class ItemRequests {
  private readonly made: string[] = [];
  /** For a nested collection: the parent's path parameter and id (`{ petId: '7' }`), sent with every request. */
  parentPath: Record<string, string> = {};

  constructor(
    readonly ctx: CaseContext,
    readonly collection: ResourceCollection,
    /** Fields of the create the fixed cases judge already (resource-oracles.ts, JudgedElsewhere). */
    readonly judgedElsewhere: readonly string[] = [],
    private readonly filtersJudged: readonly string[] = [],
    /** Item operations whose unknown id the fixed cases judge. */
    readonly judgedElsewhereOperations: readonly string[] = [],
  ) {}

  /** An item the target created on its own (a PUT to an unknown id answered 201): cleaned up like the others. */
  adopt(id: string): void {
    this.made.push(id);
  }

  judgedFilters(): readonly string[] {
    return this.filtersJudged;
  }

  role(role: keyof ResourceCollection['operations']): ResourceOperation | undefined {
    return this.collection.operations[role];
  }

  /** Whether the document's own validator takes `body` for `operation` (true where it has none). */
  accepts(operation: ResourceOperation, body: unknown): boolean {
    const validate = this.ctx.session.spec.operationById.get(operation.operationId)?.body?.validate;
    return !validate || validate(body);
  }

  /**
   * A valid body for `operation` (every declared field), checked with the document's own validator; a create's with
   * an id of its own where the client names ids (fresh-ids.ts), so that no two creates of a run name one id.
   */
  body(
    operation: Pick<ResourceOperation, 'operationId' | 'request'>,
    label: string,
    variant = 0,
  ): Record<string, unknown> {
    const sample = sampleBody(operation.request?.schema, taggedName(this.ctx.session, label), variant);
    const validate = this.ctx.session.spec.operationById.get(operation.operationId)?.body?.validate;
    if (!sample || (validate && !validate(sample)))
      this.ctx.skip(
        `no valid body could be made from the schema of ${operation.operationId} (a format, a pattern or an unknown shape)`,
      );
    const create = this.collection.operations.create;
    return create && operation === create
      ? withFreshId(this.ctx.session, this.collection, sample, (body) => this.accepts(create, body))
      : sample;
  }

  /**
   * Creates an item (`override` replaces fields of the sample body, checked by the caller); fails `check` (and ends
   * the case as not run) when a valid create is not answered with a 2xx and an id.
   */
  async create(
    label: string,
    check: Parameters<CaseContext['verify']>[0],
    override: Record<string, unknown> = {},
  ): Promise<CreatedItem> {
    const create = this.role('create')!;
    let sent = { ...this.body(create, label), ...override };
    let created = await this.ctx.send({ operation: create.operationId, ...this.under(), json: sent });
    // An id an item has already (a seed's, another client's): the refusal is the server's right; once more, fresh.
    if (
      override[this.collection.id.property] === undefined &&
      (await refusedAsTaken(this.collection, sent, created.status, (id) => this.send('read', id)))
    ) {
      sent = { ...this.body(create, label), ...override };
      created = await this.ctx.send({ operation: create.operationId, ...this.under(), json: sent });
    }
    if (refusedForItsOwnReason(this.collection, created.status))
      ({ sent, created } = await this.createSmaller(sent, created, override));
    if (
      !this.ctx.verify(
        check,
        created,
        succeeded(created),
        `a 2xx to a valid ${create.operationId} (${create.success.status} declared)`,
      )
    )
      this.ctx.notRun(`${create.operationId} did not create an item to check`);
    // The item as the answer names it: its id in the body, else its Location (a 201 declared without content).
    const id = createdIdOf(created, this.collection);
    if (id === undefined)
      this.ctx.notRun(
        `${create.operationId} answered neither a ${this.collection.id.property} nor a Location to read the item by`,
      );
    this.made.push(id);
    return { sent, id, created };
  }

  /**
   * After a refusal of the server's own, the same create with the optional fields left out (the fields a reference
   * to another item can only be among): the document's smallest valid body, which refers to nothing. Still refused
   * so, the case is skipped with the target's reason: nothing the document fixes is left to judge, and no failure.
   */
  private async createSmaller(
    refused: Record<string, unknown>,
    answer: Sent,
    override: Record<string, unknown>,
  ): Promise<{ sent: Record<string, unknown>; created: Sent }> {
    const create = this.role('create')!;
    const required = objectShape(create.request?.schema).required;
    const smaller = {
      ...Object.fromEntries(Object.entries(refused).filter(([name]) => required.includes(name))),
      ...override,
    };
    const status = (sent: Sent) => `${create.operationId} answered ${sent.status}, a refusal it declares`;
    if (isDeepStrictEqual(smaller, refused) || !this.accepts(create, smaller))
      this.ctx.skip(`${status(answer)} for a reason of its own, and no smaller valid body to try: nothing to judge`);
    const created = await this.ctx.send({ operation: create.operationId, ...this.under(), json: smaller });
    if (refusedForItsOwnReason(this.collection, created.status))
      this.ctx.skip(`${status(created)} for a reason of its own, also to its smallest valid body: nothing to judge`);
    return { sent: smaller, created };
  }

  /**
   * Creates an item from `sent` (a body the document's validator takes) and returns it, or undefined when the target
   * did not answer a 2xx with an id: for items a check only uses (its judgement is another check's).
   */
  async tryCreate(sent: Record<string, unknown>): Promise<CreatedItem | undefined> {
    const created = await this.ctx.send({ operation: this.role('create')!.operationId, ...this.under(), json: sent });
    const id = (created.body as Record<string, unknown> | undefined)?.[this.collection.id.property];
    if (!succeeded(created) || (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint'))
      return undefined;
    this.made.push(String(id));
    return { sent, id: String(id), created };
  }

  /**
   * Ends the case as not run when a delete it needed got a refusal for the item's state that the delete declares (a
   * 409 for an item that still has children): the document lets the target refuse, so there is nothing left to
   * judge, and no failure. Deletes only: a create, a PUT or a patch of the case's own making conflicts with nothing.
   */
  stopIfDeleteRefused(sent: Sent): void {
    const remove = this.role('delete')!;
    if (declaredRefusal(remove, sent.status))
      this.ctx.notRun(`${remove.operationId} answered ${sent.status}, a refusal it declares: nothing left to judge`);
  }

  send(
    role: keyof ResourceCollection['operations'],
    id: string,
    extra: { json?: unknown; contentType?: string } = {},
  ): Promise<Sent> {
    const operation = this.role(role)!;
    // An item the case made, out of the operation's reach by the document: nothing it fixes is left to judge.
    const far = this.made.includes(id) ? outOfReach(this.ctx.session.spec, this.collection, operation, id) : undefined;
    if (far) this.ctx.skip(far);
    return this.ctx.send({
      operation: operation.operationId,
      path: { ...this.parentPath, [this.collection.itemParameter!]: id },
      ...extra,
    });
  }

  list(query: Record<string, string>): Promise<Sent> {
    return this.ctx.send({ operation: this.role('list')!.operationId, ...this.under(), query });
  }

  /** An item deleted by the case itself (or with its parent): clean-up leaves it. */
  forget(id: string): void {
    const at = this.made.indexOf(id);
    if (at >= 0) this.made.splice(at, 1);
  }

  /** The URL of item `id` as the document places it: the base URL and the item path, the parent's id filled in. */
  itemUrl(id: string): string {
    const values: Record<string, string> = { ...this.parentPath, [this.collection.itemParameter!]: id };
    const path = this.collection.itemPath!.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(values[name] ?? ''),
    );
    return `${this.ctx.session.config.baseUrl}${path}`;
  }

  /** The parent's path parameter of a nested collection's create and list; nothing for a top-level one. */
  under(): { path?: Record<string, string> } {
    return Object.keys(this.parentPath).length === 0 ? {} : { path: this.parentPath };
  }

  /** Deletes what this case created, where the document has a delete; a note names what is left behind. */
  async cleanUp(deleted: ReadonlySet<string> = new Set()): Promise<void> {
    const left = this.made.filter((id) => !deleted.has(id));
    if (left.length === 0) return;
    if (!this.role('delete')) {
      this.ctx.note(
        'resource.cleanup',
        `${this.collection.path}: the document has no delete; left behind: ${left.join(', ')}`,
      );
      return;
    }
    for (const id of left) await this.send('delete', id);
  }
}

/**
 * A nested collection's parent collection when the oracles can reach it: a top-level one with a create and an item
 * path (deeper nesting is not reached). Undefined for a top-level collection, or one whose parent they cannot make.
 */
export function reachableParent(spec: Spec, collection: ResourceCollection): ResourceCollection | undefined {
  if (!collection.parent) return undefined;
  const parent = spec.resources.collections.find((c) => c.name === collection.parent!.collection);
  return parent && !parent.parent && parent.operations.create && parent.itemParameter ? parent : undefined;
}

/**
 * A valid request body for an item operation, so that only the id or the path can be wrong: none for a read or a
 * delete, a full body for a PUT, a merge patch of every declared field for a merge-patch PATCH, and an empty RFC 6902
 * JSON Patch (`[]`: no operation, valid on any item) for a PATCH that takes only JSON Patch, where its schema allows
 * it. Undefined when the PATCH takes neither.
 */
export function itemRequest(
  items: ItemRequests,
  operation: ResourceOperation,
  label: string,
): { json?: unknown; contentType?: string } | undefined {
  if (operation.role === 'replace') return { json: items.body(operation, label) };
  if (operation.role !== 'merge') return {};
  const merge = operation.patchFormats.find((f) => f.format === 'merge-patch');
  if (merge) return { json: items.body(operation, label), contentType: merge.mediaType };
  const jsonPatch = operation.patchFormats.find((f) => f.format === 'json-patch');
  // Only where the document's schema for the body takes it: a body the document refuses would make the target's
  // 400 right, and the answer about the id unknowable.
  const validate = items.ctx.session.spec.operationById.get(operation.operationId)?.body?.validate;
  if (!jsonPatch || (validate && !validate([]))) return undefined;
  return { json: [], contentType: jsonPatch.mediaType };
}

/**
 * Why a 201's `Location` does not name item `id` of the collection that created it, or undefined when it does. RFC
 * 9110 §10.2.2: the field "consists of a single URI-reference", a relative one computed "by resolving it against the
 * target URI" (the create's URL); it names the created resource, so it resolves to the item's path under that
 * collection (`/v1/store/orders/5`, never `/v1/pets/5`). On another origin (a gateway's public address, a path prefix of its own) the path must still end
 * with the item's path below the base URL.
 */
export function locationMismatch(items: ItemRequests, created: Sent, id: string): string | undefined {
  const location = created.headers.location;
  if (!location) return 'no Location';
  const mismatch = itemPathMismatch(items, location, created.url, id);
  return mismatch && `Location ${show(location)}, ${mismatch}`;
}

/**
 * Why the URI reference `reference`, resolved against `against` (RFC 3986 §5.2), does not name item `id` of the
 * collection, or undefined when it does: on the base URL's origin its path is the item's path; on another origin (a
 * gateway's public address, a path prefix of its own) its path ends with the item's path below the base URL. Read
 * as an address, never fetched.
 */
export function itemPathMismatch(
  items: ItemRequests,
  reference: string,
  against: string,
  id: string,
): string | undefined {
  let resolved: URL;
  let expected: URL;
  try {
    resolved = new URL(reference, against);
    expected = new URL(items.itemUrl(id));
  } catch {
    return 'which is no URI reference';
  }
  const base = new URL(items.ctx.session.config.baseUrl).pathname.replace(/\/+$/, '');
  const ok =
    resolved.origin === expected.origin
      ? resolved.pathname === expected.pathname
      : resolved.pathname.endsWith(expected.pathname.slice(base.length));
  return ok ? undefined : `which resolves to ${resolved.pathname}`;
}

/** The first field of `sent` that `item` does not hold as sent (integers compared as int64), or undefined. */
export function differenceFrom(sent: Record<string, unknown>, item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return `no object but ${show(item)}`;
  for (const [name, value] of Object.entries(sent)) {
    const got = (item as Record<string, unknown>)[name];
    const same = typeof value === 'number' ? sameInteger(got, value) || got === value : isDeepStrictEqual(got, value);
    if (!same) return `${name} ${show(got)} instead of ${show(value)}`;
  }
  return undefined;
}

/** Whether an answer's status is a success. */
/**
 * Whether `status` refuses a request for the state of its target, as `operation` declares it may: 409 (RFC 9110
 * §15.5.10: "the request could not be completed due to a conflict with the current state of the target resource")
 * or 423 Locked (RFC 4918 §11.3), written out among its answers by number. Not 400 or 422 (the request is valid) nor
 * `4XX` and `default`, which declare no particular refusal.
 */
/**
 * Whether a valid create got a 4xx its operation declares for a reason the document leaves to the server (a 404 or
 * 409 for an item the body refers to, RFC 9110 §15.5.5, §15.5.10), not for the body's shape: a 400 or 415 (the body
 * refused as malformed, as round-trip-cases.ts reads them too), 401 and 403 (the credentials) are not such reasons.
 * Top-level collections only: a nested create names the parent the run made, so its 404 is resource.nested-parent's
 * to judge.
 */
export function refusedForItsOwnReason(collection: ResourceCollection, status: number | undefined): boolean {
  const create = collection.operations.create;
  if (!create || collection.parent || status === undefined || status < 400 || status > 499) return false;
  return ![400, 401, 403, 415].includes(status) && create.statuses.includes(String(status));
}

export function declaredRefusal(operation: ResourceOperation, status: number | undefined): boolean {
  return (status === 409 || status === 423) && operation.statuses.includes(String(status));
}

/**
 * Whether a create's body has a field the fixed cases do not judge (`judged`: the fields they judge, by the create's
 * operationId; none of this collection's when it has no entry).
 */
export function judgesMoreFields(
  collection: ResourceCollection,
  judged: ReadonlyMap<string, readonly string[]>,
): boolean {
  const fields = judged.get(collection.operations.create!.operationId);
  return (
    fields === undefined || (collection.operations.create!.request?.properties ?? []).some((p) => !fields.includes(p))
  );
}

export function succeeded(sent: Sent): boolean {
  return sent.status !== undefined && sent.status >= 200 && sent.status < 300;
}

/**
 * `valid` with one string field of the item (`sample`) sent as a number, the first whose break the update's schema
 * (`accepts`) refuses; undefined when none does.
 */
export function brokenByName(
  sample: Record<string, unknown>,
  valid: Record<string, unknown>,
  accepts: (json: unknown) => boolean,
): { json: Record<string, unknown>; name: string } | undefined {
  for (const name of Object.keys(sample)) {
    if (typeof sample[name] !== 'string') continue;
    const json = { ...valid, [name]: 12345 };
    if (!accepts(json)) return { json, name };
  }
  return undefined;
}

/**
 * A PUT body naming the item's key (the collection's id property) with the item's own value, `current[property]`:
 * the path names the item a PUT replaces (RFC 9110 §9.3.4), and whether a body naming another key renames the item,
 * is refused or is ignored the document does not say (Swagger Petstore 3's `PUT /user/{username}`); the replacement
 * is judged on the rest. The body as it was where either names no key, or the document refuses the item's own.
 */
export function keyedAs(
  collection: ResourceCollection,
  body: Record<string, unknown>,
  current: Record<string, unknown>,
  accepts: (json: unknown) => boolean,
): Record<string, unknown> {
  const { property } = collection.id;
  if (!(property in body) || current[property] === undefined) return body;
  const keyed = { ...body, [property]: current[property] };
  return accepts(keyed) ? keyed : body;
}

/**
 * Why `operation` cannot address the item `id` (its item parameter's schema refuses the id: readme's petstore reads
 * orders by an `orderId` of 1 to 10 only, "Other values will generated exceptions"), or undefined when it can. The
 * document puts such an item out of reach: a read of it judges nothing the document fixes.
 */
export function outOfReach(
  spec: Spec,
  collection: ResourceCollection,
  operation: Pick<ResourceOperation, 'operationId'>,
  id: string,
): string | undefined {
  const name = collection.itemParameter;
  const described = spec.operationById.get(operation.operationId);
  const parameter = described?.parameters.find((p) => p.in === 'path' && p.name === name);
  if (!parameter) return undefined;
  const value = parameterValue(parameter, [id]);
  if ('value' in value && parameter.validate(value.value)) return undefined;
  const declared = [...(described!.object.parameters ?? [])].find(
    (p) => 'name' in p && p.name === name && p.in === 'path',
  ) as { schema?: unknown } | undefined;
  const bounds = [
    ['minimum', lowerBound(declared?.schema)],
    ['maximum', upperBound(declared?.schema)],
  ].flatMap(([word, bound]) => (bound && typeof bound === 'object' ? [`${word as string} ${bound.value}`] : []));
  return `${operation.operationId} takes no ${name} ${id} (its schema${bounds.length > 0 ? `: ${bounds.join(', ')}` : ' refuses it'}), the id the target gave the item the run created: the document puts the item out of its reach`;
}
