import { fc, type Arbitrary } from './fast-check.js';
import { mainType } from '../../openapi/schema-keywords.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { Sent } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { validArbitrary } from './valid-arbitrary.js';
import { mutationsOf, type Mutation } from './invalid-variants.js';
import { requestSchemas, asParameter, type ParameterSchema } from './request-schemas.js';
import { eachProperty } from './slots.js';
import { runProperty, type Trial } from './run-property.js';
import {
  generatedCase,
  exampleName,
  generatedPets,
  tallyOf,
  type PhaseTally,
  type GeneratedContractCase,
} from './generated-case.js';
import type { CaseContext } from '../engine/run-case.js';
import type { Failure } from '../base/case-result.js';
import { INT64_MAX } from '../../json/int64.js';

const isClientError = (sent: Sent) =>
  sent.status !== undefined && sent.status >= 400 && sent.status < 500 && sent.status !== 401 && sent.status !== 403;

/** A body the document declares nothing for: 400 (the document's answer to a bad body) or 415 (RFC 9110 §15.5.16). */
const MEDIA_TYPE_VARIANTS: { label: string; contentType: string | null; raw?: string }[] = [
  { label: 'no Content-Type', contentType: null },
  { label: 'Content-Type text/plain', contentType: 'text/plain' },
  { label: 'Content-Type application/x-www-form-urlencoded', contentType: 'application/x-www-form-urlencoded' },
  { label: 'Content-Type application/xml', contentType: 'application/xml' },
];
const NON_ASCII = ['availablé', 'доступен', '🐶'];
const LONG_VALUE = 'x'.repeat(4000);
const MALFORMED = ['{', '{"name": "x", "categoryId": 1', '', 'name=x&categoryId=1', '{"name":"x","categoryId":1}}'];

/**
 * Each constraint of the createPet body broken one at a time, on generated valid bodies (400 with an Error, and
 * nothing stored), then bodies with no or another media type (400 or 415), malformed JSON (400), and each query
 * or path parameter broken one at a time (a 4xx Error, or for listPets a clamped list of at most 100: the
 * interface leaves bad list parameters open), never a 2xx for a bad id, never a 5xx.
 */
export function invalidCases(spec: Spec): GeneratedContractCase[] {
  return [...invalidBodiesCase(spec), ...invalidListParametersCase(spec), ...invalidIdsCase(spec)];
}

function invalidBodiesCase(spec: Spec): GeneratedContractCase[] {
  const create = spec.operationById.get('createPet');
  const schema = create && requestSchemas(create).body;
  if (!create || !schema) return [];
  const mutations = mutationsOf(schema);
  return [
    generatedCase(
      {
        id: 'generated.invalid-rejected/createPet',
        check: 'generated.invalid-rejected',
        operation: 'createPet',
        title: 'createPet refuses every generated invalid body with 400 and stores none of them',
        writes: true,
      },
      async (ctx, tally) => {
        const run: BodyRun = {
          ctx,
          tally,
          valid: validArbitrary(schema),
          rejected: [],
          perMutation: Math.max(2, Math.ceil(ctx.session.config.runs / 25)),
        };
        const properties = [
          ...mutations.map((mutation) => () => refusesMutatedBodies(run, mutation)),
          ...MEDIA_TYPE_VARIANTS.map((variant) => () => refusesOtherMediaTypes(run, variant)),
          () => refusesMalformedBodies(run),
        ];
        await eachProperty(ctx.session, properties, (property) => property());
        // After every refused body was answered: the list must show none of them.
        await checkNothingStored(ctx, tally, run.rejected);
      },
    ),
  ];
}

/** What the createPet properties share: the valid bodies they break, and the names of those sent to be refused. */
interface BodyRun {
  ctx: CaseContext;
  tally: PhaseTally;
  valid: Arbitrary<unknown>;
  rejected: string[];
  perMutation: number;
}

