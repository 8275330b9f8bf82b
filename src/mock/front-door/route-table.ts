import type { Operation } from '../../openapi/operations.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { MockRequest } from '../mock-request.js';
import type { Reply } from '../base/reply.js';
import type { Preference } from '../stages/negotiate-prefer.js';
import type { ContractViolation } from '../../openapi/judge-observed.js';
import { apiError } from '../../errors.js';
import { allowHeader, createRouter, NO_MATCHED_PARAMS, type PathEntry } from './router.js';

/** One request on its way through an action: what the front door and the stages know about it so far. */
export interface Call {
  request: MockRequest;
  /** The path below the mount path, without the query. */
  path: string;
  /** The query string without `?`, or ''. */
  search: string;
  pathParams: Record<string, string>;
  /** The request's `Prefer`, parsed once at the front door (API requests only; empty elsewhere). */
  preference: Preference;
  /** The request body once the body stage has read and validated it, for observers. */
  body?: unknown;
  /** Bytes of request body actually read (chunked ones included), for the journal's size rule. */
  requestBytes?: number;
  /** Contract violations found on the way (the proxy: the request, and the upstream's answer), for observers. */
  violations?: readonly ContractViolation[];
  /** Who answered: the upstream behind a proxy, or this mock (the proxy's fallback). Undefined for a plain mock. */
  source?: 'upstream' | 'mock';
}

/** What a route does for one method. */
export interface Action {
  /** The document operation it serves (API routes only). */
  operation?: Operation;
  run(call: Call): Reply | Promise<Reply>;
  /** Headers every answer of this action carries, whatever it is (the deprecation notice of a deprecated operation). */
  headersFor?(mountPath: string): Readonly<Record<string, string>>;
}

/** How the front door treats a part of the table. */
export interface Area {
  name: 'api' | 'admin' | 'docs';
  /** Told to the observers (request log, journal, state file): API requests only. */
  observed: boolean;
  /** Subject to `--delay` and `Prefer: delay` (API requests only; CORS preflights never). */
  delayed: boolean;
}

export const API: Area = { name: 'api', observed: true, delayed: true };
export const ADMIN: Area = { name: 'admin', observed: false, delayed: false };
export const DOCS: Area = { name: 'docs', observed: false, delayed: false };

/** A path the table knows, or a miss (no actions) with the message its 404 carries. */
export interface Route {
  area: Area;
  actions: ReadonlyMap<string, Action>;
  /** The `Allow` value; undefined for a miss. */
  allow: string | undefined;
  pathParams: Record<string, string>;
  /** The 404's message for a miss, given the method. */
  missing?: (method: string) => string;
}

/** A fixed part of the table mounted at a prefix beside the API (admin, docs): its paths below the prefix. */
export interface Mount {
  prefix: string;
  area: Area;
  paths: ReadonlyMap<string, ReadonlyMap<string, Action>>;
  /** The 404's message for a path below the prefix that is not in `paths`. */
  missing(method: string, path: string): string;
}

/**
 * The one route table: the document's operations under its base path, and the mounts beside them (`/__admin`,
 * `/docs`). Every request is looked up here once; what comes back says which actions the path has, its `Allow`,
 * and how the front door treats it. A path nothing matches is a miss in the API's area (so it is logged and
 * journaled); on `/` and the base path the miss lists the document's operations.
 */
export function createRouteTable(
  spec: Spec,
  operationAction: (operation: Operation) => Action,
  mounts: readonly Mount[],
) {
  const router = createRouter(spec.operations, spec.basePath);
  const byEntry = new Map<object, ReadonlyMap<string, Action>>();
  const actionsFor = (entry: { byMethod: Map<string, Operation> }) => {
    let actions = byEntry.get(entry);
    if (!actions) {
      actions = new Map([...entry.byMethod].map(([method, operation]) => [method, operationAction(operation)]));
      byEntry.set(entry, actions);
    }
    return actions;
  };
  const mountAllow = new Map(
    mounts.flatMap((mount) => [...mount.paths].map(([, actions]) => [actions, allowHeader(actions.keys())] as const)),
  );
  const operationList = spec.operations
    .map((operation) => `${operation.method.toUpperCase()} ${spec.basePath}${operation.path}`)
    .join(', ');
  const roots = new Set(['/', spec.basePath || '/', `${spec.basePath}/`]);
  const EMPTY = new Map<string, Action>();
  const staticRoutes = new Map<object, Route>();
  const staticRoute = (entry: PathEntry): Route => {
    let route = staticRoutes.get(entry);
    if (!route) {
      route = Object.freeze({ area: API, actions: actionsFor(entry), allow: entry.allow, pathParams: NO_PARAMS });
      staticRoutes.set(entry, route);
    }
    return route;
  };
  const NO_PARAMS: Record<string, string> = Object.freeze({});

  return {
    find(path: string): Route {
      for (const mount of mounts) {
        if (path !== mount.prefix && !path.startsWith(`${mount.prefix}/`)) continue;
        const below = path.slice(mount.prefix.length) || '/';
        const actions = mount.paths.get(below);
        if (!actions)
          return {
            area: mount.area,
            actions: EMPTY,
            allow: undefined,
            pathParams: NO_PARAMS,
            missing: (method) => mount.missing(method, path),
          };
        return { area: mount.area, actions, allow: mountAllow.get(actions), pathParams: NO_PARAMS };
      }
      const found = router.find(path);
      if (found) {
        // A path without parameters always gets the same route: one object for its life, none per request.
        if (found.pathParams === NO_MATCHED_PARAMS) return staticRoute(found.entry);
        return { area: API, actions: actionsFor(found.entry), allow: found.entry.allow, pathParams: found.pathParams };
      }
      const missing = roots.has(path)
        ? (method: string) =>
            `no operation at ${method} ${path}; this API's paths start with ${spec.basePath || '/'}, and its operations are ${operationList}`
        : (method: string) => `no operation at ${method} ${path}; this API's paths start with ${spec.basePath || '/'}`;
      return { area: API, actions: EMPTY, allow: undefined, pathParams: NO_PARAMS, missing };
    },
  };
}

export type RouteTable = ReturnType<typeof createRouteTable>;

/** The 404 for a miss, the 405 (with `Allow`) for a method the path does not have. */
export function routeError(route: Route, method: string, path: string) {
  if (route.allow === undefined)
    return apiError('not_found', route.missing?.(method) ?? `no operation at ${method} ${path}`);
  return apiError('method_not_allowed', `${method} is not allowed on ${path}; allowed: ${route.allow}`, {
    Allow: route.allow,
  });
}
