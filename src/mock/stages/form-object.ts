import type { OpenAPIV3 } from 'openapi-types';
import { apiError } from '../../errors.js';
import type { BodyMedia } from '../../openapi/body-media.js';
import { isSchemaNode, mainType, type JsonTypeName } from '../../openapi/schema-keywords.js';
import { objectShape } from '../../openapi/schema-shape.js';
import { toInteger } from '../../json/int64.js';
import { parseJson } from '../../json/parse-json.js';

/** One field of a form or multipart body as sent: its name, its text, and (multipart) the part's own type. */
export interface FormField {
  name: string;
  value: string;
  type?: string | undefined;
}

/**
 * The object a form body stands for, built by the body's schema (OAS 3.0.3 §4.7.14, "Support for
 * x-www-form-urlencoded Request Bodies" and "Special Considerations for multipart Content"), so that it is
 * validated, and stored by a create, as the equivalent JSON object would be:
 * - a field's text becomes the property's type where it is written as one (`7` an integer, `1.5` a number, `true`
 *   a boolean, strictly as parameters are read); text that is not stays text, and the schema names the rule it breaks;
 * - an array property takes every field of its name (style form, exploded: `tag=a&tag=b`, the default of §4.7.15),
 *   or one field split by its Encoding Object's style when `explode` is false (`,` form, `%20` spaceDelimited,
 *   `|` pipeDelimited);
 * - an object property takes `name[key]=value` fields (style deepObject) or one field of JSON text (a multipart
 *   object's default Content-Type is application/json, §4.7.15);
 * - a part declared JSON (its Content-Type) is parsed as JSON, a 400 when it is not.
 * A field given more than once where the schema takes one value is a 400 naming it.
 */
export function formObject(fields: readonly FormField[], media: BodyMedia): Record<string, unknown> {
  const shape = objectShape(media.schema);
  const groups = new Map<string, FormField[]>();
  const entries = new Map<string, Map<string, FormField[]>>();
  for (const field of fields) {
    const deep = /^([^[\]]+)\[([^[\]]*)\]$/.exec(field.name);
    if (deep && mainType(shape.properties[deep[1]!]) === 'object') {
      let keys = entries.get(deep[1]!);
      if (!keys) entries.set(deep[1]!, (keys = new Map<string, FormField[]>()));
      push(keys, deep[2]!, field);
    } else push(groups, field.name, field);
  }
  // Object.fromEntries defines own properties: a field named __proto__ is a field, never the object's prototype.
  const object: [string, unknown][] = [];
  for (const [name, group] of groups) {
    const schema = shape.properties[name] ?? additionalSchema(media.schema);
    object.push([name, fieldValue(name, group, schema, media.encoding[name])]);
  }
  for (const [name, keys] of entries) {
    if (groups.has(name)) throw apiError('invalid_body', `body.${name} is given both whole and as ${name}[…] fields`);
    const properties = objectShape(shape.properties[name]).properties;
    const value: [string, unknown][] = [];
    for (const [key, group] of keys) value.push([key, fieldValue(`${name}.${key}`, group, properties[key], undefined)]);
    object.push([name, Object.fromEntries(value)]);
  }
  return Object.fromEntries(object);
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function additionalSchema(schema: unknown): unknown {
  return isSchemaNode(schema) && isSchemaNode(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

function fieldValue(
  where: string,
  group: FormField[],
  schema: unknown,
  encoding: OpenAPIV3.EncodingObject | undefined,
): unknown {
  const type = mainType(schema);
  if (type === 'array') {
    const items = isSchemaNode(schema) ? schema.items : undefined;
    if (group.length === 1 && isJson(group[0]!, encoding)) return jsonValue(where, group[0]!);
    const texts =
      group.length === 1 && encoding?.explode === false
        ? group[0]!.value.split(DELIMITERS[encoding.style ?? 'form'] ?? ',')
        : group.map((field) => field.value);
    return texts.map((text) => scalar(text, mainType(items)));
  }
  if (group.length > 1) throw apiError('invalid_body', `body.${where} must be given once (got ${group.length} values)`);
  const field = group[0]!;
  if (isJson(field, encoding)) return jsonValue(where, field);
  if (type === 'object') return maybeJson(field.value);
  return scalar(field.value, type);
}

/** OAS 3.0.3 §4.7.12 style values for an array in one field. */
const DELIMITERS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** Whether a field is JSON by its part's Content-Type or its Encoding Object's. */
function isJson(field: FormField, encoding: OpenAPIV3.EncodingObject | undefined): boolean {
  const type = field.type ?? encoding?.contentType;
  return type !== undefined && /^application\/(?:[^;]*\+)?json\s*(?:;|$)/i.test(type.trim());
}

function jsonValue(where: string, field: FormField): unknown {
  try {
    return parseJson(field.value);
  } catch (error) {
    throw apiError('invalid_body', `body.${where} is not valid JSON: ${(error as Error).message}`);
  }
}

/** JSON text where it is JSON, else the text, which the schema then refuses by name. */
function maybeJson(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

/** Text as the type it is written as, strictly (parse-parameters.ts's rules); any other text stays text. */
function scalar(text: string, type: JsonTypeName | undefined): unknown {
  switch (type) {
    case 'integer':
      // Beyond ±(2^53−1) a bigint with the digits sent, as a JSON body's int64 (src/json/int64.ts).
      return /^(0|-?[1-9]\d*)$/.test(text) ? toInteger(text) : text;
    case 'number':
      return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) && Number.isFinite(Number(text))
        ? Number(text)
        : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}