/** A property's own name tagger: it names its bodies in the order it draws them, whatever the concurrency. */
function tagger(run: BodyRun, label: string): (body: unknown) => unknown {
  let drawn = 0;
  return (body: unknown) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const copy = { ...(body as Record<string, unknown>) };
    if (typeof copy.name === 'string')
      run.rejected.push((copy.name = exampleName(run.ctx.session, 'rej', label, drawn++, copy.name)));
    return copy;
  };
}

async function refusesMutatedBodies(run: BodyRun, mutation: Mutation): Promise<void> {
  const tag = tagger(run, mutation.label);
  const arbitrary = run.valid.map((body) => mutation.apply(tag(body)));
  const id = `generated.invalid-rejected/createPet/${mutation.label}`;
  tallyOf(
    run.tally,
    await runProperty(run.ctx, id, arbitrary, run.perMutation, async (trial, body) => {
      const sent = await trial.send({ operation: 'createPet', json: body });
      if (sent.status !== undefined && sent.status !== 400 && sent.status < 500)
        trial.fail(refused(sent, `400 with an Error for a body whose ${mutation.label}`));
    }),
  );
}

async function refusesOtherMediaTypes(run: BodyRun, variant: (typeof MEDIA_TYPE_VARIANTS)[number]): Promise<void> {
  const id = `generated.invalid-rejected/createPet/${variant.label}`;
  const arbitrary = run.valid.map(tagger(run, variant.label));
  tallyOf(
    run.tally,
    await runProperty(run.ctx, id, arbitrary, run.perMutation, async (trial, body) => {
      const sent = await trial.send({ operation: 'createPet', json: body, contentType: variant.contentType });
      if (sent.status === 201) return acceptedAsJson(run.ctx, sent, body, run.rejected, variant.label);
      if (sent.status !== undefined && sent.status < 500 && sent.status !== 400 && sent.status !== 415)
        trial.fail(
          refused(sent, `400 or 415 with an Error, or 201 (read as JSON), for a JSON body sent with ${variant.label}`),
        );
    }),
  );
}

async function refusesMalformedBodies(run: BodyRun): Promise<void> {
  const id = 'generated.invalid-rejected/createPet/malformed';
  tallyOf(
    run.tally,
    await runProperty(run.ctx, id, fc.constantFrom(...MALFORMED), MALFORMED.length, async (trial, raw) => {
      const sent = await trial.send({ operation: 'createPet', rawBody: raw });
      if (sent.status !== undefined && sent.status < 500 && sent.status !== 400)
        trial.fail(refused(sent, `400 with an Error for a body that is not JSON (${JSON.stringify(raw)})`));
    }),
  );
}

/** A `generated.invalid-rejected` failure: what was expected, and the status that came instead. */
function refused(sent: Sent, expected: string): Failure {
  return failure('generated.invalid-rejected', sent, expected, `${sent.status}`);
}

/** One parameter broken: its name, what is wrong with it, and the value sent. */
interface ParameterVariant {
  name: string;
  label: string;
  value: unknown;
}

/** Each constraint of a parameter broken one at a time, as far as a value on the wire can break it. */
function brokenParameters(p: ParameterSchema, where: string): ParameterVariant[] {
  return mutationsOf(p.schema, `${where}.${p.name}`)
    .map((m) => ({ name: p.name, label: m.label, value: m.apply(undefined) }))
    .filter((v) => isParameterValue(v.value));
}

function invalidListParametersCase(spec: Spec): GeneratedContractCase[] {
  const list = spec.operationById.get('listPets');
  if (!list) return [];
  const variants = requestSchemas(list).query.flatMap((p) => [
    ...brokenParameters(p, 'query'),
    // Text outside ASCII, percent-encoded as UTF-8 (RFC 3986 §2.5): a target that cannot decode it must still
    // answer with a 4xx or a list, never a 5xx.
    ...(Array.isArray((p.schema as { enum?: unknown }).enum)
      ? NON_ASCII.map((value) => ({
          name: p.name,
          label: `query.${p.name}: non-ASCII ${JSON.stringify(value)}`,
          value,
        }))
      : []),
    // A very long value (within common URL limits of 8 KiB): a 4xx or a list, never a 5xx.
    { name: p.name, label: `query.${p.name}: ${LONG_VALUE.length} characters`, value: LONG_VALUE },
  ]);
  return [
    generatedCase(
      {
        id: 'generated.invalid-rejected/listPets',
        check: 'generated.invalid-rejected',
        operation: 'listPets',
        title: 'listPets answers every generated invalid parameter with a 4xx Error or at most 100 pets',
        writes: false,
      },
      // Every variant once: there are few, and each must be tried.
      (ctx, tally) => eachProperty(ctx.session, variants, (variant) => refusesListParameter(ctx, tally, variant)),
    ),
  ];
}

