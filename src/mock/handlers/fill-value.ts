import type { OpenAPIV3 } from 'openapi-types';
import { mainType, typesOf } from '../../openapi/schema-keywords.js';

/**
 * A value for a property the answer requires and no request supplies (a `readOnly` `createdAt`): the schema's
 * `default`, else its `example`, else its first `enum` value, else one made by type and format — now for a
 * date-time, a fresh UUID for a uuid, the minimum for a number. Made once when the item is created.
 */
export function fillValue(schema: OpenAPIV3.SchemaObject | undefined): unknown {
  if (!schema) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.example !== undefined) return schema.example;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (mainType(schema)) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 0;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return typesOf(schema)?.includes('null') ? null : '';
  }
}

function stringFor(schema: OpenAPIV3.SchemaObject): string {
  switch (schema.format) {
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'uuid':
      return crypto.randomUUID();
    default:
      return 'x'.repeat(schema.minLength ?? 0);
  }
}
