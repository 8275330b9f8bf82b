import { ApiError, apiError, isApiError } from '../../errors.js';
import type { Faults, Latency } from '../base/faults.js';
import { FORCED_HEADER, parsePrefer, type Preference } from '../stages/negotiate-prefer.js';

/**
 * The longest `prefer` the live control takes, in characters: every preference it understands fits in a few dozen
 * (`code=404, example=notFound, delay=60000`); it is parsed once, when set, never per request.
 */
export const MAX_CONTROL_PREFER = 1024;

/** What `PUT /__admin/control` (and `mock.control()`) may change while the mock runs; absent fields stay as they are. */
export interface ControlChanges {
  /** Latency for every API answer: milliseconds, or `{ min, max }`; 0 for none. */
  delay?: number | Latency;
  /** The share of requests, 0 to 1, whose connection is dropped. */
  faultRate?: number;
  /** A `Prefer` given to every API request that has none of its own (`code=404`, `example=empty`); null clears it. */
  prefer?: string | null;
  /**
   * Answer the next `count` API requests (every one when absent), or only those whose path starts with `path`,
   * with `status` (400–599) and an Error body, whatever they asked; null clears it.
   */
  force?: { status: number; count?: number; path?: string } | null;
}

/** What is in effect now, as `GET /__admin/control` shows it. */
export interface ControlState {
  delay: Latency | null;
  faultRate: number;
  prefer: string | null;
  force: { status: number; remaining: number | null; path: string | null } | null;
}

interface Forced {
  status: number;
  remaining: number;
  path: string | undefined;
}

/**
 * The mock's settings that a test may change while it runs, without restarting it and without touching the app's
 * requests (WireMock's and MSW's habit): latency, fault rate, a default `Prefer` (a scenario), and a forced status.
 * `restore()` goes back to what the mock was started with.
 */
export class LiveControl {
  #prefer: string | undefined;
  #preference: Preference = parsePrefer(undefined);
  #force: Forced | undefined;
  readonly #faults: Faults;

  constructor(faults: Faults) {
    this.#faults = faults;
  }

  /**
   * Applies `changes` whole, or throws a 400 naming the field and changes nothing. `satisfiable` checks a `prefer`
   * against every operation of the document (it throws the 400 a request would get): one that some operation cannot
   * serve would turn every request to it into a 400 blaming a header its client never sent.
   */
  set(changes: unknown, satisfiable?: (preference: Preference) => void): ControlState {
    const checked = check(changes);
    const preference =
      typeof checked.prefer === 'string' ? { ...parsePrefer(checked.prefer), fromControl: checked.prefer } : undefined;
    if (preference && satisfiable) {
      try {
        satisfiable(preference);
      } catch (error) {
        if (!isApiError(error)) throw error;
        throw apiError(
          'invalid_body',
          `body.prefer "${checked.prefer}" cannot be served to every operation: ${error.message.replace(/^the live control's prefer \(PUT \/__admin\/control\) /, '')}`,
        );
      }
    }
    try {
      this.#faults.set({
        ...(checked.delay !== undefined ? { delay: checked.delay } : {}),
        ...(checked.faultRate !== undefined ? { faultRate: checked.faultRate } : {}),
      });
    } catch (error) {
      throw apiError('invalid_body', `body.${(error as Error).message}`);
    }
    if (checked.prefer !== undefined) {
      this.#prefer = checked.prefer ?? undefined;
      this.#preference = preference ?? parsePrefer(undefined);
    }
    if (checked.force !== undefined)
      this.#force =
        checked.force === null
          ? undefined
          : { status: checked.force.status, remaining: checked.force.count ?? Infinity, path: checked.force.path };
    return this.state();
  }

  restore(): ControlState {
    this.#faults.restore();
    this.#prefer = undefined;
    this.#preference = parsePrefer(undefined);
    this.#force = undefined;
    return this.state();
  }

  state(): ControlState {
    const force = this.#force;
    return {
      ...this.#faults.settings(),
      prefer: this.#prefer ?? null,
      force: force
        ? {
            status: force.status,
            remaining: Number.isFinite(force.remaining) ? force.remaining : null,
            path: force.path ?? null,
          }
        : null,
    };
  }

  /** The preference for a request that sent `own` (its own wins); the control's was parsed once, when set. */
  preference(own: string | string[] | undefined): Preference {
    return own !== undefined ? parsePrefer(own) : this.#preference;
  }

  /** The forced answer for a request to `path`, counted, or undefined. */
  forced(path: string): ApiError | undefined {
    const force = this.#force;
    if (!force || force.remaining <= 0) return undefined;
    if (force.path !== undefined && path !== force.path && !path.startsWith(`${force.path}/`)) return undefined;
    force.remaining--;
    if (force.remaining <= 0) this.#force = undefined;
    return new ApiError(
      'forced',
      force.status,
      `status ${force.status} forced by the admin API (PUT /__admin/control)`,
      { [FORCED_HEADER]: `live control: force ${force.status}` },
    );
  }
}

