import type { CheckId } from './check-ids.js';
import { finding, type Finding } from './finding.js';
import { flattenSchema, type FlatSchema } from './flatten-schema.js';
import type { Located } from './json-pointer.js';

/**
 * Which way a value travels decides what breaks: a request schema that accepts less refuses what a client sends; a
 * response schema that allows more sends a client what it does not expect.
 */
export type Direction = 'request' | 'response';

/** What a schema walk needs: both bundled documents, the operation it is under, and where findings go. */
export interface SchemaWalk {
  oldDocument: unknown;
  newDocument: unknown;
  operation: string;
  /** The response status whose schemas are walked; undefined for a request. */
  status?: string;
  findings: Finding[];
  /** Pairs of schemas already compared under this operation: a recursive schema is walked once. */
  seen: Set<string>;
}

/** A bound: which way is narrower, and the check a narrower request or a wider response breaks. */
const BOUNDS: { keyword: string; upper: boolean; request: CheckId; response: CheckId }[] = [
  { keyword: 'maximum', upper: true, request: 'request.maximum-decreased', response: 'response.maximum-increased' },
  { keyword: 'minimum', upper: false, request: 'request.minimum-increased', response: 'response.minimum-decreased' },
  {
    keyword: 'maxLength',
    upper: true,
    request: 'request.max-length-decreased',
    response: 'response.max-length-increased',
  },
  {
    keyword: 'minLength',
    upper: false,
    request: 'request.min-length-increased',
    response: 'response.min-length-decreased',
  },
  {
    keyword: 'maxItems',
    upper: true,
    request: 'request.max-items-decreased',
    response: 'response.max-items-increased',
  },
  {
    keyword: 'minItems',
    upper: false,
    request: 'request.min-items-increased',
    response: 'response.min-items-decreased',
  },
];

/**
 * Compares the schema a value had in the old document with the one it has in the new, for a client of the old:
 * `label` names the value as a message shows it (`body.status`, `query.limit`, `response 200 body[].name`).
 */
export function compareSchemas(
  walk: SchemaWalk,
  oldNode: Located,
  newNode: Located,
  label: string,
  direction: Direction,
): void {
  const before = flattenSchema(walk.oldDocument, oldNode);
  const after = flattenSchema(walk.newDocument, newNode);
  const key = `${direction} ${walk.status ?? ''} ${before.pointer} ${after.pointer}`;
  if (walk.seen.has(key)) return;
  walk.seen.add(key);
  const report = (check: CheckId, message: string, pointers: { old?: string; new?: string } = {}) =>
    walk.findings.push(
      finding(check, `${walk.operation}: ${message}`, {
        operation: walk.operation,
        ...(walk.status === undefined ? {} : { status: walk.status }),
        old: pointers.old ?? before.pointer,
        new: pointers.new ?? after.pointer,
      }),
    );
  const pair: SchemaPair = { before, after, label, direction, report };
  if (!compareTypes(pair)) return;
  compareTextKeyword(pair, 'format', formatChange(label));
  compareEnums(pair);
  compareBounds(pair);
  compareTextKeyword(pair, 'pattern', patternChange(label));
  compareNullable(pair);
  const oldDefault = valueOf(before, 'default');
  const newDefault = valueOf(after, 'default');
  if (!same(oldDefault, newDefault)) {
    report(
      `${direction}.default-changed`,
      `the default of ${label} is ${show(newDefault)} (it was ${show(oldDefault)}): a client that leaves it out gets another value`,
    );
  }
  compareProperties(walk, pair);
  if (before.items && after.items) compareSchemas(walk, before.items, after.items, `${label}[]`, direction);
}

type Report = (check: CheckId, message: string, pointers?: { old?: string; new?: string }) => void;

/** Two schemas of one value, old and new, as a message names it, which way it travels, and where findings go. */
interface SchemaPair {
  before: FlatSchema;
  after: FlatSchema;
  label: string;
  direction: Direction;
  report: Report;
}

