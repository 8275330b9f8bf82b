import type { OpenAPIV3 } from 'openapi-types';
import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { Context, Handler } from './context.js';
import type { Reply } from '../base/reply.js';
import { apiError } from '../../errors.js';
import { valueAt } from '../../openapi/resolve-references.js';
import { isJsonMediaType } from '../../openapi/operations.js';
import { expandedSize } from './expanded-size.js';
import { answerFromDocument } from './answer-from-document.js';
import { createBodyCheck } from './valid-body.js';

/**
 * The most JSON nodes an operation's part of the document may expand to for prism-http to read it: its dereferencer
 * copies every reference in place and walks the copies, so its time grows with the expansion, not the file. Box's
 * largest operation expands to about 10,000 nodes and Asana's to 3,000, read in moments; every one of Stripe's 395
 * expands to billions, and Prism never finished one (issue 52 item 6: a request to it hung the mock).
 */
export const PRISM_MAX_EXPANSION = 200_000;

/**
 * Serves an operation that has no stateful handler with @stoplight/prism-http: a response from the document's
 * examples or generated from its schema. Our own stages have already routed, authenticated and validated the
 * request, and the one `Prefer` negotiator has chosen the status, example and mode (`context.prism`), so Prism
 * only generates the body; its Either result and its
 * problem+json failures are translated here, at the one call site, into a Reply or our Error shape.
 *
 * prism-http is imported when a document has such an operation; it reads each operation when it is first asked
 * for, from a document of that one operation and the components it reaches, not the whole document. Prism resolves every
 * reference of what it reads, which for a large document (Stripe's 4 MB, most of its 395 operations without a role)
 * took minutes; one operation's part of it takes a moment, once. An operation whose part still expands beyond
 * PRISM_MAX_EXPANSION (each of Stripe's) is answered from the document without Prism (answer-from-document.ts).
 */
export async function createFallback(spec: Spec): Promise<Handler> {
  const prism = lazyPrism();
  // Imported on the first request that needs it, not at start-up: it is most of a large document's start (2.6 s
  // of CPU and about 100 MB, mostly faker's locales), and on a document whose operations are all too large for it
  // (Stripe's) it is never needed. That first request waits for the import, once.
  const operations = new Map<string, ReturnType<typeof prismOperationsOf>>();
  const tooLarge = new Map<string, boolean>();
  const config = CONFIG;
  const check = createBodyCheck(spec.compile);

  return async function fallback(context: Context): Promise<Reply> {
    const { operation, params, body, headers } = context;
    const asked = context.prism;
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(params.query))
      query[name] = Array.isArray(value) ? value.map(String) : String(value);
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(params.path[name])),
    );
    let large = tooLarge.get(operation.id);
    if (large === undefined) {
      large = expandedSize(spec.source, documentOf(spec.source, operation), PRISM_MAX_EXPANSION) > PRISM_MAX_EXPANSION;
      tooLarge.set(operation.id, large);
    }
    if (large) {
      const answer = answerFromDocument(operation, asked, check);
      return { ...answer, headers: withApplied({}, asked, false) };
    }
    const { instance, getHttpOperationsFromSpec } = await prism(config);
    let prismOperations = operations.get(operation.id);
    if (!prismOperations) {
      prismOperations = prismOperationsOf(spec, operation, getHttpOperationsFromSpec);
      operations.set(operation.id, prismOperations);
    }
    const sent = Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string');
    const ask = async (entries: [string, string][]) =>
      instance.request(
        { method: operation.method as never, url: { path, query }, headers: Object.fromEntries(entries), body },
        await prismOperations,
        { ...config, mock: { dynamic: asked?.dynamic ?? false, code: asked?.code, exampleKey: asked?.exampleKey } },
      )();
    let result = await ask(sent);
    // An Accept no declared media type meets (JSON asked of museum's image/png QR code): RFC 9110 §12.5.1 lets a
    // server disregard it and answer what it has, which a mock of the document does rather than fail.
    if (result._tag === 'Left' && /Unable to find content for/.test(problemText(result.left)))
      result = await ask(sent.filter(([name]) => name.toLowerCase() !== 'accept'));
    if (result._tag === 'Left') {
      const problem = result.left as Error & { status?: number; detail?: string };
      const detail = problem.detail || problem.message;
      // The negotiator checked that the document documents what `Prefer` asks for; when Prism still cannot serve
      // it (a range status such as 4XX it will not pick), that is the request's choice to change, not a fault.
      if (asked?.code !== undefined || asked?.exampleKey !== undefined) {
        throw apiError('invalid_parameter', `header.Prefer asks for what ${operation.id} cannot serve: ${detail}`);
      }
      throw apiError('internal_error', `${operation.id} has no response the mock can serve: ${detail}`);
    }
    const output = result.right.output;
    const replyHeaders: Record<string, string> = {};
    let mediaType: string | undefined;
    for (const [name, value] of Object.entries(output.headers ?? {})) {
      if (name.toLowerCase() !== 'content-type') replyHeaders[name] = String(value);
      else mediaType = String(value);
    }
    // A JSON answer is a body like every other, kept to its schema (valid-body.ts: Prism composes it from property
    // examples as written, which may break it) but for the example the client named, sent as asked; another media
    // type (museum's image/png, text/plain, XML) is sent as Prism made it, under its own Content-Type, never
    // relabelled as JSON.
    if (mediaType === undefined || isJsonMediaType(mediaType)) {
      const status = output.statusCode;
      const asIs = asked?.exampleKey !== undefined || output.body === undefined;
      const body = asIs ? output.body : check(operation, status, mediaType, output.body);
      // A generated body its schema refused was replaced by the least valid one: nothing generated was sent.
      const headers = withApplied(replyHeaders, asked, body !== undefined && body === output.body);
      return { status, headers, body };
    }
    replyHeaders['Content-Type'] = mediaType;
    return { status: output.statusCode, headers: withApplied(replyHeaders, asked, true), bytes: bytesOf(output.body) };
  };
}

