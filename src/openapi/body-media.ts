import type { OpenAPIV3 } from 'openapi-types';
import type { ValidateFunction } from 'ajv';

/**
 * How the mock reads a request body of a media type: JSON text, a form (`application/x-www-form-urlencoded`,
 * `multipart/form-data`: fields converted by their schema, then validated), or bytes it accepts unread (every
 * other type the operation declares: `application/octet-stream`, `image/png`, `application/xml`, `text/plain`).
 */
export type BodyKind = 'json' | 'form' | 'multipart' | 'bytes';

/** One media type of an operation's request body (OAS 3.0.3 §4.7.13 `content`), as the mock reads it. */
export interface BodyMedia {
  /** The key as the document writes it: `application/x-www-form-urlencoded`, `image/*`. */
  type: string;
  /** Its essence, lower-cased and without parameters: `application/x-www-form-urlencoded`. */
  essence: string;
  kind: BodyKind;
  /** The media type's schema; a form's properties say how each field's text is read. */
  schema: object | undefined;
  /** The compiled schema of a form or multipart body (a JSON body's is `RequestBody.validate`). */
  validate: ValidateFunction | undefined;
  /** OAS 3.0.3 §4.7.15 Encoding Object, by property name (read for form and multipart bodies). */
  encoding: Readonly<Record<string, OpenAPIV3.EncodingObject>>;
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
export function essenceOf(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/** The kind of body a media type's essence is read as (a range such as `*∕*` is read by the request's own type). */
export function kindOf(essence: string): BodyKind {
  if (essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json')))
    return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  if (essence === 'multipart/form-data') return 'multipart';
  return 'bytes';
}
