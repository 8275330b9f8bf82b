import type { Spec } from '../../openapi/load-spec.js';
import type { Context, Handler } from './context.js';
import type { Reply } from '../base/reply.js';
import { apiError } from '../../errors.js';

/**
 * Serves an operation that has no stateful handler with @stoplight/prism-http: a response from the document's
 * examples or generated from its schema. Our own stages have already routed, authenticated and validated the
 * request, and the one `Prefer` negotiator has chosen the status, example and mode (`context.prism`), so Prism
 * only generates the body; its Either result and its
 * problem+json failures are translated here, at the one call site, into a Reply or our Error shape.
 * prism-http is imported only when a document has such an operation, keeping start-up fast.
 */
export async function createFallback(spec: Spec): Promise<Handler> {
  const [{ createInstance, getHttpOperationsFromSpec }, { createLogger }] = await Promise.all([
    import('@stoplight/prism-http'),
    import('@stoplight/prism-core'),
  ]);
  const prismOperations = await getHttpOperationsFromSpec(structuredClone(spec.source));
  const config = {
    mock: { dynamic: false },
    validateRequest: false,
    validateResponse: false,
    checkSecurity: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  } as const;
  const prism = createInstance(config, { logger: createLogger('petstore-kit', { level: 'silent' }) });

  return async function fallback(context: Context): Promise<Reply> {
    const { operation, params, body, headers } = context;
    const asked = context.prism;
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(params.query))
      query[name] = Array.isArray(value) ? value.map(String) : String(value);
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(params.path[name])),
    );
    const result = await prism.request(
      {
        method: operation.method as never,
        url: { path, query },
        headers: Object.fromEntries(
          Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'),
        ),
        body,
      },
      prismOperations,
      { ...config, mock: { dynamic: asked?.dynamic ?? false, code: asked?.code, exampleKey: asked?.exampleKey } },
    )();
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
    for (const [name, value] of Object.entries(output.headers ?? {})) {
      if (name.toLowerCase() !== 'content-type') replyHeaders[name] = String(value);
    }
    return { status: output.statusCode, headers: replyHeaders, body: output.body };
  };
}