/** False when the type changed: the value is another thing, and its constraints are not compared further. */
function compareTypes({ before, after, label, direction, report }: SchemaPair): boolean {
  const was = valueOf(before, 'type') as string | undefined;
  const is = valueOf(after, 'type') as string | undefined;
  if (was === is) return true;
  // An integer is a number: a request that accepted integers and now numbers accepts more; a response that sent
  // numbers and now integers sends less. Any other change of type is a value the other side does not expect.
  const generalised =
    direction === 'request'
      ? (was === 'integer' && is === 'number') || is === undefined
      : (was === 'number' && is === 'integer') || was === undefined;
  if (generalised) {
    report(
      direction === 'request' ? 'request.constraint-relaxed' : 'response.constraint-tightened',
      `${label} is ${is ?? 'of any type'} (it was ${was ?? 'of any type'})`,
    );
    return true;
  }
  const consequence =
    direction === 'request'
      ? 'what a client of the old document sends is refused'
      : 'a client of the old document reads a value of another type';
  report(
    `${direction}.type-changed`,
    `${label} is ${is ?? 'of any type'}, no longer ${was ?? 'of any type'}: ${consequence}`,
  );
  return false;
}

function compareEnums({ before, after, label, direction, report }: SchemaPair): void {
  const was = valueOf(before, 'enum') as unknown[] | undefined;
  const is = valueOf(after, 'enum') as unknown[] | undefined;
  if (was === undefined && is === undefined) return;
  const where = {
    old: before.keywords.get('enum')?.pointer ?? before.pointer,
    new: after.keywords.get('enum')?.pointer ?? after.pointer,
  };
  if (was === undefined) {
    if (direction === 'request')
      report(
        'request.became-enum',
        `${label} is limited to ${list(is!)}: any other value a client sent is refused`,
        where,
      );
    else report('response.constraint-tightened', `${label} is limited to ${list(is!)}`, where);
    return;
  }
  if (is === undefined) {
    if (direction === 'request')
      report('request.constraint-relaxed', `${label} is no longer limited to ${list(was)}`, where);
    else
      report(
        'response.enum-removed',
        `${label} is no longer limited to ${list(was)}: a client may receive any value`,
        where,
      );
    return;
  }
  const removed = was.filter((value) => !is.some((other) => same(value, other)));
  const added = is.filter((value) => !was.some((other) => same(value, other)));
  if (removed.length) {
    if (direction === 'request')
      report(
        'request.enum-value-removed',
        `${label} no longer accepts ${list(removed)}, which a client of the old document may send`,
        where,
      );
    else
      report(
        'response.enum-value-removed',
        `${label} is never ${list(removed)} any more, which a client of the old document may rely on receiving`,
        where,
      );
  }
  if (added.length) {
    if (direction === 'request') report('request.constraint-relaxed', `${label} also accepts ${list(added)}`, where);
    else
      report(
        'response.enum-value-added',
        `${label} may now be ${list(added)}, which a client of the old document does not know`,
        where,
      );
  }
}

function compareBounds({ before, after, label, direction, report }: SchemaPair): void {
  for (const bound of BOUNDS) {
    const was = valueOf(before, bound.keyword) as number | undefined;
    const is = valueOf(after, bound.keyword) as number | undefined;
    if (was === is) continue;
    // A bound set where there was none narrows; one dropped widens.
    const narrower = was === undefined || (is !== undefined && (bound.upper ? is < was : is > was));
    const where = {
      old: before.keywords.get(bound.keyword)?.pointer ?? before.pointer,
      new: after.keywords.get(bound.keyword)?.pointer ?? after.pointer,
    };
    const change = `${label} has ${is === undefined ? `no ${bound.keyword}` : `${bound.keyword} ${is}`} (${was === undefined ? 'none before' : `it was ${was}`})`;
    if (direction === 'request' && narrower)
      report(bound.request, `${change}: a value a client of the old document sends may be refused`, where);
    else if (direction === 'response' && !narrower)
      report(bound.response, `${change}: a client of the old document may receive a value it does not expect`, where);
    else
      report(direction === 'request' ? 'request.constraint-relaxed' : 'response.constraint-tightened', change, where);
  }
}

/** What a changed keyword's finding says, by outcome: a narrower request, a wider response, any other change. */
type Wording = (
  was: string | undefined,
  is: string | undefined,
) => { request: string; response: string; other: string };

/**
 * A keyword whose value is text (`format`, `pattern`): one set or changed narrows what a request may send, one
 * dropped or changed widens what a response may hold; each direction's other change is a relaxed or tightened
 * constraint. `say` words the three outcomes.
 */
