import { Buffer } from 'node:buffer';
import { freezeWithJsonText } from '../base/json-text.js';
import { MAX_ATTACHED_TEXT } from '../base/store-bytes.js';
import { parseJson } from '../../json/parse-json.js';
import { stringifyJson } from '../../json/stringify-json.js';
import { compareInt64, maxInt64, normaliseInteger, plusOne, toInteger, type Int64 } from '../../json/int64.js';
import type { IdKind } from '../../openapi/resource-types.js';
import { MAX_NEXT_ID, type CollectionRule, type Item, type ItemId, type NewItem } from './collection-store.js';
import { memberOf } from './redis-member.js';

/**
 * Key layout 3's encodings on the JavaScript side (redis-scripts.ts has the layout): a collection's key, an id's
 * member, a filter value's and a parent's set, an item's text and the records a seed or restore writes. Lua never
 * parses JSON (it would round an int64): everything it needs arrives as text made here.
 */

/** A collection's keys start here: its name's byte length first, so that no two names can share a key. */
export function collectionKey(prefix: string, name: string): string {
  return `${prefix}:c:${Buffer.byteLength(name)}:${name}`;
}

/**
 * An id's member: for an int64 id the fixed-width text of redis-member.ts (a string of digits from a path parameter
 * read as its number); for a string or UUID id `s` and the id. undefined for an int64 id that is not one.
 */
export function memberFor(kind: IdKind, id: ItemId): string | undefined {
  if (kind !== 'int64') return `s${String(id)}`;
  if (typeof id === 'string') return /^-?\d{1,20}$/.test(id) ? memberOf(toInteger(id)) : undefined;
  return memberOf(id);
}

/**
 * How filters and parents compare, as the memory store compares them: a string as it is, anything else as its JSON
 * text, so a query's `5` finds a stored 5 and a stored "5" alike (a query string carries no type).
 */
function valueKey(value: unknown): string {
  return typeof value === 'string' ? value : stringifyJson(value);
}

/** The set of items whose `property` is `value`: `v`, the property's byte length, the property, the value. */
export function filterSuffix(property: string, value: unknown): string {
  return `v${Buffer.byteLength(property)}:${property}:${valueKey(value)}`;
}

/** The set of a parent's nested items (redis-scripts.ts reads the parent's id back from after `p:`). */
export function parentSuffix(parent: ItemId): string {
  return `p:${valueKey(parent)}`;
}

/** The sets an item belongs to: one per filtered property it has a value for. */
export function filterSuffixes(rule: CollectionRule, item: Readonly<Record<string, unknown>>): string[] {
  const suffixes: string[] = [];
  for (const property of rule.filters ?? []) {
    if (item[property] !== undefined) suffixes.push(filterSuffix(property, item[property]));
  }
  return suffixes;
}

/**
 * The item as stored, as the memory store stores it: the id first (when given), the parent's property next, then
 * the rule's fields in order (others dropped).
 */
export function storedItem(
  rule: CollectionRule,
  id: ItemId | undefined,
  fields: NewItem,
  parent: ItemId | undefined,
): Record<string, unknown> {
  const { idProperty, parentProperty } = rule;
  const stored: Record<string, unknown> = {};
  if (id !== undefined) stored[idProperty] = typeof id === 'bigint' ? normaliseInteger(id) : id;
  if (parentProperty !== undefined && parent !== undefined) stored[parentProperty] = parent;
  for (const name of rule.fields ?? Object.keys(fields)) {
    if (name === idProperty || name === parentProperty) continue;
    const value = fields[name];
    if (value !== undefined) stored[name] = value;
  }
  return stored;
}

/** An item read back from its text: frozen all the way down, int64s exact, its text attached when small. */
export function parseItem(text: string): Item {
  const item = deepFreeze(parseJson(text) as Record<string, unknown>);
  return text.length <= MAX_ATTACHED_TEXT ? freezeWithJsonText(item, text) : item;
}

/** A page of items read back: its text is the items' texts joined, sent as it is. */
export function parsePage(texts: readonly string[]): readonly Item[] {
  return freezeWithJsonText(texts.map(parseItem), `[${texts.join(',')}]`);
}

/** Items with their counters as the scripts write a collection whole (redis-scripts.ts: records and blocks). */
export interface Records {
  values: string[];
  /** The counter after every id (int64 and string ids; 1 for UUID ids), as digits. */
  next: string;
  /** The last creation-order score used (string and UUID ids). */
  seq: string;
  bytes: number;
}

/**
 * The records of `items` (a seed or a snapshot already checked against the schema), in list order: by id for int64
 * ids, as given otherwise; each stored by the rule. `nextId` is raised above every id, never lowered; past
 * 2^63 − 1 it is refused by the caller.
 */
export function recordsOf(
  rule: CollectionRule,
  items: readonly Item[],
  parents: readonly ItemId[] | undefined,
  nextId: Int64 = 1,
): Records {
  const pairs = items.map((item, index) => ({
    item,
    parent: parents?.[index] ?? (rule.parentProperty === undefined ? undefined : (item[rule.parentProperty] as ItemId)),
  }));
  const idOf = (item: Item) => item[rule.idProperty] as ItemId;
  if (rule.idKind === 'int64') pairs.sort((a, b) => compareInt64(idOf(a.item) as Int64, idOf(b.item) as Int64));
  const values: string[] = [];
  let next: Int64 = nextId;
  let bytes = 0;
  pairs.forEach(({ item, parent }, index) => {
    const id = idOf(item);
    const member = memberFor(rule.idKind, id);
    if (member === undefined) throw new RangeError(`${rule.noun ?? 'item'} id ${String(id)} is not an int64`);
    const stored = storedItem(rule, id, item, parent);
    const text = stringifyJson(stored);
    bytes += Buffer.byteLength(text);
    const suffixes = filterSuffixes(rule, stored);
    if (parent !== undefined) suffixes.push(parentSuffix(parent));
    values.push(
      member,
      rule.idKind === 'int64' ? '0' : String(index + 1),
      text,
      parent === undefined ? '' : stringifyJson(parent),
      member.startsWith('n') ? valueKey(id) : '',
      String(suffixes.length),
      ...suffixes,
    );
    if (rule.idKind !== 'uuid') next = maxInt64(next, counterAfter(id));
  });
  return { values, next: String(next), seq: rule.idKind === 'int64' ? '0' : String(pairs.length), bytes };
}

/** The counter after an id: one above an int64 id or a string of digits; 1 for any other string. */
function counterAfter(id: ItemId): Int64 {
  if (typeof id !== 'string') return plusOne(id);
  return /^(0|[1-9]\d{0,18})$/.test(id) && BigInt(id) < MAX_NEXT_ID ? plusOne(toInteger(id)) : 1;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
