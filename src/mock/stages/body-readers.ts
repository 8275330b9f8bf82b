import { essenceOf, kindOf, type BodyKind, type BodyMedia } from '../../openapi/body-media.js';
import { matchMedia } from './match-media.js';
import type { RequestBody } from '../../openapi/operations.js';
import { bytesText } from '../base/bytes-text.js';
import { charsetOf } from '../base/body-encoding.js';
import { describeErrors, joinMessages } from '../../openapi/describe-errors.js';
import { apiError } from '../../errors.js';
import { formObject } from './form-object.js';
import { readForm } from './read-form.js';
import { readMultipart } from './read-multipart.js';

/** How read-body.ts reads a body of a document that declares media types other than JSON. */
export interface BodyReaders {
  /**
   * The declared media type a Content-Type falls under; a 415 when the operation declares none it fits, or (`stores`:
   * the body becomes a stored item) when it is a type the mock keeps as bytes.
   */
  match(spec: RequestBody, contentType: string, stores: boolean | undefined): BodyMedia;
  /** A body that is not JSON, as the handler gets it: a form's object, validated; other bytes as text (bytes-text.ts). */
  read(media: BodyMedia, raw: Uint8Array, contentType: string): unknown;
  /** `application/json or application/x-www-form-urlencoded`: what a 415 asks for. */
  declared(spec: RequestBody): string;
  /** The 400 of a required body sent empty. */
  required(spec: RequestBody): string;
}

/**
 * The readers of `application/x-www-form-urlencoded` and `multipart/form-data` bodies and of every other declared
 * media type (kept as bytes), loaded by a document that declares one (document-model.ts), as the checks of security schemes are: a page serving a JSON-only document does
 * not carry them (scripts/build-web.mjs weighs them apart). Web APIs only (TextDecoder, decodeURIComponent).
 */
export const bodyReaders: BodyReaders = {
  match(spec, contentType, stores) {
    // A body declared without content (OAS 3.0.3 §4.7.13 requires it; some documents write `{}`) is read as JSON.
    const media = spec.media?.length ? matchMedia(spec.media, contentType) : jsonOnly(contentType);
    const sent = contentType.split(';')[0]!.trim();
    if (!media) throw apiError('unsupported_media_type', `Content-Type must be ${declared(spec)} (got ${sent})`);
    if (stores && media.kind === 'bytes')
      throw apiError(
        'unsupported_media_type',
        `the mock makes a stored item of a JSON, form or multipart body, not of ${sent}: send ${declared(spec, 'bytes')}`,
      );
    const charset = media.kind === 'form' ? charsetOf(contentType) : undefined;
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
      throw apiError(
        'unsupported_media_type',
        `Content-Type charset ${JSON.stringify(charset.slice(0, 40))} is not supported: form bodies must be UTF-8 (WHATWG URL §5.1)`,
      );
    return media;
  },
  declared: (spec) => declared(spec),
  required: (spec) => `the request body is required: send it with Content-Type ${declared(spec)}`,
  read(media, raw, contentType) {
    if (media.kind === 'bytes') return bytesText(raw);
    const fields = media.kind === 'form' ? readForm(raw) : readMultipart(raw, contentType);
    const body = formObject(fields, media);
    if (media.validate && !media.validate(body))
      throw apiError('invalid_body', joinMessages(describeErrors(media.validate.errors, 'body')));
    return body;
  },
};

function jsonOnly(contentType: string): BodyMedia | undefined {
  const essence = essenceOf(contentType);
  if (kindOf(essence) !== 'json') return undefined;
  return { type: essence, essence, kind: 'json', schema: undefined, validate: undefined, encoding: {} };
}

function declared(spec: RequestBody, except?: BodyKind): string {
  const types = (spec.media ?? []).filter((m) => m.kind !== except).map((m) => m.type);
  return types.length === 0 ? 'application/json' : types.join(' or ');
}