async function refusesListParameter(ctx: CaseContext, tally: PhaseTally, variant: ParameterVariant): Promise<void> {
  const id = `generated.invalid-rejected/listPets/${variant.label}`;
  tallyOf(
    tally,
    await runProperty(ctx, id, fc.constant(variant), 1, async (trial) => {
      const sent = await trial.send({ operation: 'listPets', query: { [variant.name]: asParameter(variant.value) } });
      if (!sent.usable || isClientError(sent)) return;
      if (sent.status !== 200)
        return trial.fail(refused(sent, `a 4xx Error, or 200 with at most 100 pets, for ${variant.label}`));
      const pets = sent.body as unknown[];
      if (pets.length > 100)
        trial.fail(
          failure(
            'generated.invalid-rejected',
            sent,
            `at most 100 pets (the largest limit) for ${variant.label}`,
            `${pets.length} pets`,
          ),
        );
    }),
  );
}

function invalidIdsCase(spec: Spec): GeneratedContractCase[] {
  const get = spec.operationById.get('getPet');
  if (!get) return [];
  const variants = requestSchemas(get).path.flatMap((p) => [
    ...brokenParameters(p, 'path'),
    ...(mainType(p.schema) === 'integer'
      ? [
          // 20 digits: beyond any integer type a service could hold it in.
          { name: p.name, label: `path.${p.name}: 20 digits, beyond int64`, value: 99999999999999999999n as unknown },
          // 400 digits: a request target a server may refuse as too long (414, RFC 9110 §15.5.15), as an Error.
          {
            name: p.name,
            label: `path.${p.name}: 400 digits, a request target a server may refuse as too long`,
            value: BigInt('9'.repeat(400)) as unknown,
          },
        ]
      : []),
  ]);
  return [
    generatedCase(
      {
        id: 'generated.invalid-rejected/getPet',
        check: 'generated.invalid-rejected',
        operation: 'getPet',
        title: 'getPet answers every generated invalid id with a 4xx Error, never a pet',
        writes: false,
      },
      async (ctx, tally) => {
        const invalid = variants.map((variant) => () => refusesInvalidId(ctx, tally, variant));
        const unknown = unknownIds(ctx).map(
          ([id, strict]) =>
            () =>
              answersUnknownId(ctx, tally, id, strict),
        );
        await eachProperty(ctx.session, [...invalid, ...unknown], (property) => property());
      },
    ),
  ];
}

async function refusesInvalidId(ctx: CaseContext, tally: PhaseTally, variant: ParameterVariant): Promise<void> {
  const id = `generated.invalid-rejected/getPet/${variant.label}`;
  tallyOf(
    tally,
    await runProperty(ctx, id, fc.constant(variant), 1, async (trial) => {
      const sent = await trial.send({ operation: 'getPet', path: { [variant.name]: asParameter(variant.value) } });
      if (sent.status !== undefined && sent.status < 500 && !isClientError(sent) && sent.usable)
        trial.fail(refused(sent, `a 4xx Error for ${variant.label}`));
    }),
  );
}

/**
 * Valid ids that name no pet, and whether only 404 will do: 2^63−1 must be 404; −1 and 0 a 4xx (the interface does
 * not say whether a service's ids may be ≤ 0, so 400 is as right as 404). Ids the run has seen are left out.
 */
function unknownIds(ctx: CaseContext): (readonly [bigint, boolean])[] {
  const { sample = [], created } = ctx.session.findings;
  const seen = new Set([...sample, ...created.map((c) => c.pet)].map((pet) => String(pet.id)));
  return (
    [
      [INT64_MAX, true],
      [-1n, false],
      [0n, false],
    ] as const
  ).filter(([id]) => !seen.has(String(id)));
}

