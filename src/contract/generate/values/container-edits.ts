import { isSchemaNode } from '../../../openapi/schema-keywords.js';
import { declaredNames, gather, largest, propertySchemas, requiredNames, saysTrue, smallest } from './conjunction.js';
import { itemSchemas, without, type Edit, type Site } from './mutation-edits.js';
import { patternSample } from './pattern-strings.js';
import { planSample } from './plan-sample.js';
import { prefixOf, type Direction } from './schema-check.js';
import { planValue, type PlanOptions } from './value-plan.js';

/** Visits a nested site (a property, an item) for its own edits: invalid-variants.ts's collectEdits. */
export type Descend = (site: Site) => void;

/** Where an object's edits go, and how a property's schemas are read for the direction. */
interface ObjectSite {
  site: Site;
  edits: Edit[];
  options: PlanOptions;
  descend: Descend;
  leftOut(schemas: unknown[]): boolean;
  object(label: string, edit: (current: Record<string, unknown>) => unknown): void;
}

/**
 * An object's required properties left out (not those the direction leaves out: OAS 3.0.3 §4.7.25), its declared
 * properties broken one by one, its members beyond them (additionalProperties, patternProperties) and its counts.
 */
export function objectEdits(
  site: Site,
  edits: Edit[],
  direction: Direction,
  options: PlanOptions,
  descend: Descend,
): void {
  const { nodes, where, path } = site;
  const at: ObjectSite = {
    site,
    edits,
    options,
    descend,
    leftOut: (schemas) =>
      (direction === 'request' && saysTrue(schemas, 'readOnly')) ||
      (direction === 'response' && saysTrue(schemas, 'writeOnly')),
    object: (label, edit) =>
      edits.push({ label, path, needs: 'object', edit: (current) => edit(current as Record<string, unknown>) }),
  };
  // Every optional member present beside the one left out: a server that requires it only beside another member
  // (a name required only when a status is sent) is caught whatever the valid body drew.
  const fullest = fullestOf(at);
  for (const name of requiredNames(nodes)) {
    if (at.leftOut(propertySchemas(nodes, name).schemas)) continue;
    at.object(`${where}.${name}: left out (it is required)`, (current) => without(fullest(current), name));
  }
  for (const name of declaredNames(nodes)) {
    const { schemas, forbidden } = propertySchemas(nodes, name);
    if (forbidden || at.leftOut(schemas)) continue;
    descend({ ...site, path: [...path, name], nodes: gather(...schemas).nodes, where: `${where}.${name}` });
  }
  memberEdits(at);
  countEdits(at);
}

/** Names no declared property has that a closed object refuses, or that additionalProperties judges. */
function memberEdits(at: ObjectSite): void {
  const { nodes, where, path } = at.site;
  const declared = declaredNames(nodes);
  const unknownName = ['unexpected', 'unexpected-member', 'contract-unexpected'].find(
    (name) => !declared.includes(name) && propertySchemas(nodes, name).forbidden,
  );
  if (unknownName !== undefined)
    at.object(`${where}: an unknown property "${unknownName}" (additionalProperties is false)`, (current) => ({
      ...current,
      [unknownName]: 1,
    }));
  // A member additionalProperties or patternProperties judges, broken.
  const extraName = EXTRA_NAMES.find((name) => {
    const { schemas, forbidden } = propertySchemas(nodes, name);
    return !declared.includes(name) && !forbidden && schemas.length > 0;
  });
  const member = (name: string) =>
    at.descend({
      ...at.site,
      path: [...path, name],
      nodes: gather(...propertySchemas(nodes, name).schemas).nodes,
      where: `${where}.${name}`,
    });
  if (extraName !== undefined) member(extraName);
  for (const node of nodes) {
    if (!isSchemaNode(node.patternProperties)) continue;
    for (const pattern of Object.keys(node.patternProperties)) {
      const name = patternSample(pattern, 0);
      if (name !== undefined && !declared.includes(name) && name !== '__proto__') member(name);
    }
  }
}

const EXTRA_NAMES = ['extra', 'other', 'additional'];

/**
 * The object with its absent optional members filled from one deterministic valid sample, as far as maxProperties
 * lets them in; unchanged where no sample can be made.
 */
function fullestOf(at: ObjectSite): (current: Record<string, unknown>) => Record<string, unknown> {
  const { nodes } = at.site;
  const room = smallest(nodes, 'maxProperties') ?? Infinity;
  // Planned when a mutation is first applied: most sites of a large document are never drawn.
  let members: [string, unknown][] | undefined;
  return function fullest(current) {
    if (!members) {
      const fill = planValue({ allOf: nodes }, { ...at.options, optionalDepth: 1 });
      const full = fill.ok ? planSample(fill.value, 'contract', 0) : undefined;
      members = full?.ok && isSchemaNode(full.value) ? Object.entries(full.value) : [];
    }
    const grown: Record<string, unknown> = { ...current };
    for (const [key, member] of members) {
      if (Object.keys(grown).length >= room) break;
      if (!(key in grown)) grown[key] = member;
    }
    return grown;
  };
}

