import { made, type Generated } from '../generate/generated.js';
import { planSample } from '../generate/plan-sample.js';
import { planValue, type PlanOptions } from '../generate/value-plan.js';

/**
 * A valid body for a request schema with every property it declares filled (required and optional alike, so that
 * "every field sent comes back" has fields to look at), nested objects and arrays included (Swagger Petstore 3's
 * `photoUrls: string[]` and `category: {id, name}`): strings carry `label` (cut to maxLength) where no format or
 * pattern rules them, enums their `variant`-th value, integers their smallest positive value, every keyword of both
 * dialects honoured as the generators honour it (value-plan.ts). `readOnly` properties are left out (OpenAPI 3.0
 * §4.7.25.4: "SHOULD NOT be sent as part of the request"). Undefined when the schema's value is not an object or a
 * keyword cannot be honoured (`sampleBodyOf` says which); the caller still checks it with the document's validator.
 */
export function sampleBody(
  schema: unknown,
  label: string,
  variant = 0,
  options: PlanOptions = {},
): Record<string, unknown> | undefined {
  const sample = sampleBodyOf(schema, label, variant, options);
  return sample.ok ? sample.value : undefined;
}

/** As sampleBody, naming the keyword that could not be honoured when no body is made. */
export function sampleBodyOf(
  schema: unknown,
  label: string,
  variant = 0,
  options: PlanOptions = {},
): Generated<Record<string, unknown>> {
  const plan = planValue(schema, { direction: 'request', ...options });
  if (!plan.ok) return plan;
  const sample = planSample(plan.value, label, variant);
  if (!sample.ok) return sample;
  const value = sample.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, unhonoured: { keyword: 'type', at: '', reason: 'the body is not an object' } };
  return made(value as Record<string, unknown>);
}
