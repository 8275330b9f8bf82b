import { constOf, isSchemaNode, mainType, typesOf, type SchemaNode } from '../../openapi/schema-keywords.js';
import { minimalValue, objectLike, objectMembers, type ObjectMembers } from './minimal-value.js';
import { statusPhrase } from './status-phrases.js';

/** Where one member of a made-up error body takes its value from. */
export type FieldSource =
  /** The error's message, cut to the member's `maxLength`. */
  | { from: 'message'; max: number | undefined }
  /**
   * The error's kind (`not_found`); where the member's `enum` or `const` lists values, the one that is the kind in
   * other case or separators (`NOT_FOUND`), else `otherwise`.
   */
  | { from: 'kind'; allowed: readonly unknown[] | undefined; otherwise: unknown }
  | { from: 'fixed'; value: unknown };

export interface ErrorField {
  name: string;
  source: FieldSource;
}

/** A made-up error body for one schema: an object's members in order, or the message itself as a JSON string. */
export type ErrorShape = { fields: readonly ErrorField[] } | { message: true; max: number | undefined };

/**
 * Members that hold the message, most likely first (names compared in lower case without `_` or `-`, so
 * `error_description` is `errordescription`). The first free-text string member found in this order gets the
 * message; docs/mock.md "Errors in the document's words" lists the order.
 */
export const MESSAGE_NAMES = [
  'message',
  'detail',
  'errormessage',
  'errordescription',
  'description',
  'error',
  'title',
  'reason',
  'msg',
] as const;
/** RFC 9457 §3.1.4: in a problem, `detail` is the explanation and `title` the status's phrase (§4.2.1). */
const PROBLEM_MESSAGE_NAMES = ['detail', ...MESSAGE_NAMES.filter((name) => name !== 'detail' && name !== 'title')];
/** Message-like members that get the status's reason phrase once another member holds the message ("Not Found"). */
const PHRASE_NAMES = new Set(['error', 'title', 'reason', 'statustext']);
/** Members that name the error: an integer one gets the status, a string one the kind (`not_found`). */
export const CODE_NAMES = new Set(['code', 'errorcode']);
/** Members that hold the HTTP status: as a number, or as its digits where the member is a string. */
export const STATUS_NAMES = new Set(['status', 'statuscode', 'httpstatus', 'httpstatuscode', 'httpcode']);

/** RFC 9457 §4.2.1: "about:blank" says the problem has no semantics beyond the status code's. */
export const PROBLEM_TYPE = 'about:blank';
/** RFC 9457 §3.1's members in its order, for a problem schema that does not declare them itself. */
const PROBLEM_MEMBERS: ReadonlyArray<readonly [string, SchemaNode]> = [
  ['type', { type: 'string' }],
  ['title', { type: 'string' }],
  ['status', { type: 'integer' }],
  ['detail', { type: 'string' }],
];

/**
 * The shapes an error body for `schema` may take, most likely first: one per object branch of a top-level `oneOf` or
 * `anyOf` (the caller keeps the first its validator accepts), else one. A string schema takes the message itself.
 * Empty when the schema names no member to fill (absent, `{}`, `type: object` alone, an array): the mock's own
 * Error shape is then used, which such a schema accepts or the caller's validator says it does not. A `problem`
 * (`application/problem+json`) always has RFC 9457's members, unless `additionalProperties: false` leaves them out.
 */
export function errorShapes(schema: unknown, status: number, problem: boolean): ErrorShape[] {
  if (!isSchemaNode(schema)) return problem ? [objectShape(objectMembers(undefined), status, true)] : [];
  if (mainType(schema) === 'string') return [{ message: true, max: maxLength(schema) }];
  const branches = objectBranches(schema);
  const isObject = mainType(schema) === 'object' || objectLike(schema);
  if (!isObject && branches.length === 0) return problem ? [objectShape(objectMembers(undefined), status, true)] : [];
  const candidates =
    branches.length > 0
      ? branches.map((branch) => objectMembers(branch, objectMembers(schema)))
      : [objectMembers(schema)];
  const shapes = candidates
    .filter((members) => problem || members.properties.size > 0 || members.required.size > 0)
    .map((members) => objectShape(members, status, problem));
  // Of several branches, those that carry the message first (sort is stable: the document's order otherwise).
  return shapes.sort((a, b) => Number(carriesMessage(b)) - Number(carriesMessage(a)));
}

function carriesMessage(shape: ErrorShape): boolean {
  return 'message' in shape || shape.fields.some((field) => field.source.from === 'message');
}

/** The value of one shape for an error of `kind` with `message`. */
export function renderShape(shape: ErrorShape, kind: string, message: string): unknown {
  if (!('fields' in shape)) return cut(message, shape.max);
  const body: Record<string, unknown> = {};
  for (const { name, source } of shape.fields) body[name] = valueFrom(source, kind, message);
  return body;
}

function valueFrom(source: FieldSource, kind: string, message: string): unknown {
  switch (source.from) {
    case 'message':
      return cut(message, source.max);
    case 'kind':
      return !source.allowed ? kind : (source.allowed.find((value) => sameWords(value, kind)) ?? source.otherwise);
    default:
      return source.value;
  }
}

function cut(message: string, max: number | undefined): string {
  return max !== undefined && message.length > max ? message.slice(0, max) : message;
}

