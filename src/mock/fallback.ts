import type { Spec } from '../openapi/load-spec.js';
import type { Context, Handler, Reply } from './context.js';
import { apiError } from '../errors.js';
import { parsePrefer } from './prefer.js';

/**
 * Serves an operation that has no stateful handler with @stoplight/prism-http: a response from the document's
 * examples or generated from its schema, chosen by `Prefer: code=…, example=…, dynamic=true`. Our own stages have
 * already routed, authenticated and validated the request, so Prism only mocks; its Either result and its
 * problem+json failures are translated here, at the one call site, into a Reply or our Error shape.
 * prism-http is imported only when a document has such an operation, keeping start-up fast.
 */
export async function createFallback(spec: Spec): Promise<Handler> {
  const [{ createInstance, getHttpOperationsFromSpec }, { createLogger }] = await Promise.all([
    import('@stoplight/prism-http'),
    import('@stoplight/prism-core'),
  ]);
  const prismOperations = await getHttpOperationsFromSpec(structuredClone(spec.source) as never);
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
    const preference = parsePrefer(headers['prefer']);
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(params.query)) query[name] = Array.isArray(value) ? value.map(String) : String(value);
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params.path[name])));
    const result = await prism.request(
      {
        method: operation.method as never,
        url: { path, query },
        headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string')),
        body,
      },
      prismOperations,
      { ...config, mock: { dynamic: preference.dynamic ?? false, code: preference.code, exampleKey: preference.example } },
    )();
    if (result._tag === 'Left') {
      const problem = result.left as Error & { status?: number; detail?: string };
      const detail = problem.detail || problem.message;
      // Prism fails when a Prefer asks for a code or example the document does not have: the client's doing.
      if (preference.code !== undefined || preference.example !== undefined) {
        throw apiError('invalid_parameter', `header.Prefer asks for what ${operation.id} does not document: ${detail}`);
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
