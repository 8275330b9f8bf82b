import type { OpenAPIV3 } from 'openapi-types';
import type { Operation } from '../../openapi/operations.js';
import type { Reply } from '../base/reply.js';
import type { Negotiation } from '../stages/negotiate-prefer.js';
import { declaredResponseKey, isJsonMediaType } from '../../openapi/operations.js';
import { apiError } from '../../errors.js';
import { minimalValue } from '../base/minimal-value.js';
import type { BodyCheck } from './valid-body.js';

/**
 * The answer to an operation without a stateful handler that is too large for prism-http to read (fallback.ts),
 * made from the document as Prism's static mode makes it: the status `Prefer: code=` asks for, else the lowest 2xx
 * the operation documents, else its first response; the body its example named by `Prefer: example=`, sent as
 * asked, else its first example, else the media type's or the schema's `example`, else the least value the schema
 * accepts (minimal-value.ts). A body not asked for by name is kept to the response's schema by `check`
 * (valid-body.ts): an example that breaks it gives way to the least valid body. `Prefer: dynamic=true` gets the same
 * static body: nothing random is generated here.
 */
export function answerFromDocument(operation: Operation, asked: Negotiation['prism'], check: BodyCheck): Reply {
  const responses = (operation.object.responses ?? {}) as Record<string, OpenAPIV3.ResponseObject>;
  const key = responseKey(Object.keys(responses), asked?.code);
  if (key === undefined) throw apiError('internal_error', `${operation.id} documents no response the mock can serve`);
  const status = asked?.code ?? statusOf(key);
  const json = Object.keys(responses[key]?.content ?? {}).find(isJsonMediaType);
  if (json === undefined) return { status };
  const media = responses[key]!.content![json]!;
  const examples = Object.entries(media.examples ?? {}).map(([name, example]) => [
    name,
    (example as OpenAPIV3.ExampleObject).value as unknown,
  ]);
  const named = examples.find(([name]) => name === asked?.exampleKey);
  // The example the client named is the document's own words, sent as asked (scenario-tables.ts: the start-up
  // does not refuse a document for it, OAS examples SHOULD match); every other body keeps the schema.
  if (named) return { status, body: named[1] };
  const schema = media.schema as OpenAPIV3.SchemaObject | undefined;
  const single: unknown = examples[0]?.[1] ?? media.example ?? schema?.example;
  const body = check(operation, status, json, single ?? minimalValue(schema ?? {}));
  // A JSON body as fallback.ts sends Prism's: the pipeline writes its Content-Type.
  return { status, body };
}

/** The response a request gets: the asked code's own, its range's (`4XX`) or `default`; else the lowest 2xx. */
function responseKey(keys: string[], code: number | undefined): string | undefined {
  if (code !== undefined) return declaredResponseKey(keys, code);
  const success = keys.filter((key) => /^2\d\d$/.test(key)).sort();
  return success[0] ?? keys.find((key) => key.toUpperCase() === '2XX') ?? keys[0];
}

/** `201` → 201; a range (`2XX`) → its first status; `default` → 200 (OAS 3.0.3 §4.7.16: any other status). */
function statusOf(key: string): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  return 200;
}
