import { child, escapeSegment, follow, type Located } from './located.js';
import { generateValue, NoValue } from './generate-value.js';
import type { IndependentValidator } from './independent-validator.js';
import type { Document } from './read-document.js';
import { credentialsFor, type Credentials } from './credentials.js';
import { NotSendable } from './not-sendable.js';
import type { Address } from './known-items.js';

/** A request ready for fetch: the path below the mock's base URL (query included), headers and body. */
export interface BuiltRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** Its path names an item the mock handed out (`address`), not a made-up one. */
  addressed?: true;
}

/**
 * A valid request for one operation of the document: every required parameter, a body for every operation that
 * declares one (required or not), and the credentials of a security requirement the operation accepts. Each value
 * is checked against its schema by the independent validator; one that cannot be made valid makes the operation
 * NotSendable, with the reason. With `address`, the path parameter it names takes its value (an item the mock handed
 * out, known-items.ts) where the parameter's schema takes it.
 */
export function buildRequest(
  validator: IndependentValidator,
  operation: { method: string; path: string },
  key: string,
  address?: Address,
): BuiltRequest {
  const document = validator.document;
  const item = follow(document, {
    node: document.paths[operation.path],
    pointer: `#/paths/${escapeSegment(operation.path)}`,
  });
  if (!item) throw new NotSendable('its path item cannot be resolved');
  const op = child(item, operation.method) as Located;
  const request: BuiltRequest = { method: operation.method.toUpperCase(), path: '', headers: {} };
  const query: string[] = [];
  const cookies: string[] = [];
  let path = operation.path;
  for (const parameter of parametersOf(document, item, op)) {
    const { name, in: where } = parameter.node as { name: string; in: string };
    if (where === 'path') {
      const known = name === address?.name ? addressed(validator, parameter, address.value) : undefined;
      if (known !== undefined) request.addressed = true;
      path = path.replace(`{${name}}`, serializePath(known ?? valueFor(validator, parameter)));
    } else if (parameter.node.required !== true) continue;
    else if (where === 'query') query.push(...serializeQuery(name, valueFor(validator, parameter), parameter.node));
    else if (where === 'header' && !IGNORED_HEADERS.has(name.toLowerCase()))
      request.headers[name] = String(valueFor(validator, parameter));
    else if (where === 'cookie') cookies.push(`${name}=${encodeURIComponent(String(valueFor(validator, parameter)))}`);
  }
  addCredentials(credentialsFor(document, op.node, key), request, query, cookies);
  if (cookies.length > 0) request.headers.cookie = cookies.join('; ');
  addBody(validator, op, request);
  request.path = path + (query.length > 0 ? `?${query.join('&')}` : '');
  return request;
}

/** OAS 3.0.3 §4.7.12: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored". */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** The path item's parameters, overridden by the operation's of the same name and location (OAS 3.0.3 §4.7.9, §4.7.10). */
function parametersOf(document: Document, item: Located, op: Located): Located[] {
  const byKey = new Map<string, Located>();
  for (const owner of [item, op]) {
    const list = child(owner, 'parameters');
    if (!Array.isArray(list.node)) continue;
    list.node.forEach((_, index) => {
      const parameter = follow(document, child(list as Located, index));
      if (parameter) byKey.set(`${parameter.node.in}:${parameter.node.name}`, parameter);
    });
  }
  return [...byKey.values()];
}

function valueFor(validator: IndependentValidator, parameter: Located): unknown {
  const schema = parameter.node.schema !== undefined ? child(parameter, 'schema') : firstMediaSchema(parameter);
  if (!schema) throw new NotSendable(`parameter ${parameter.node.name as string} has no schema`);
  return validValue(validator, schema.pointer, `parameter ${parameter.node.name as string}`);
}

/** `value` (or its text, as a path carries it) where the parameter's schema takes it; else undefined. */
function addressed(validator: IndependentValidator, parameter: Located, value: string | number): unknown {
  if (parameter.node.schema === undefined) return undefined;
  const pointer = child(parameter, 'schema').pointer;
  return [value, String(value)].find((v) => validator.problems(pointer, v, 'request').length === 0);
}

function firstMediaSchema(carrier: Located): Located<unknown> | undefined {
  const content = carrier.node.content as Document | undefined;
  const type = content ? Object.keys(content)[0] : undefined;
  return type === undefined ? undefined : child(child(child(carrier, 'content') as Located, type) as Located, 'schema');
}

