import type { ApiError } from '../../errors.js';
import type { Operation } from '../../openapi/operations.js';
import { errorKinds } from '../../errors.js';
import { findResponse, isJsonMediaType } from '../../openapi/operations.js';
import { errorShapes, renderShape, type ErrorField, type ErrorShape } from './error-shape.js';
import { stringifyJson } from '../../json/stringify-json.js';

/** An error answer as a reply (reply.ts's `Reply`, which imports this module): a JSON `body`, or `bytes` and its type. */
export interface ErrorAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly bytes?: string;
}

/** How an operation answers an error of one status in the document's words. */
export interface ErrorTemplate {
  reply(failure: ApiError, message: string): ErrorAnswer;
}

/**
 * Templates by operation and status, decided on first use and kept: an error answer costs a map lookup and the
 * building of a small object, never a walk of the schema. Keyed by the operation object, so a reloaded document
 * (new operations) starts afresh and the old entries go with it. `null`: the mock's own Error shape.
 */
const templates = new WeakMap<Operation, Map<number, ErrorTemplate | null>>();

/**
 * The template for an error of `status` answered for `operation`, or undefined where the mock's own Error shape
 * `{code, message, status}` as `application/json` stays: the operation declares no response for the status (no
 * exact code, no range, no `default`; OAS 3.0.3 §4.7.16, §4.7.17), or one without `content` (which describes no
 * payload and forbids none: the message is worth keeping), a JSON schema that our shape fits as it is or that names
 * no member to fill, a media type the mock does not write (XML, `*∕*`), or a schema none of whose shapes its own
 * validator accepts.
 */
export function errorTemplate(operation: Operation, status: number): ErrorTemplate | undefined {
  let byStatus = templates.get(operation);
  if (!byStatus) templates.set(operation, (byStatus = new Map<number, ErrorTemplate | null>()));
  let template = byStatus.get(status);
  if (template === undefined) {
    template = buildTemplate(operation, status);
    byStatus.set(status, template);
  }
  return template ?? undefined;
}

function buildTemplate(operation: Operation, status: number): ErrorTemplate | null {
  const declared = findResponse(operation, status);
  if (!declared) return null;
  const json = declared.mediaTypes.find(isJsonMediaType);
  if (json) return jsonTemplate(json, declared.schema, declared.validate, status);
  const text = declared.mediaTypes.find((type) => /^text\/(plain|\*)\s*(;|$)/i.test(type));
  return text ? TEXT : null;
}

/** `text/plain` (or `text/*`): the message as the text, in UTF-8 (RFC 9110 §8.3.2: say the charset). */
const TEXT: ErrorTemplate = {
  reply: (failure, message) => ({
    status: failure.status,
    headers: { ...failure.headers, 'Content-Type': 'text/plain; charset=utf-8' },
    bytes: message,
  }),
};

/** What a shape is checked with before it is kept: a message as long as most, of a kind the status has. */
const SAMPLE_MESSAGE = 'the mock could not answer this request as asked';

function jsonTemplate(
  mediaType: string,
  schema: object | undefined,
  validate: ((value: unknown) => boolean) | undefined,
  status: number,
): ErrorTemplate | null {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  const shapes = errorShapes(schema, status, essence === 'application/problem+json');
  const kind = sampleKind(status);
  const shape = shapes.find((candidate) => !validate || validate(renderShape(candidate, kind, SAMPLE_MESSAGE)));
  if (!shape || isOurShape(shape, status)) return null;
  // application/json is what a reply's `body` is sent as; another JSON type is written out with its own header.
  if (essence === 'application/json')
    return {
      reply: (failure, message) => ({
        status: failure.status,
        headers: failure.headers,
        body: renderShape(shape, failure.code, message),
      }),
    };
  return {
    reply: (failure, message) => ({
      status: failure.status,
      headers: { ...failure.headers, 'Content-Type': mediaType },
      bytes: stringifyJson(renderShape(shape, failure.code, message)),
    }),
  };
}

/** The first kind of the table with this status (a forced status without one of its own: `forced`). */
function sampleKind(status: number): string {
  for (const [kind, kindStatus] of Object.entries(errorKinds))
    if (kindStatus === status && kind !== 'cors_refused') return kind;
  return 'forced';
}

/**
 * The interface's own Error schema (`{code: string, message: string, status: integer}`, as v1 declares it) gives
 * exactly our shape: answered by the one path every other error takes, so v1's bytes cannot change.
 */
function isOurShape(shape: ErrorShape, status: number): boolean {
  if (!('fields' in shape) || shape.fields.length !== 3) return false;
  const [code, message, own] = shape.fields as [ErrorField, ErrorField, ErrorField];
  return (
    code.name === 'code' &&
    code.source.from === 'kind' &&
    code.source.allowed === undefined &&
    message.name === 'message' &&
    message.source.from === 'message' &&
    message.source.max === undefined &&
    own.name === 'status' &&
    own.source.from === 'fixed' &&
    own.source.value === status
  );
}
