import { finding, type Finding } from './finding.js';
import type { DocumentOperation } from './list-operations.js';

/** When a comparison is judged, and how much notice a deprecation must give. */
export interface LifecycleOptions {
  /** The day the change is judged on: a removal on or after an operation's x-sunset is allowed. */
  date: Date;
  /** The fewest days between `date` and a new or moved x-sunset (--min-notice). */
  minNoticeDays: number;
}

export const DEFAULT_MIN_NOTICE_DAYS = 180;

/**
 * Stability markers (interface §9: "experimental or beta"), as `x-stability-level` on an operation — the extension
 * oasdiff reads too, with its `draft` and `alpha`. An operation without one is stable.
 */
const STABILITY = ['draft', 'experimental', 'alpha', 'beta', 'stable'] as const;

export function stabilityOf(operation: DocumentOperation): string {
  const level = (operation.node.value as Record<string, unknown>)['x-stability-level'];
  return typeof level === 'string' && (STABILITY as readonly string[]).includes(level) ? level : 'stable';
}

/** Whether a client was told the operation may change without notice. */
export function isUnstable(operation: DocumentOperation): boolean {
  return stabilityOf(operation) !== 'stable';
}

/** `x-sunset` as a date (RFC 8594's Sunset, as the document states it); undefined when absent or not a date. */
function sunsetOf(operation: DocumentOperation): Date | undefined {
  const value = (operation.node.value as Record<string, unknown>)['x-sunset'];
  if (value === undefined) return undefined;
  // YAML reads an unquoted timestamp as a Date.
  const date =
    value instanceof Date
      ? value
      : typeof value === 'string' || typeof value === 'number'
        ? new Date(String(value))
        : undefined;
  if (date === undefined) return undefined;
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function isDeprecated(operation: DocumentOperation): boolean {
  return (operation.node.value as { deprecated?: unknown }).deprecated === true;
}

/** What removing an old operation means on `date`: allowed only after the sunset a deprecation announced. */
export function judgeRemoval(operation: DocumentOperation, options: LifecycleOptions): Finding {
  const where = { operation: operation.label, old: operation.node.pointer };
  if (isUnstable(operation)) {
    return finding(
      'lifecycle.unstable-changed',
      `${operation.label} is removed; it was ${stabilityOf(operation)}, which may change without notice`,
      where,
    );
  }
  if (!isDeprecated(operation))
    return finding(
      'operation.removed',
      `${operation.label} is removed without having been deprecated: every client that calls it breaks`,
      where,
    );
  const sunset = sunsetOf(operation);
  if (sunset === undefined)
    return finding(
      'operation.removed-before-sunset',
      `${operation.label} is removed; it was deprecated but stated no x-sunset date, so clients were never told when`,
      where,
    );
  if (options.date.getTime() < sunset.getTime()) {
    return finding(
      'operation.removed-before-sunset',
      `${operation.label} is removed before its sunset on ${day(sunset)} (judged on ${day(options.date)}): clients were promised it until then`,
      where,
    );
  }
  return finding(
    'operation.removed-after-sunset',
    `${operation.label} is removed after its sunset on ${day(sunset)} (judged on ${day(options.date)}), as its deprecation announced`,
    where,
  );
}

/** Deprecation, sunset and stability of an operation both documents have. */
export function compareLifecycle(
  before: DocumentOperation,
  after: DocumentOperation,
  options: LifecycleOptions,
): Finding[] {
  const found: Finding[] = [];
  const where = { operation: after.label, old: before.node.pointer, new: after.node.pointer };
  const wasDeprecated = isDeprecated(before);
  const deprecated = isDeprecated(after);
  if (!deprecated) {
    if (wasDeprecated) found.push(finding('operation.reactivated', `${after.label} is no longer deprecated`, where));
  } else {
    const oldSunset = wasDeprecated ? sunsetOf(before) : undefined;
    const sunset = sunsetOf(after);
    if (!wasDeprecated)
      found.push(
        finding(
          'operation.deprecated',
          `${after.label} is deprecated${sunset ? ` and removed on ${day(sunset)}` : ''}${replacement(after)}`,
          where,
        ),
      );
    // Only what this change announces is judged: a deprecation that stands unchanged was judged when it was made.
    const announced = !wasDeprecated || oldSunset?.getTime() !== sunset?.getTime();
    if (announced) found.push(...judgeSunset(after, oldSunset, sunset, options, where));
  }
  const rank = (operation: DocumentOperation) =>
    STABILITY.indexOf(stabilityOf(operation) as (typeof STABILITY)[number]);
  if (rank(after) < rank(before)) {
    found.push(
      finding(
        'lifecycle.stability-decreased',
        `${after.label} is ${stabilityOf(after)}, no longer ${stabilityOf(before)}: it may now change without notice`,
        where,
      ),
    );
  }
  return found;
}

function judgeSunset(
  after: DocumentOperation,
  oldSunset: Date | undefined,
  sunset: Date | undefined,
  options: LifecycleOptions,
  where: Pick<Finding, 'operation' | 'old' | 'new'>,
): Finding[] {
  if (sunset === undefined) {
    const written = (after.node.value as Record<string, unknown>)['x-sunset'];
    const what =
      written === undefined
        ? 'without an x-sunset date'
        : `with an x-sunset that is not a date (${JSON.stringify(written)})`;
    return [
      finding(
        'lifecycle.sunset-missing',
        `${after.label} is deprecated ${what}: clients cannot tell how long they have`,
        where,
      ),
    ];
  }
  const found: Finding[] = [];
  if (oldSunset !== undefined && sunset.getTime() < oldSunset.getTime()) {
    found.push(
      finding(
        'lifecycle.sunset-moved-earlier',
        `${after.label} is now removed on ${day(sunset)}, earlier than the ${day(oldSunset)} clients were promised`,
        where,
      ),
    );
  }
  const days = (sunset.getTime() - options.date.getTime()) / DAY;
  if (days < options.minNoticeDays) {
    found.push(
      finding(
        'lifecycle.sunset-too-soon',
        `${after.label} is removed on ${day(sunset)}, ${Math.max(0, Math.floor(days))} days after ${day(options.date)}: less than the minimum notice of ${options.minNoticeDays} days`,
        where,
      ),
    );
  }
  return found;
}

function replacement(operation: DocumentOperation): string {
  const replacedBy = (operation.node.value as Record<string, unknown>)['x-replaced-by'];
  return typeof replacedBy === 'string' ? `; its replacement is ${replacedBy}` : '';
}

const DAY = 24 * 60 * 60 * 1000;

/** A date as the interface writes a removal day: `2030-12-05`. */
export function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}