/** An id no pet has: never a pet, never a 5xx. */
async function answersUnknownId(ctx: CaseContext, tally: PhaseTally, id: bigint, strict: boolean): Promise<void> {
  tallyOf(
    tally,
    await runProperty(ctx, `generated.invalid-rejected/getPet/unknown ${id}`, fc.constant(id), 1, async (trial) => {
      const sent = await trial.send({ operation: 'getPet', path: { petId: asParameter(id) } });
      if (sent.status === undefined || sent.status >= 500 || !sent.usable) return;
      if (strict ? sent.status !== 404 : !isClientError(sent))
        trial.fail(
          failure(
            'get.not-found',
            sent,
            `${strict ? '404' : 'a 4xx'} with an Error for id ${id}, which no pet has`,
            `${sent.status}`,
          ),
        );
    }),
  );
}

/**
 * A JSON body sent without a Content-Type, or labelled with another media type, that the target read and stored.
 * Neither the interface nor HTTP requires the refusal: RFC 9110 §8.3 lets a recipient examine the data when the
 * header is absent, and 415 (§15.5.16) is a server's option, not a duty. So this passes, as a note. The pet is the
 * target's now: it joins the pets the run created (later cases may read it) and leaves the refused names, so the
 * stored-nothing check does not count it.
 */
function acceptedAsJson(ctx: CaseContext, sent: Sent, body: unknown, rejected: string[], label: string): void {
  const name = (body as { name?: unknown } | null)?.name;
  const at = typeof name === 'string' ? rejected.indexOf(name) : -1;
  if (at !== -1) rejected.splice(at, 1);
  ctx.session.findings.storeFloor++;
  if (sent.usable && typeof sent.body === 'object' && sent.body !== null)
    generatedPets(ctx.session).push(sent.body as Record<string, unknown>);
  const noted = (ctx.session.findings.readAsJson ??= new Set<string>());
  if (noted.has(label)) return;
  noted.add(label);
  ctx.note(
    'generated.invalid-rejected',
    label === 'no Content-Type'
      ? 'createPet: the target reads a JSON body sent without a Content-Type as JSON and stores it (allowed: RFC 9110 §8.3)'
      : `createPet: the target reads a JSON body sent with ${label} as JSON and stores it (allowed: 415 is a server's option, RFC 9110 §15.5.16)`,
  );
}

/**
 * Scalars only (an array or object has no one way of being a parameter), and not a string of digits: on the wire
 * every parameter is text, so "7" is as valid an integer parameter as 7.
 */
function isParameterValue(value: unknown): boolean {
  if (typeof value === 'string') return !/^-?\d+$/.test(value);
  return value === null || ['number', 'bigint', 'boolean'].includes(typeof value);
}

/**
 * None of the refused bodies may have been stored: the first page of the list (and of each status), searched for
 * their run-tagged names. A page that is full cannot show everything; what it shows is judged.
 */
async function checkNothingStored(ctx: CaseContext, tally: PhaseTally, rejected: string[]): Promise<void> {
  if (rejected.length === 0) return;
  const names = new Set(rejected);
  const outcome = await runProperty(
    ctx,
    'generated.invalid-rejected/createPet/stored-nothing',
    fc.constant(null),
    1,
    async (trial: Trial) => {
      const sent = await trial.send({ operation: 'listPets', query: { limit: '100' } });
      if (!sent.usable || sent.status !== 200) return;
      const stored = (sent.body as { name?: unknown; id?: unknown }[]).filter(
        (pet) => typeof pet.name === 'string' && names.has(pet.name),
      );
      if (stored.length > 0)
        trial.fail(
          failure(
            'generated.invalid-rejected',
            sent,
            'no pet from a refused body stored',
            `stored: ${stored
              .slice(0, 3)
              .map((p) => `${String(p.id)} ${JSON.stringify(p.name)}`)
              .join(', ')}`,
          ),
        );
    },
  );
  tallyOf(tally, outcome);
}
