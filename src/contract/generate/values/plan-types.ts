import type { SchemaNode } from '../../../openapi/schema-keywords.js';
import type { Direction } from './schema-check.js';

/**
 * How to build values of a schema, worked out once from its keywords: plain data that two interpreters read, one
 * for random values (plan-arbitrary.ts, fast-check) and one for a deterministic value (plan-sample.ts, the stateful
 * checks' bodies). A keyword the plan cannot honour is a value (`Generated`), never a guess.
 */
export type Plan =
  | { kind: 'fixed'; values: unknown[] }
  | { kind: 'null' }
  | { kind: 'boolean' }
  | { kind: 'integer'; min: bigint; max: bigint; step: bigint; bounded: boolean }
  | { kind: 'number'; min?: number; max?: number; minExcluded: boolean; maxExcluded: boolean; multipleOf?: number }
  | { kind: 'string'; minLength: number; maxLength?: number; format?: string; patterns: string[]; plain: boolean }
  | { kind: 'array'; prefix: Plan[]; rest?: Plan; minItems: number; maxItems: number; unique: boolean }
  | { kind: 'object'; properties: PropertyPlan[]; extras: ExtraPlan[]; minProperties: number; maxProperties: number }
  | { kind: 'choice'; options: Plan[] }
  | { kind: 'checked'; plan: Plan; nodes: SchemaNode[]; direction: Direction; at: string };

export interface PropertyPlan {
  name: string;
  plan: Plan;
  required: boolean;
}

/** Properties beyond the declared ones: names from `names` or matching `pattern`, values from `plan`. */
export interface ExtraPlan {
  names?: string[];
  pattern?: string;
  plan: Plan;
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b < a ? q + 1n : q;
}

export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return q * b > a ? q - 1n : q;
}
