/**
 * The resource model's plain data: what the document says its resources are (collections, items, ids, each
 * operation's role). No functions, no compiled validators, no class instances: it prints with JSON.stringify and
 * compares with toEqual. Built by buildResourceModel (resource-model.ts); read by the mock's store and handlers and
 * by the contract runner.
 */

/** What an operation does to a collection or an item, read from its method and path (resource-roles.ts). */
export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'merge' | 'delete';

/** How the mock assigns ids: an int64 counter per collection, a counter as a string, or a random UUID. */
export type IdKind = 'int64' | 'string' | 'uuid';

/** The two PATCH formats with a meaning the mock can apply: RFC 7396 merge patch and RFC 6902 JSON Patch. */
export type PatchFormat = 'merge-patch' | 'json-patch';

/** The document's resources and every operation's role. */
export interface ResourceModel {
  /** Collections in the document's path order; a nested collection comes after its parent. */
  collections: ResourceCollection[];
  /** Every operation of the document, in document order: its role, or `none` and why. */
  operations: OperationRole[];
}

/** A collection `/X` and its items `/X/{param}`. */
export interface ResourceCollection {
  /** The literal segments of the path joined by `/`: `pets`, `store/orders`, `pets/photos`. Unique in a model. */
  name: string;
  /** The collection's path template as the document writes it: `/pets`, `/pets/{petId}/photos`. */
  path: string;
  /** The item's path template, `/pets/{petId}`; undefined when the document has none. */
  itemPath: string | undefined;
  /** The item path's last parameter, `petId`; undefined without an item path. */
  itemParameter: string | undefined;
  /** For a collection under an item (`/pets/{petId}/photos`): that item's collection. */
  parent: ParentLink | undefined;
  id: IdRule;
  /** The schema of one item as answered (read's 200, else create's success, else list's items), dereferenced. */
  itemSchema: object | undefined;
  /** The properties the item schema declares (allOf parts merged); undefined when its shape is unknown. */
  itemProperties: string[] | undefined;
  /**
   * Properties an answer requires that no create request supplies and the mock fills in: the `readOnly` or
   * server-only required ones, the id and the parent's property excluded (those have rules of their own).
   */
  assigned: string[];
  /** The operations with a role, by role. */
  operations: Partial<Record<ResourceRole, ResourceOperation>>;
  /** The list's query parameters named like a property of the item. */
  filters: Filter[];
  /** The list's `limit` parameter and its bounds; undefined when the list declares none. */
  limit: LimitRule | undefined;
  /** The list's query parameters that are neither a filter nor the limit, and why the mock does not apply them. */
  ignoredParameters: { parameter: string; reason: string }[];
  /**
   * Whether an answer of the collection's operations marks a member `writeOnly` (OAS 3.0.3 §4.7.25: "SHOULD NOT be
   * sent as part of the response"): the mock then leaves such members out of its answers (omit-write-only.ts).
   */
  answersWriteOnly: boolean;
  /**
   * Whether a stored item may lack a member its answer requires: the item schema holds a member that is no plain
   * value (an object, an array, a composition) or requires one it does not describe. The mock then completes what
   * it stores (src/mock/handlers/complete-required.ts); v1's pets, four plain members, never need it.
   */
  completesItems: boolean;
}

/** Which property holds an item's id, and how the mock makes one. */
export interface IdRule {
  property: string;
  kind: IdKind;
  /** `convention` (`petId`, `orderId`, `id` → `id`; else the parameter's own name) or the `x-petstore-kit-id` extension. */
  source: 'convention' | 'extension';
  /**
   * Whether a client names the id: the create's request body declares the id property and neither it nor the item
   * schema marks it `readOnly` (OpenAPI 3.0.3 §4.7.24.1). Then an id the client sends is the item's id, and the mock
   * assigns one only when the client sends none.
   */
  clientSends: boolean;
  /**
   * The status a create gets when the id the client sends is taken: 409 (RFC 9110 §15.5.10, a conflict with the
   * resource's state) unless the create declares 400 and not 409, then 400 (docs/mock.md, Ids).
   */
  takenStatus: 400 | 409;
}

/** A nested collection's parent: the collection whose item path prefixes this one. */
export interface ParentLink {
  /** The parent collection's name. */
  collection: string;
  /** The path parameter that holds the parent's id, `petId` in `/pets/{petId}/photos`. */
  parameter: string;
  /** The item property named like that parameter, filled from the path; undefined when the item has none. */
  property: string | undefined;
}

/** A list filter: a query parameter named like a property of the item; items match when the property equals it. */
export interface Filter {
  parameter: string;
  property: string;
  /** An array parameter (`?tag=a&tag=b`): an item matches any of the values. */
  many: boolean;
}

/** The list's page size parameter, with the bounds and default the document gives it. */
export interface LimitRule {
  parameter: string;
  minimum: number | undefined;
  maximum: number | undefined;
  default: number | undefined;
}

/** One answer the document declares for an operation. */
export interface DeclaredAnswer {
  /** The HTTP status to send. */
  status: number;
  /** The key it is declared under in `responses`: `201`, `4XX`, `default`. */
  declared: string;
  /** The JSON media type of the answer and its schema; undefined when the answer has no JSON body. */
  mediaType: string | undefined;
  schema: object | undefined;
  /** The headers the document declares for the answer (`Location`), as written. */
  headers: string[];
}

/** An operation with a role, and what the mock needs of it. */
export interface ResourceOperation {
  operationId: string;
  method: string;
  path: string;
  role: ResourceRole;
  /** The JSON request body: its media types, schema and the properties stored of it (undefined: shape unknown). */
  request: RequestRule | undefined;
  /** For `merge`: the PATCH formats the operation accepts, by media type. */
  patchFormats: { format: PatchFormat; mediaType: string }[];
  /** The success answer the mock gives (create prefers 201, delete 204, the others 200). */
  success: DeclaredAnswer;
  /** The answer for an unknown id or parent: the declared `404`, else `4XX`, else `default`; else undefined. */
  notFound: DeclaredAnswer | undefined;
  /** Every status key the operation declares, as written. */
  statuses: string[];
  /**
   * For a list whose answer is an object holding the items in one array property (`{data: [...], links: {...}}`):
   * that property's name. Absent when the answer is the array itself (list-wrapper.ts).
   */
  wrapper?: string;
}

export interface RequestRule {
  required: boolean;
  mediaType: string;
  schema: object | undefined;
  /** The properties the schema declares (allOf merged): what is stored. Undefined when the shape is unknown. */
  properties: string[] | undefined;
}

/** Every operation's place in the model: a role on a collection, or none and the reason. */
export interface OperationRole {
  operationId: string;
  method: string;
  path: string;
  role: ResourceRole | 'none';
  /** The collection's name; undefined for `none`. */
  collection: string | undefined;
  /** Why: the rule that gave the role, or why no role fits. */
  reason: string;
}