/** minProperties, maxProperties and dependentRequired broken. */
function countEdits(at: ObjectSite): void {
  const { nodes, where } = at.site;
  const required = requiredNames(nodes);
  const minProperties = largest(nodes, 'minProperties');
  if (minProperties !== undefined && minProperties > 0)
    at.object(`${where}: ${minProperties - 1} properties, fewer than minProperties ${minProperties}`, (current) => {
      const kept = Object.entries(current);
      const order = [...kept.filter(([k]) => required.includes(k)), ...kept.filter(([k]) => !required.includes(k))];
      return Object.fromEntries(order.slice(0, minProperties - 1));
    });
  const maxProperties = smallest(nodes, 'maxProperties');
  if (maxProperties !== undefined) {
    const fill = planValue({ allOf: nodes }, { ...at.options, optionalDepth: 1 });
    at.object(`${where}: ${maxProperties + 1} properties, more than maxProperties ${maxProperties}`, (current) => {
      const grown: Record<string, unknown> = { ...current };
      const full = fill.ok ? planSample(fill.value, 'contract', 0) : undefined;
      for (const [key, member] of Object.entries(full?.ok ? (full.value as object) : {})) {
        if (Object.keys(grown).length > maxProperties) break;
        if (!(key in grown)) grown[key] = member;
      }
      for (let i = 0; Object.keys(grown).length <= maxProperties && i < maxProperties + 2; i++)
        grown[`extra${i}`] = 'x';
      return grown;
    });
  }
  for (const node of nodes) {
    const dependent = isSchemaNode(node.dependentRequired) ? node.dependentRequired : {};
    for (const [name, needs] of Object.entries(dependent)) {
      if (!Array.isArray(needs)) continue;
      for (const need of needs)
        if (typeof need === 'string')
          at.object(`${where}.${need}: left out while ${name} is present (dependentRequired)`, (current) =>
            without(name in current ? current : { ...current, [name]: 'x' }, need),
          );
    }
  }
}

/** An array's items too few, too many, equal, beyond its prefixItems; its first items broken one by one. */
export function arrayEdits(site: Site, edits: Edit[], options: PlanOptions, descend: Descend): void {
  const { nodes, where, path } = site;
  const array = (label: string, edit: (current: unknown[]) => unknown) =>
    edits.push({ label, path, needs: 'array', edit: (current) => edit(current as unknown[]) });
  const minItems = largest(nodes, 'minItems');
  const maxItems = smallest(nodes, 'maxItems');
  const items = (count: number, current: unknown[]) => {
    const grown = [...current];
    for (let i = grown.length; grown.length < count && i < count + 8; i++) {
      const plan = planValue({ allOf: itemSchemas(nodes, grown.length) }, options);
      const sample = plan.ok ? planSample(plan.value, 'contract', i) : undefined;
      if (!sample?.ok) break;
      grown.push(sample.value);
    }
    return grown;
  };
  if (minItems !== undefined && minItems > 0)
    array(`${where}: ${minItems - 1} items, fewer than minItems ${minItems}`, (current) =>
      current.slice(0, minItems - 1),
    );
  if (maxItems !== undefined)
    array(`${where}: ${maxItems + 1} items, more than maxItems ${maxItems}`, (current) => items(maxItems + 1, current));
  if (nodes.some((node) => node.uniqueItems === true))
    array(`${where}: two equal items (uniqueItems)`, (current) => {
      const some = items(Math.max(1, current.length), current);
      if (some.length === 0) return some;
      if (some.length >= 2) return [...some.slice(0, -1), some[0]];
      return [some[0], some[0]];
    });
  const prefixLength = Math.max(0, ...nodes.map((node) => prefixOf(node).schemas.length));
  const closed = nodes.some((node) => prefixOf(node).schemas.length > 0 && prefixOf(node).rest === false);
  if (closed)
    array(`${where}: an item beyond its ${prefixLength} prefixItems (items is false)`, (current) => [
      ...items(prefixLength, current),
      'x',
    ]);
  const positions = Math.min(Math.max(prefixLength, 1), 3);
  for (let i = 0; i < positions; i++) {
    const schemas = itemSchemas(nodes, i);
    if (schemas.length === 0 || schemas.includes(false)) continue;
    if (maxItems !== undefined && i >= maxItems) continue;
    descend({ ...site, path: [...path, i], nodes: gather(...schemas).nodes, where: `${where}[${i}]` });
  }
}
