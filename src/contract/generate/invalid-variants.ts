import { gather, propertySchemas } from './conjunction.js';
import { arrayEdits, objectEdits } from './container-edits.js';
import type { SchemaLike } from './json-schema.js';
import {
  discriminatorEdits,
  itemSchemas,
  notEdits,
  siteTypes,
  typeEdits,
  valueEdits,
  type Edit,
  type Site,
  type Step,
} from './mutation-edits.js';
import { planSample } from './plan-sample.js';
import { checkValue, type Direction } from './schema-check.js';
import { planValue, type PlanOptions } from './value-plan.js';

/** One way of breaking one constraint of a schema, applied to a valid instance. */
export interface Mutation {
  /** What is broken, as a report shows it: `body.status: "AVAILABLE" is not in the enum`. */
  label: string;
  apply(valid: unknown): unknown;
}

export interface MutationOptions extends PlanOptions {
  /**
   * The validator the mock uses for this schema (an operation's compiled body validator): a mutation is offered only
   * where it refuses the result, so that no keyword the mock does not enforce is judged on a target.
   */
  validate?: (value: unknown) => boolean;
}

/** How deep nested properties and items are broken: below that, their parents' own keywords still are. */
export const NESTING = 4;
/**
 * Edits gathered for one schema at most: a large response of nested lists would give thousands, each a property
 * the runner sends requests for. Breadth first, so the value's own keywords and its properties' come first.
 */
export const EDITS_AT_MOST = 300;

/**
 * Each constraint of `schema` broken one at a time, derived from the document, never hand-listed per field: for a
 * value, every JSON type it refuses (null included, also where `nullable` meets an enum without null: OAS 3.0.3
 * §4.7.24.1), a value outside its enum or const, outside its bounds (exclusive ones exactly on the bound), its
 * int32/int64 range, not a multiple, too short or long, breaking its pattern or a format the validator checks, and
 * what its `not` describes; for an array, too few, too many or equal items and each item broken; for an object,
 * each required property left out, each property broken, an unknown member where additionalProperties is false, a
 * member breaking additionalProperties or patternProperties, too few or too many members, a discriminator naming no
 * branch. Each mutation's result is checked to break the schema (schema-check.ts; and `options.validate` when given)
 * before it is offered; a value that would still hold is replaced by one checked when the mutation was made.
 */
export function mutationsOf(input: SchemaLike, where = 'body', options: MutationOptions = {}): Mutation[] {
  const direction = options.direction ?? 'request';
  const planned = planValue(input, options);
  const rootSample = planned.ok ? planSample(planned.value, 'contract', 0) : undefined;
  const breaks = (value: unknown) =>
    checkValue(input, value, direction).valid === false && (!options.validate || options.validate(value) === false);
  const root = gather(input);
  const edits: Edit[] = [];
  // Breadth first: the value's own keywords, then its properties', then theirs, until EDITS_AT_MOST.
  const queue: Site[] = [{ path: [], nodes: root.nodes, where, above: new Set() }];
  for (let next = queue.shift(); next && edits.length < EDITS_AT_MOST; next = queue.shift())
    collectEdits(next, edits, direction, options, (nested) => queue.push(nested));
  const fillCache = new Map<string, unknown>();
  const mutations: Mutation[] = [];
  const seen = new Set<string>();
  for (const edit of edits) {
    if (seen.has(edit.label)) continue;
    const fills = fillsAlong(input, edit.path, options, fillCache);
    const make = (valid: unknown) => setAt(valid, edit, fills, 0);
    // Checked once on the deterministic sample: offered only if it breaks the schema there.
    const needsSample = edit.path.length > 0 || edit.needs !== undefined;
    if (needsSample && !rootSample?.ok) continue;
    const fallback = make(needsSample && rootSample?.ok ? rootSample.value : undefined);
    if (!breaks(fallback)) continue;
    seen.add(edit.label);
    mutations.push({
      label: edit.label,
      apply(valid) {
        const result = make(valid);
        return breaks(result) ? result : fallback;
      },
    });
  }
  return mutations;
}

/** The deterministic valid value for each step of a path, to stand in where a valid instance has none. */
function fillsAlong(
  input: unknown,
  path: Step[],
  options: PlanOptions,
  cache: Map<string, unknown>,
): (() => unknown)[] {
  const fills: (() => unknown)[] = [];
  let schemas: unknown[] = [input];
  for (let i = 0; i <= path.length; i++) {
    const at = schemas;
    const key = JSON.stringify(path.slice(0, i));
    fills.push(() => {
      if (!cache.has(key)) {
        const plan = planValue({ allOf: at }, options);
        const sample = plan.ok ? planSample(plan.value, 'contract', 0) : undefined;
        cache.set(key, sample?.ok ? sample.value : undefined);
      }
      return cache.get(key);
    });
    if (i === path.length) break;
    const step = path[i]!;
    const nodes = gather(...schemas).nodes;
    schemas = typeof step === 'number' ? itemSchemas(nodes, step) : propertySchemas(nodes, step).schemas;
  }
  return fills;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value with the edit made at its path, missing containers on the way filled with valid ones. */
function setAt(value: unknown, edit: Edit, fills: (() => unknown)[], i: number): unknown {
  if (i === edit.path.length) {
    const fitting =
      (edit.needs === 'object' && !isObject(value)) || (edit.needs === 'array' && !Array.isArray(value))
        ? fills[i]!()
        : value;
    return edit.edit(fitting);
  }
  const step = edit.path[i]!;
  if (typeof step === 'number') {
    const array = Array.isArray(value)
      ? [...(value as unknown[])]
      : Array.isArray(fills[i]!())
        ? [...(fills[i]!() as unknown[])]
        : [];
    while (array.length <= step) array.push(fills[i + 1]!());
    array[step] = setAt(array[step], edit, fills, i + 1);
    return array;
  }
  const object = isObject(value) ? { ...value } : isObject(fills[i]!()) ? { ...(fills[i]!() as object) } : {};
  const copy = object as Record<string, unknown>;
  const child = copy[step] === undefined && i + 1 < edit.path.length ? fills[i + 1]!() : copy[step];
  copy[step] = setAt(child, edit, fills, i + 1);
  return copy;
}

function collectEdits(
  site: Site,
  edits: Edit[],
  direction: Direction,
  options: PlanOptions,
  descend: (site: Site) => void,
): void {
  const { nodes, where, path } = site;
  const value = (label: string, make: () => unknown) =>
    edits.push({ label: `${where}: ${label}`, path, edit: () => make() });
  const combined = nodes.some((node) => Array.isArray(node.oneOf) || Array.isArray(node.anyOf));
  typeEdits(site, value, path.length > 1);
  // Within a oneOf/anyOf the branches hold the constraints: the value as a whole is broken by its type only.
  if (!combined) valueEdits(nodes, value);
  discriminatorEdits(site, edits);
  notEdits(site, value, options);
  if (combined || path.length >= NESTING || nodes.some((node) => site.above.has(node))) return;
  const above = new Set([...site.above, ...nodes]);
  const types = siteTypes(nodes);
  if (types.includes('object')) objectEdits({ ...site, above }, edits, direction, options, descend);
  if (types.includes('array')) arrayEdits({ ...site, above }, edits, options, descend);
}
