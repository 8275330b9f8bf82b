import type { SchemaNode } from '../../../openapi/schema-keywords.js';
import { checkAll, declaredNames, gather, propertySchemas, saysTrue } from './conjunction.js';
import { SAMPLES } from './json-samples.js';
import { planSample } from './plan-sample.js';
import type { Plan } from './plan-types.js';
import { checkValue, type Direction } from './schema-check.js';

/**
 * What a `oneOf` branch's values need so that no other branch holds for them too (2020-12 Core §10.2.1.3, OAS 3.0.3
 * §4.7.25: "exactly one"): where the branch's deterministic value also passes another branch — two object shapes
 * that constrain different optional members, Cat and Dog extending one Pet — a member that tells them apart, as
 * parts to add to the branch: a member the branch declares and the other forbids (`additionalProperties: false`)
 * made required, or a member the other declares and the branch leaves free given a value of a type the other
 * refuses. Empty where the branch is apart already, or nothing tells them apart.
 * @example apartFromOthers(plan, catParts, [dog], 'request')  // [{ properties: { breed: { const: 7 } }, … }]
 */
export function apartFromOthers(plan: Plan, own: SchemaNode[], others: unknown[], direction: Direction): SchemaNode[] {
  // The branch's own value before the check (which refuses it for matching two branches, the very case here).
  const sample = planSample(plan.kind === 'checked' ? plan.plan : plan, 'contract', 0);
  if (!sample.ok) return [];
  const apart: SchemaNode[] = [];
  for (const other of others) {
    if (checkValue(other, sample.value, direction).valid !== true) continue;
    const member = telling(own, gather(other).nodes, direction);
    if (member) apart.push(member);
  }
  return apart;
}

function telling(own: SchemaNode[], other: SchemaNode[], direction: Direction): SchemaNode | undefined {
  const leftOut = (schemas: unknown[]) =>
    (direction === 'request' && saysTrue(schemas, 'readOnly')) ||
    (direction === 'response' && saysTrue(schemas, 'writeOnly'));
  for (const name of declaredNames(own)) {
    const mine = propertySchemas(own, name);
    if (!mine.forbidden && !leftOut(mine.schemas) && propertySchemas(other, name).forbidden)
      return { type: 'object', required: [name] };
  }
  for (const name of declaredNames(other)) {
    const mine = propertySchemas(own, name);
    const theirs = propertySchemas(other, name);
    if (mine.forbidden || declaredNames(own).includes(name) || leftOut(theirs.schemas)) continue;
    const value = Object.values(SAMPLES).find(
      (candidate) =>
        checkAll(gather(...theirs.schemas).nodes, candidate, direction).valid === false &&
        checkAll(gather(...mine.schemas).nodes, candidate, direction).valid === true,
    );
    if (value !== undefined) return { type: 'object', properties: { [name]: { const: value } }, required: [name] };
  }
  return undefined;
}