/**
 * RFC 7240 §3: `Preference-Applied` names what was applied: what the negotiator applied (`asked.applied`), and
 * `dynamic=true` only where Prism generated the body sent (not for a named example, which Prism serves instead, nor
 * for a body answered from the document or one that replaced a generated body its schema refused: `generated`).
 */
function withApplied(headers: Record<string, string>, asked: Context['prism'], generated: boolean) {
  const dynamic = generated && asked?.dynamic === true && asked.exampleKey === undefined;
  const list = [asked?.applied, dynamic ? 'dynamic=true' : ''].filter(Boolean).join(', ');
  return list ? { ...headers, 'Preference-Applied': list } : headers;
}

/** The words of a failure Prism returns: its problem's `detail`, else the error's message. */
function problemText(left: unknown): string {
  const { detail, message } = left as { detail?: unknown; message?: unknown };
  return [detail, message].filter((part): part is string => typeof part === 'string').join(' ');
}

/** What Prism made for a media type that is not JSON: its text or bytes, else the value as JSON text. */
function bytesOf(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return body === undefined ? '' : JSON.stringify(body);
}

/** Prism generates bodies only: our own stages route, authenticate and validate. */
const CONFIG = {
  mock: { dynamic: false },
  validateRequest: false,
  validateResponse: false,
  checkSecurity: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
} as const;

type PrismHttp = typeof import('@stoplight/prism-http');
type PrismConfig = Parameters<PrismHttp['createInstance']>[0];

/** prism-http and its instance, made on first use and kept. */
function lazyPrism() {
  let made:
    | Promise<{
        instance: ReturnType<PrismHttp['createInstance']>;
        getHttpOperationsFromSpec: PrismHttp['getHttpOperationsFromSpec'];
      }>
    | undefined;
  return function prism(config: PrismConfig) {
    made ??= Promise.all([import('@stoplight/prism-http'), import('@stoplight/prism-core')]).then(
      ([{ createInstance, getHttpOperationsFromSpec }, { createLogger }]) => ({
        instance: createInstance(config, { logger: createLogger('petstore-kit', { level: 'silent' }) }),
        getHttpOperationsFromSpec,
      }),
    );
    return made;
  };
}

/** Prism's reading of one operation: a document holding its path item's method and what it references. */
function prismOperationsOf(spec: Spec, operation: Operation, read: PrismHttp['getHttpOperationsFromSpec']) {
  return read(structuredClone(documentOf(spec.source, operation)));
}

/**
 * The part of a bundled document one operation needs: the operation (with its path item's parameters) and every
 * component its references reach, transitively, each once.
 */
export function documentOf(source: OpenAPIV3.Document, operation: Operation): OpenAPIV3.Document {
  const item = (source.paths?.[operation.path] ?? {}) as Record<string, unknown>;
  const paths = { [operation.path]: { parameters: item.parameters, [operation.method]: item[operation.method] } };
  const components: Record<string, Record<string, unknown>> = {};
  const stack: unknown[] = [paths];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/') && !seen.has(ref)) {
      seen.add(ref);
      const [, , kind, name] = ref.split('/');
      const target = valueAt(source, ref);
      if (kind && name && target !== undefined) {
        const decoded = name.replace(/~1/g, '/').replace(/~0/g, '~');
        (components[kind] ??= {})[decoded] = (source.components as Record<string, Record<string, unknown>>)[kind]![
          decoded
        ];
        stack.push(target);
      }
    }
    for (const value of Object.values(node)) stack.push(value);
  }
  // Only what prism-http reads for one request: webhooks and extensions hold references this walk did not follow
  // (museum's webhook names a schema no path does), which prism would resolve and fail on.
  const { openapi, info, servers, security, jsonSchemaDialect } = source as OpenAPIV3.Document & {
    jsonSchemaDialect?: string;
  };
  return {
    openapi,
    info,
    ...(servers ? { servers } : {}),
    ...(security ? { security } : {}),
    ...(jsonSchemaDialect ? { jsonSchemaDialect } : {}),
    paths: paths as OpenAPIV3.PathsObject,
    components: { ...components, securitySchemes: source.components?.securitySchemes },
  };
}
