import type { OpenAPIV3 } from 'openapi-types';
import { objectShape } from '../../openapi/schema-shape.js';

/**
 * A valid body for a request schema with every property it declares filled (required and optional alike, so that
 * "every field sent comes back" has fields to look at): strings carry `label` (cut to maxLength), enums their
 * `variant`-th value, numbers their minimum or 1. Undefined when the shape is unknown (oneOf, anyOf) or a property
 * cannot be made simply (an object or array of unknown shape); the caller checks it with the document's validator.
 * `readOnly` properties are left out (OpenAPI 3.0 §4.7.25.4: "SHOULD NOT be sent as part of the request").
 */
export function sampleBody(schema: unknown, label: string, variant = 0): Record<string, unknown> | undefined {
  const shape = objectShape(schema);
  if (!shape.known) return undefined;
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(shape.properties)) {
    if (property.readOnly) continue;
    const value = sampleValue(property, `${label}-${name}`, variant);
    if (value === undefined) {
      if (shape.required.includes(name)) return undefined;
      continue;
    }
    body[name] = value;
  }
  return body;
}

function sampleValue(schema: OpenAPIV3.SchemaObject, label: string, variant: number): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[variant % schema.enum.length];
  switch (schema.type) {
    case 'string':
      return sampleString(schema, label);
    case 'integer':
      return Math.max(Math.ceil(schema.minimum ?? 1), 1) + (schema.maximum === undefined ? variant : 0);
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return variant % 2 === 0;
    default:
      return undefined;
  }
}

/** A value of each string format AJV checks that a label cannot be (RFC 3339, RFC 3986, RFC 5321, RFC 9562). */
const FORMATTED: Record<string, (label: string) => string> = {
  'date-time': () => '2026-01-02T03:04:05Z',
  date: () => '2026-01-02',
  uri: (label) => `https://example.com/${encodeURIComponent(label)}`,
  email: (label) => `${label.replace(/[^a-z0-9-]/gi, '').slice(-40) || 'contract'}@example.com`,
  uuid: () => '2f1e8d0c-6b1a-4c3e-9f00-5a4b3c2d1e0f',
};

function sampleString(schema: OpenAPIV3.SchemaObject, label: string): string | undefined {
  const formatted = schema.format === undefined ? undefined : FORMATTED[schema.format];
  if (formatted && schema.pattern === undefined) return formatted(label);
  // Another format or a pattern has rules a label would break; left out unless required (then no body is made).
  if (schema.pattern !== undefined || (schema.format !== undefined && schema.format !== 'byte')) return undefined;
  const text = schema.maxLength !== undefined ? label.slice(-schema.maxLength) : label;
  return text.length >= (schema.minLength ?? 0) ? text : text.padEnd(schema.minLength ?? 0, 'x');
}