function compareTextKeyword(
  { before, after, direction, report }: SchemaPair,
  keyword: 'format' | 'pattern',
  say: Wording,
): void {
  const was = valueOf(before, keyword) as string | undefined;
  const is = valueOf(after, keyword) as string | undefined;
  if (was === is) return;
  const words = say(was, is);
  if (direction === 'request' && is !== undefined) report(`request.${keyword}-changed`, words.request);
  else if (direction === 'response' && was !== undefined) report(`response.${keyword}-changed`, words.response);
  else report(direction === 'request' ? 'request.constraint-relaxed' : 'response.constraint-tightened', words.other);
}

/** `format`'s wording: a request's format names the values refused, a response's the values a client cannot parse. */
function formatChange(label: string): Wording {
  return (was, is) => ({
    request: `${label} must be of format ${String(is)} (${was === undefined ? 'none before' : `it was ${String(was)}`}): a value a client sent may be refused`,
    response: `${label} is ${is === undefined ? 'no longer' : `of format ${String(is)}, no longer`} of format ${String(was)}: a client may read a value it cannot parse`,
    other: `${label} has ${is === undefined ? 'no format' : `format ${String(is)}`} (it had ${was === undefined ? 'none' : String(was)})`,
  });
}

function patternChange(label: string): Wording {
  return (was, is) => {
    const change = `${label} has ${is === undefined ? 'no pattern' : `pattern ${String(is)}`} (${was === undefined ? 'none before' : `it was ${String(was)}`})`;
    return {
      request: `${change}: a value a client sent may be refused`,
      response: `${change}: a client may receive a value it does not expect`,
      other: change,
    };
  };
}

function compareNullable({ before, after, label, direction, report }: SchemaPair): void {
  const was = valueOf(before, 'nullable') === true;
  const is = valueOf(after, 'nullable') === true;
  if (was === is) return;
  if (direction === 'request' && was)
    report(
      'request.became-not-nullable',
      `${label} may no longer be null, which a client of the old document may send`,
    );
  else if (direction === 'response' && is)
    report('response.became-nullable', `${label} may now be null, which a client of the old document does not expect`);
  else
    report(
      direction === 'request' ? 'request.constraint-relaxed' : 'response.constraint-tightened',
      `${label} is ${is ? '' : 'no longer '}nullable`,
    );
}

function compareProperties(walk: SchemaWalk, { before, after, label, direction, report }: SchemaPair): void {
  for (const [name, node] of before.properties) {
    const field = `${label}.${name}`;
    const now = after.properties.get(name);
    if (!now) {
      if (direction === 'request')
        report(
          'request.property-removed',
          `${field} is no longer in the request: a client that sends it is not heard`,
          { old: node.pointer, new: after.pointer },
        );
      else
        report(
          'response.property-removed',
          `${field} is no longer in the response, which a client of the old document may read`,
          { old: node.pointer, new: after.pointer },
        );
      continue;
    }
    const wasRequired = before.required.has(name);
    const isRequired = after.required.has(name);
    if (wasRequired !== isRequired) {
      const where = { old: node.pointer, new: now.pointer };
      if (direction === 'request')
        report(
          isRequired ? 'request.property-became-required' : 'request.property-became-optional',
          `${field} is ${isRequired ? 'required: a client of the old document may leave it out and be refused' : 'optional'}`,
          where,
        );
      else
        report(
          isRequired ? 'response.property-became-required' : 'response.property-became-optional',
          `${field} is ${isRequired ? 'always present' : 'optional: a client of the old document may read it and find nothing'}`,
          where,
        );
    }
    compareSchemas(walk, node, now, field, direction);
  }
  for (const [name, node] of after.properties) {
    if (before.properties.has(name)) continue;
    const field = `${label}.${name}`;
    const where = { old: before.pointer, new: node.pointer };
    if (direction === 'request' && after.required.has(name))
      report(
        'request.property-added-required',
        `${field} is a new required property: a client of the old document does not send it and is refused`,
        where,
      );
    else
      report(
        direction === 'request' ? 'request.property-added' : 'response.property-added',
        `${field} is new${direction === 'request' ? ' and optional' : ''}`,
        where,
      );
  }
}

function valueOf(schema: FlatSchema, keyword: string): unknown {
  return schema.keywords.get(keyword)?.value;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

function list(values: unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}