/** The body of `PUT /__admin/control`, checked field by field. */
function check(changes: unknown): ControlChanges {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes))
    throw apiError('invalid_body', 'the body must be a JSON object with any of delay, faultRate, prefer, force');
  const body = changes as Record<string, unknown>;
  const unknown = Object.keys(body).filter((name) => !['delay', 'faultRate', 'prefer', 'force'].includes(name));
  if (unknown.length)
    throw apiError('invalid_body', `body.${unknown[0]} is not a setting: there are delay, faultRate, prefer, force`);
  const out: ControlChanges = {};
  if (body.delay !== undefined) {
    const delay = body.delay;
    const isRange =
      typeof delay === 'object' && delay !== null && Object.keys(delay).every((k) => k === 'min' || k === 'max');
    if (typeof delay !== 'number' && !isRange)
      throw apiError('invalid_body', 'body.delay must be milliseconds or { "min": ms, "max": ms }');
    out.delay = delay as number | Latency;
  }
  if (body.faultRate !== undefined) {
    if (typeof body.faultRate !== 'number')
      throw apiError('invalid_body', 'body.faultRate must be a number from 0 to 1');
    out.faultRate = body.faultRate;
  }
  if (body.prefer !== undefined) {
    if (body.prefer !== null && typeof body.prefer !== 'string')
      throw apiError('invalid_body', 'body.prefer must be a Prefer header value (e.g. "code=404") or null');
    if (typeof body.prefer === 'string' && body.prefer.length > MAX_CONTROL_PREFER)
      throw apiError(
        'invalid_body',
        `body.prefer must be at most ${MAX_CONTROL_PREFER} characters (got ${body.prefer.length})`,
      );
    if (typeof body.prefer === 'string' && parsePrefer(body.prefer).invalid !== undefined)
      throw apiError('invalid_body', `body.prefer: ${parsePrefer(body.prefer).invalid} is malformed`);
    out.prefer = body.prefer;
  }
  if (body.force !== undefined) {
    if (body.force === null) out.force = null;
    else {
      const force = body.force as Record<string, unknown>;
      if (typeof force !== 'object' || Array.isArray(force))
        throw apiError(
          'invalid_body',
          'body.force must be { "status": 400-599, "count"?: n, "path"?: "/v1/..." } or null',
        );
      if (!Number.isInteger(force.status) || (force.status as number) < 400 || (force.status as number) > 599)
        throw apiError(
          'invalid_body',
          'body.force.status must be an error status from 400 to 599 (a success is served by Prefer: code=…)',
        );
      if (force.count !== undefined && (!Number.isInteger(force.count) || (force.count as number) < 1))
        throw apiError('invalid_body', 'body.force.count must be a whole number of requests, at least 1');
      if (force.path !== undefined && (typeof force.path !== 'string' || !force.path.startsWith('/')))
        throw apiError('invalid_body', 'body.force.path must be a path starting with / (e.g. "/v1/pets")');
      const unknownForce = Object.keys(force).filter((name) => !['status', 'count', 'path'].includes(name));
      if (unknownForce.length)
        throw apiError('invalid_body', `body.force.${unknownForce[0]} is not a setting: there are status, count, path`);
      out.force = {
        status: force.status as number,
        ...(force.count !== undefined ? { count: force.count as number } : {}),
        ...(force.path !== undefined ? { path: force.path } : {}),
      };
    }
  }
  return out;
}
