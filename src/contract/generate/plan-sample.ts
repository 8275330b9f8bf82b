import { checkAll } from './conjunction.js';
import { formatSample } from './formats.js';
import { made, unhonoured, type Generated } from './generated.js';
import { toInt } from './json-schema.js';
import { patternSample } from './pattern-strings.js';
import { codePoints, jsonKey, patternRegExp } from './schema-check.js';
import { ceilDiv, floorDiv, type Plan } from './value-plan.js';

/**
 * One deterministic value of a plan, without fast-check: every property it can fill filled (required and optional
 * alike, so that "every field sent comes back" has fields to look at), strings carrying `label` where no format or
 * pattern rules them, enums their `variant`-th value, integers their smallest positive value (plus `variant` when
 * unbounded above), arrays one item (or `minItems`, or their whole `prefixItems`). The same plan and arguments give
 * the same value.
 */
export function planSample(plan: Plan, label: string, variant = 0): Generated<unknown> {
  switch (plan.kind) {
    case 'fixed':
      return made(plan.values[variant % plan.values.length]);
    case 'null':
      return made(null);
    case 'boolean':
      return made(variant % 2 === 0);
    case 'integer':
      return made(integerSample(plan, variant));
    case 'number':
      return made(numberSample(plan));
    case 'string':
      return stringSample(plan, label, variant);
    case 'array':
      return arraySample(plan, label, variant);
    case 'object':
      return objectSample(plan, label, variant);
    case 'choice': {
      let first: Generated<unknown> | undefined;
      for (const option of plan.options) {
        const sample = planSample(option, label, variant);
        if (sample.ok) return sample;
        first ??= sample;
      }
      return first!;
    }
    case 'checked': {
      let refusal: Generated<unknown> | undefined;
      for (let attempt = 0; attempt < 8; attempt++) {
        const sample = planSample(plan.plan, label, variant + attempt);
        if (!sample.ok) return sample;
        const verdict = checkAll(plan.nodes, sample.value, plan.direction);
        if (verdict.valid === true) return sample;
        refusal ??= unhonoured(
          verdict.keyword ?? 'schema',
          verdict.at ?? '',
          'no deterministic value holds for every keyword',
        );
      }
      return refusal!;
    }
  }
}

function integerSample(plan: Extract<Plan, { kind: 'integer' }>, variant: number): number | bigint {
  const { min, max, step } = plan;
  let value = min > 1n ? min : 1n;
  if (value > max) value = max;
  value = ceilDiv(value, step) * step;
  if (value > max) value = floorDiv(max, step) * step;
  // Another value per variant: upwards while the range allows, round to its start where it is bounded.
  const more = value + BigInt(variant) * step;
  if (more <= max) value = more;
  else if (plan.bounded) {
    const low = ceilDiv(min, step);
    const count = floorDiv(max, step) - low + 1n;
    value = (low + ((value / step - low + BigInt(variant)) % count)) * step;
  }
  return toInt(value);
}

function numberSample(plan: Extract<Plan, { kind: 'number' }>): number {
  const { min, max } = plan;
  let value = min ?? 1;
  if (min !== undefined && plan.minExcluded) value = max !== undefined ? (min + max) / 2 : min + 1;
  if (max !== undefined && (value > max || (value === max && plan.maxExcluded)))
    value = plan.maxExcluded ? (min !== undefined ? (min + max) / 2 : max - 1) : max;
  if (plan.multipleOf !== undefined) {
    const m = plan.multipleOf;
    let k = Math.ceil(value / m);
    if (min !== undefined && (k * m < min || (plan.minExcluded && k * m === min))) k++;
    value = k * m;
  }
  return value;
}

function stringSample(plan: Extract<Plan, { kind: 'string' }>, label: string, variant: number): Generated<string> {
  const fits = (text: string, patterns: string[]) => {
    const length = codePoints(text);
    return (
      length >= plan.minLength &&
      (plan.maxLength === undefined || length <= plan.maxLength) &&
      patterns.every((p) => patternRegExp(p)?.test(text) === true)
    );
  };
  if (plan.plain) {
    const points = Array.from(label);
    let text = plan.maxLength !== undefined ? points.slice(-plan.maxLength).join('') : label;
    if (codePoints(text) < plan.minLength) text = text + 'x'.repeat(plan.minLength - codePoints(text));
    return made(text);
  }
  for (let attempt = 0; attempt < 12; attempt++) {
    for (const text of stringCandidates(plan, label, variant + attempt))
      if (fits(text, plan.patterns)) return made(text);
  }
  return unhonoured(
    plan.patterns.length > 0 ? 'pattern' : 'format',
    '',
    plan.patterns.length > 0
      ? `no deterministic string matches ${plan.patterns.map((p) => JSON.stringify(p)).join(' and ')} within the lengths`
      : `no ${plan.format} fits the lengths`,
  );
}

