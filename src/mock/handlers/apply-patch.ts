import { apiError } from '../../errors.js';

/**
 * RFC 7396 JSON Merge Patch: an object patch merges member by member, `null` removes a member, anything else
 * (an array, a scalar) replaces the target whole.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else setMember(result, name, mergePatch(result[name], value));
  }
  return result;
}

/**
 * RFC 6902 JSON Patch: the operations applied in order to a copy; a failed `test` or a path that is not there
 * refuses the whole patch (§5: "the entire patch document SHALL NOT be deemed successful") as a 400 naming the
 * operation.
 */
export function jsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw invalid('body must be a JSON Patch document: an array of operations');
  let document = structuredClone(target);
  operations.forEach((operation: unknown, index) => {
    const where = `body[${index}]`;
    if (!isObject(operation) || typeof operation.op !== 'string' || typeof operation.path !== 'string') {
      throw invalid(`${where} must be an object with op and path (RFC 6902 §4)`);
    }
    const path = parsePointer(operation.path, `${where}.path`);
    switch (operation.op) {
      case 'add':
        document = put(document, path, valueOf(operation, where), true, where);
        break;
      case 'replace':
        read(document, path, where);
        document = put(document, path, valueOf(operation, where), false, where);
        break;
      case 'remove':
        document = removeAt(document, path, where);
        break;
      case 'move':
      case 'copy': {
        const from = parsePointer(String(operation.from), `${where}.from`);
        const value = structuredClone(read(document, from, where));
        if (operation.op === 'move') document = removeAt(document, from, where);
        document = put(document, path, value, true, where);
        break;
      }
      case 'test':
        if (!jsonEqual(read(document, path, where), valueOf(operation, where))) {
          throw invalid(`${where}: test failed at ${operation.path}`);
        }
        break;
      default:
        throw invalid(
          `${where}.op must be add, remove, replace, move, copy or test (got ${JSON.stringify(operation.op)})`,
        );
    }
  });
  return document;
}

/**
 * RFC 6902 §4.6's equality: same type; numbers by value (an int64 past 2^53 parses as a bigint); arrays element by
 * element; objects with the same members, whatever their order.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') return sameNumber(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const names = Object.keys(a);
    return (
      names.length === Object.keys(b).length &&
      names.every((name) => Object.hasOwn(b, name) && jsonEqual(a[name], b[name]))
    );
  }
  return a === b;
}

function sameNumber(a: unknown, b: unknown): boolean {
  const asBig = (value: unknown) =>
    typeof value === 'bigint'
      ? value
      : typeof value === 'number' && Number.isInteger(value)
        ? BigInt(value)
        : undefined;
  const [x, y] = [asBig(a), asBig(b)];
  return x !== undefined && x === y;
}

/**
 * A member set as data: `__proto__` (which JSON.parse makes an own member) becomes a member like any other, where an
 * assignment would change the object's prototype and drop the value.
 */
function setMember(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string) {
  return apiError('invalid_body', message);
}

function valueOf(operation: Record<string, unknown>, where: string): unknown {
  if (!('value' in operation)) throw invalid(`${where}.value is required`);
  return operation.value;
}

/** RFC 6901: `/a/b~1c` → ['a', 'b/c']; '' is the whole document. */
function parsePointer(pointer: string, where: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw invalid(`${where} must be a JSON Pointer starting with / (RFC 6901)`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function read(document: unknown, path: string[], where: string): unknown {
  let node = document;
  for (const token of path) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.length) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else throw invalid(`${where}: no value at /${path.join('/')}`);
  }
  return node;
}

function put(document: unknown, path: string[], value: unknown, insert: boolean, where: string): unknown {
  if (path.length === 0) return value;
  const parent = read(document, path.slice(0, -1), where);
  const last = path.at(-1)!;
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!/^(0|[1-9]\d*|-)$/.test(last) || index > parent.length || (!insert && index >= parent.length)) {
      throw invalid(`${where}: no array index ${last} at /${path.slice(0, -1).join('/')}`);
    }
    if (insert) parent.splice(index, 0, value);
    else parent[index] = value;
  } else if (isObject(parent)) {
    setMember(parent, last, value);
  } else {
    throw invalid(`${where}: /${path.slice(0, -1).join('/')} is not an object or array`);
  }
  return document;
}

function removeAt(document: unknown, path: string[], where: string): unknown {
  read(document, path, where);
  if (path.length === 0) return undefined;
  const parent = read(document, path.slice(0, -1), where);
  const last = path.at(-1)!;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, unknown>)[last];
  return document;
}