/** The branches of a top-level `oneOf`/`anyOf` that describe objects. */
function objectBranches(schema: SchemaNode): SchemaNode[] {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return branches.filter(
    (branch): branch is SchemaNode => isSchemaNode(branch) && (mainType(branch) === 'object' || objectLike(branch)),
  );
}

/**
 * The members an error body writes, in declaration order (a problem's undeclared RFC 9457 members first): the message
 * member, code and status members, a problem's RFC members, and every required member; optional others are left out.
 */
function objectShape(members: ObjectMembers, status: number, problem: boolean): ErrorShape {
  const declared = new Map<string, unknown>();
  if (problem && !members.closed)
    for (const [name, schema] of PROBLEM_MEMBERS) if (!members.properties.has(name)) declared.set(name, schema);
  for (const [name, schema] of members.properties) declared.set(name, schema);
  for (const name of members.required) if (!declared.has(name)) declared.set(name, {});
  const names: readonly string[] = problem ? PROBLEM_MESSAGE_NAMES : MESSAGE_NAMES;
  const messageMember = findMessageMember(declared, names);
  const fields: ErrorField[] = [];
  for (const [name, schema] of declared) {
    const source = sourceFor(name, schema, {
      status,
      problem,
      isMessage: name === messageMember,
      required: members.required.has(name) || (problem && PROBLEM_MEMBERS.some(([member]) => member === name)),
      messageLike: names.includes(normalName(name)) || PHRASE_NAMES.has(normalName(name)),
    });
    if (source) fields.push({ name, source });
  }
  return { fields };
}

interface MemberFacts {
  status: number;
  problem: boolean;
  isMessage: boolean;
  required: boolean;
  messageLike: boolean;
}

function sourceFor(name: string, schema: unknown, facts: MemberFacts): FieldSource | undefined {
  const key = normalName(name);
  if (facts.isMessage) return { from: 'message', max: maxLength(schema) };
  if (CODE_NAMES.has(key)) return codeSource(schema, facts.status);
  const status = STATUS_NAMES.has(key) ? statusSource(schema, facts.status) : undefined;
  if (status) return status;
  if (facts.problem && name === 'type') return fixed(schema, PROBLEM_TYPE);
  if (!facts.required) return undefined;
  if (facts.messageLike && freeText(schema))
    return PHRASE_NAMES.has(key)
      ? { from: 'fixed', value: statusPhrase(facts.status) }
      : { from: 'message', max: maxLength(schema) };
  return { from: 'fixed', value: minimalValue(schema) };
}

/** The first member, by the order of `names`, that takes any string. */
function findMessageMember(declared: ReadonlyMap<string, unknown>, names: readonly string[]): string | undefined {
  let found: string | undefined;
  let rank = names.length;
  for (const [name, schema] of declared) {
    const at = names.indexOf(normalName(name));
    if (at !== -1 && at < rank && freeText(schema)) {
      found = name;
      rank = at;
    }
  }
  return found;
}

/** A code member: the status where it is a number (petstore-expanded's `code: integer`), else the error's kind. */
function codeSource(schema: unknown, status: number): FieldSource {
  const types = typesOf(schema);
  if (types && !types.includes('string'))
    return types.includes('integer') || types.includes('number')
      ? fixed(schema, status)
      : { from: 'fixed', value: minimalValue(schema) };
  const allowed = listedValues(schema);
  // An enum of codes: the kind's own (`NOT_FOUND` for not_found), else the status phrase's, else the first.
  const phrase = allowed?.find((value) => sameWords(value, statusPhrase(status)));
  return { from: 'kind', allowed, otherwise: phrase ?? minimalValue(schema) };
}

/** `NOT_FOUND`, `not-found` and `Not Found` are the same words. */
function sameWords(value: unknown, words: string): boolean {
  return typeof value === 'string' && normalName(value) === normalName(words);
}

function statusSource(schema: unknown, status: number): FieldSource | undefined {
  const types = typesOf(schema);
  if (!types || types.includes('integer') || types.includes('number')) return fixed(schema, status);
  if (types.includes('string')) return fixed(schema, String(status));
  return undefined;
}

/** `value`, unless the schema's `enum` or `const` leaves it out: then the least value the schema takes. */
function fixed(schema: unknown, value: unknown): FieldSource {
  const allowed = listedValues(schema);
  return { from: 'fixed', value: !allowed || allowed.includes(value) ? value : minimalValue(schema) };
}

function listedValues(schema: unknown): readonly unknown[] | undefined {
  const constant = constOf(schema);
  if (constant) return [constant.value];
  return isSchemaNode(schema) && Array.isArray(schema.enum) ? schema.enum : undefined;
}

/** A member any text fits: a string (or no type) without `enum`, `const`, `pattern` or `format`. */
function freeText(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isSchemaNode(schema)) return false;
  const types = typesOf(schema);
  if (types && !types.includes('string')) return false;
  return schema.enum === undefined && !('const' in schema) && schema.pattern === undefined && !schema.format;
}

function maxLength(schema: unknown): number | undefined {
  return isSchemaNode(schema) && typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
}

/** `error_description` → `errordescription`: names compared without case, `_`, `-` or spaces. */
function normalName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, '');
}