/** A value for the schema at `pointer` that the validator takes: from its examples, else made from its keywords. */
export function validValue(validator: IndependentValidator, pointer: string, what: string): unknown {
  let last = '';
  const attempts = [{ useExamples: true }, ...[0, 1, 2, 3].map((variant) => ({ useExamples: false, variant }))];
  for (const attempt of attempts) {
    let value: unknown;
    try {
      value = generateValue(validator.document, validator.schemaAt(pointer), { direction: 'request', ...attempt });
    } catch (error) {
      if (!(error instanceof NoValue)) throw error;
      last = error.message;
      continue;
    }
    const problems = validator.problems(pointer, value, 'request');
    if (problems.length === 0) return value;
    last = problems.join('; ');
  }
  throw new NotSendable(`no valid value for ${what}: ${last}`);
}

function serializePath(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => encodeURIComponent(String(v))).join(',');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .map(([k, v]) => `${encodeURIComponent(k)},${encodeURIComponent(String(v))}`)
      .join(',');
  return encodeURIComponent(String(value));
}

/** OAS 3.0.3 §4.7.12 (Style Values): form (exploded by default) and deepObject, the query styles a required parameter uses. */
function serializeQuery(name: string, value: unknown, parameter: Document): string[] {
  const pair = (k: string, v: unknown) =>
    `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`;
  if (parameter.content !== undefined) return [pair(name, JSON.stringify(value))];
  const explode = parameter.explode ?? (parameter.style ?? 'form') === 'form';
  if (Array.isArray(value)) return explode ? value.map((v) => pair(name, v)) : [pair(name, value.join(','))];
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (parameter.style === 'deepObject') return entries.map(([k, v]) => pair(`${name}[${k}]`, v));
    return explode ? entries.map(([k, v]) => pair(k, v)) : [pair(name, entries.flat().join(','))];
  }
  return [pair(name, value)];
}

function addCredentials(credentials: Credentials, request: BuiltRequest, query: string[], cookies: string[]): void {
  Object.assign(request.headers, credentials.headers);
  for (const [name, value] of credentials.query) query.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  for (const [name, value] of credentials.cookies) cookies.push(`${name}=${encodeURIComponent(value)}`);
}

/** Media types this harness can write, in the order it prefers them. */
const WRITABLE = [
  (type: string) => type === 'application/json',
  (type: string) => /^application\/[^;]*\+json$/.test(type) || type === '*/*' || type === 'application/*',
  (type: string) => type === 'application/x-www-form-urlencoded',
  (type: string) => type === 'multipart/form-data',
  (type: string) => type.startsWith('text/'),
  (type: string) => type === 'application/octet-stream',
];

function addBody(validator: IndependentValidator, op: Located, request: BuiltRequest): void {
  if (op.node.requestBody === undefined) return;
  const body = follow(validator.document, child(op, 'requestBody'));
  // RFC 9110 §9.3.1: content in a GET has no generally defined semantics, and fetch sends none with GET or HEAD;
  // Stripe's GETs declare an optional form body, left out (OAS 3.0.3 §4.7.13: required defaults to false).
  if (/^(get|head)$/i.test(request.method)) {
    if (body?.node.required === true) throw new NotSendable(`a ${request.method} with a required body cannot be sent`);
    return;
  }
  const content = (body?.node.content ?? {}) as Document;
  const types = Object.keys(content);
  const type = WRITABLE.map((fits) => types.find((t) => fits(t.toLowerCase()))).find((t) => t !== undefined);
  if (!body || type === undefined) {
    if (body?.node.required === true)
      throw new NotSendable(`its body's media types cannot be written: ${types.join(', ')}`);
    return;
  }
  const media = child(child(body, 'content') as Located, type) as Located;
  let value: unknown = {};
  try {
    if (media.node.schema !== undefined) value = validValue(validator, child(media, 'schema').pointer, 'the body');
  } catch (error) {
    // A body the operation does not require is left out rather than the operation (OAS 3.0.3 §4.7.13: required
    // defaults to false).
    if (body.node.required === true || !(error instanceof NotSendable)) throw error;
    return;
  }
  const contentType = type.includes('*') ? 'application/json' : type;
  request.body = encodeBody(contentType, value, (media.node.encoding ?? {}) as Document);
  if (typeof request.body === 'string') request.headers['content-type'] = contentType;
}

function encodeBody(type: string, value: unknown, encoding: Document): string | FormData {
  if (type === 'application/x-www-form-urlencoded') {
    const form: string[] = [];
    for (const [name, v] of Object.entries((value ?? {}) as Document))
      form.push(
        ...serializeQuery(name, v, {
          style: encoding[name]?.style ?? (typeof v === 'object' ? 'deepObject' : 'form'),
          explode: true,
        }),
      );
    return form.join('&');
  }
  if (type === 'multipart/form-data') {
    const form = new FormData();
    for (const [name, v] of Object.entries((value ?? {}) as Document))
      form.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
    return form;
  }
  if (type.startsWith('text/') || type === 'application/octet-stream')
    return typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(value);
}
