import type { Operation } from '../../openapi/operations.js';

/** The (frozen, shared) path parameters of a match on a path without parameters. */
export const NO_MATCHED_PARAMS: Record<string, string> = Object.freeze({});

export interface PathEntry {
  template: string;
  segments: string[];
  /** Names of the `{param}` segments by position; undefined for a literal segment. */
  params: (string | undefined)[];
  byMethod: Map<string, Operation>;
  allow: string;
}

/**
 * Matches a request path below the base path to an operation of the document. Paths without parameters are one
 * map lookup; templated ones are compared segment by segment, literal paths first (OpenAPI 3.0 §4.7.8: concrete
 * paths match before templated ones).
 */
export function createRouter(operations: Operation[], basePath: string) {
  const staticPaths = new Map<string, PathEntry>();
  const templated: PathEntry[] = [];
  const entries = new Map<string, PathEntry>();
  for (const operation of operations) {
    let entry = entries.get(operation.path);
    if (!entry) {
      const segments = operation.path.split('/').slice(1);
      const params = segments.map((s) => /^\{(.+)\}$/.exec(s)?.[1]);
      entry = { template: operation.path, segments, params, byMethod: new Map(), allow: '' };
      entries.set(operation.path, entry);
      if (params.some((p) => p !== undefined)) templated.push(entry);
      else staticPaths.set(operation.path, entry);
    }
    entry.byMethod.set(operation.method.toUpperCase(), operation);
  }
  for (const entry of entries.values()) entry.allow = allowHeader(entry.byMethod.keys());
  // More literal segments first, so `/pets/mine` wins over `/pets/{petId}`.
  templated.sort((a, b) => literalCount(b) - literalCount(a));

  function findPath(relative: string): { entry: PathEntry; pathParams: Record<string, string> } | undefined {
    const exact = staticPaths.get(relative);
    if (exact) return { entry: exact, pathParams: NO_MATCHED_PARAMS };
    const parts = relative.split('/').slice(1);
    for (const entry of templated) {
      if (entry.segments.length !== parts.length) continue;
      const pathParams: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < parts.length && matched; i++) {
        const name = entry.params[i];
        const part = parts[i]!;
        if (name === undefined) matched = part === entry.segments[i];
        else if (part === '') matched = false;
        else pathParams[name] = decodeSegment(part);
      }
      if (matched) return { entry, pathParams };
    }
    return undefined;
  }

  return {
    /** The path's entry (its operations by method, its `Allow`) and path parameters; undefined when no path matches. */
    find(path: string): { entry: PathEntry; pathParams: Record<string, string> } | undefined {
      const relative = stripBase(path, basePath);
      return relative === undefined ? undefined : findPath(relative);
    },
  };
}

export type Router = ReturnType<typeof createRouter>;

function stripBase(path: string, basePath: string): string | undefined {
  if (!basePath) return path;
  if (!path.startsWith(basePath)) return undefined;
  const rest = path.slice(basePath.length);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape is kept as sent; the parameter's schema then rejects it like any other bad value.
    return segment;
  }
}

/** The `Allow` value for a path's methods (RFC 9110 §10.2.1): HEAD wherever GET is, and OPTIONS always. */
export function allowHeader(methods: Iterable<string>): string {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].join(', ');
}

function literalCount(entry: PathEntry): number {
  return entry.params.filter((p) => p === undefined).length;
}