export /**
 * Strings to try for a format or pattern: the format's value or the first pattern's match, that match followed by
 * the next pattern's (allOf parts: `^a` and `z$`), and, where a pattern is unanchored, padded up to `minLength`.
 */
function stringCandidates(plan: Extract<Plan, { kind: 'string' }>, label: string, variant: number): string[] {
  const base =
    plan.format !== undefined ? formatSample(plan.format, label, variant) : patternSample(plan.patterns[0]!, variant);
  if (base === undefined) return [];
  const candidates = [base];
  const rest = plan.format !== undefined ? plan.patterns : plan.patterns.slice(1);
  let joined = base;
  for (const pattern of rest) {
    const more = patternSample(pattern, variant);
    if (more !== undefined) joined += more;
  }
  if (joined !== base) candidates.push(joined);
  const short = plan.minLength - codePoints(joined);
  if (short > 0) candidates.push(joined + 'x'.repeat(short), 'x'.repeat(short) + joined, joined + '0'.repeat(short));
  return candidates;
}

export function within<T>(generated: Generated<T>, step: string): Generated<T> {
  return generated.ok
    ? generated
    : { ok: false, unhonoured: { ...generated.unhonoured, at: `/${step}${generated.unhonoured.at}` } };
}

function arraySample(plan: Extract<Plan, { kind: 'array' }>, label: string, variant: number): Generated<unknown[]> {
  const wanted = Math.max(plan.minItems, Math.min(plan.maxItems, Math.max(plan.prefix.length, 1)));
  const length = plan.rest ? wanted : Math.min(wanted, plan.prefix.length);
  const items: unknown[] = [];
  const keys = new Set<string>();
  for (let i = 0; i < length; i++) {
    const position = i < plan.prefix.length ? plan.prefix[i]! : plan.rest!;
    let item: Generated<unknown> | undefined;
    for (let attempt = 0; attempt < 8; attempt++) {
      item = within(planSample(position, `${label}-${i}`, variant + i + attempt), String(i));
      if (!item.ok || !plan.unique || !keys.has(jsonKey(item.value))) break;
      item = unhonoured('uniqueItems', `/${i}`, 'no deterministic item differs from the ones before');
    }
    if (!item!.ok) return item as Generated<unknown[]>;
    keys.add(jsonKey(item!.value));
    items.push(item!.value);
  }
  return made(items);
}

function objectSample(plan: Extract<Plan, { kind: 'object' }>, label: string, variant: number): Generated<unknown> {
  const body: Record<string, unknown> = {};
  let count = 0;
  for (const property of plan.properties) {
    if (!property.required) continue;
    const value = within(planSample(property.plan, `${label}-${property.name}`, variant), property.name);
    if (!value.ok) return value;
    body[property.name] = value.value;
    count++;
  }
  for (const property of plan.properties) {
    if (property.required || count >= plan.maxProperties) continue;
    const value = planSample(property.plan, `${label}-${property.name}`, variant);
    if (!value.ok) continue;
    body[property.name] = value.value;
    count++;
  }
  // Declared order, whichever were filled first.
  const ordered: Record<string, unknown> = {};
  for (const property of plan.properties) if (property.name in body) ordered[property.name] = body[property.name];
  for (let e = 0; count < plan.minProperties && e < plan.extras.length * 5; e++) {
    const extra = plan.extras[e % plan.extras.length]!;
    const attempt = Math.floor(e / plan.extras.length);
    const name = extra.names ? extra.names[attempt] : patternSample(extra.pattern!, attempt);
    if (name === undefined || name in ordered || name === '__proto__') continue;
    const value = planSample(extra.plan, `${label}-${name}`, variant);
    if (!value.ok) continue;
    ordered[name] = value.value;
    count++;
  }
  if (count < plan.minProperties)
    return unhonoured('minProperties', '', `only ${count} of at least ${plan.minProperties} properties could be made`);
  return made(ordered);
}
