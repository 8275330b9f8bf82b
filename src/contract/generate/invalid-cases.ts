import { fc } from './fast-check.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { Sent } from '../engine/run-case.js';
import { failure } from '../judge/judge-response.js';
import { validArbitrary } from './valid-arbitrary.js';
import { mutationsOf } from './invalid-variants.js';
import { requestSchemas, asParameter } from './request-schemas.js';
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
  const cases: GeneratedContractCase[] = [];
  const create = spec.operationById.get('createPet');
  const schema = create && requestSchemas(create).body;
  if (create && schema) {
    const mutations = mutationsOf(schema);
    cases.push(
      generatedCase(
        {
          id: 'generated.invalid-rejected/createPet',
          check: 'generated.invalid-rejected',
          operation: 'createPet',
          title: 'createPet refuses every generated invalid body with 400 and stores none of them',
          writes: true,
        },
        async (ctx, tally) => {
          const { session } = ctx;
          const valid = validArbitrary(schema);
          const rejected: string[] = [];
          const perMutation = Math.max(2, Math.ceil(session.config.runs / 25));
          // Each property names its bodies in the order it draws them (one after another, whatever the concurrency).
          const tagger = (label: string) => {
            let drawn = 0;
            return (body: unknown) => {
              if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
              const copy = { ...(body as Record<string, unknown>) };
              if (typeof copy.name === 'string')
                rejected.push((copy.name = exampleName(session, 'rej', label, drawn++, copy.name)));
              return copy;
            };
          };
          const properties = [
            ...mutations.map((mutation) => async () => {
              const tag = tagger(mutation.label);
              const arbitrary = valid.map((body) => mutation.apply(tag(body)));
              tallyOf(
                tally,
                await runProperty(
                  ctx,
                  `generated.invalid-rejected/createPet/${mutation.label}`,
                  arbitrary,
                  perMutation,
                  async (trial, body) => {
                    const sent = await trial.send({ operation: 'createPet', json: body });
                    if (sent.status !== undefined && sent.status !== 400 && sent.status < 500)
                      trial.fail(
                        failure(
                          'generated.invalid-rejected',
                          sent,
                          `400 with an Error for a body whose ${mutation.label}`,
                          `${sent.status}`,
                        ),
                      );
                  },
                ),
              );
            }),
            ...MEDIA_TYPE_VARIANTS.map((variant) => async () => {
              tallyOf(
                tally,
                await runProperty(
                  ctx,
                  `generated.invalid-rejected/createPet/${variant.label}`,
                  valid.map(tagger(variant.label)),
                  perMutation,
                  async (trial, body) => {
                    const sent = await trial.send({
                      operation: 'createPet',
                      json: body,
                      contentType: variant.contentType,
                    });
                    if (sent.status === 201) return acceptedAsJson(ctx, sent, body, rejected, variant.label);
                    if (sent.status !== undefined && sent.status < 500 && sent.status !== 400 && sent.status !== 415)
                      trial.fail(
                        failure(
                          'generated.invalid-rejected',
                          sent,
                          `400 or 415 with an Error, or 201 (read as JSON), for a JSON body sent with ${variant.label}`,
                          `${sent.status}`,
                        ),
                      );
                  },
                ),
              );
            }),
            async () => {
              tallyOf(
                tally,
                await runProperty(
                  ctx,
                  'generated.invalid-rejected/createPet/malformed',
                  fc.constantFrom(...MALFORMED),
                  MALFORMED.length,
                  async (trial, raw) => {
                    const sent = await trial.send({ operation: 'createPet', rawBody: raw });
                    if (sent.status !== undefined && sent.status < 500 && sent.status !== 400)
                      trial.fail(
                        failure(
                          'generated.invalid-rejected',
                          sent,
                          `400 with an Error for a body that is not JSON (${JSON.stringify(raw)})`,
                          `${sent.status}`,
                        ),
                      );
                  },
                ),
              );
            },
          ];
          await eachProperty(session, properties, (property) => property());
          // After every refused body was answered: the list must show none of them.
          await checkNothingStored(ctx, tally, rejected);
        },
      ),
    );
  }
  const list = spec.operationById.get('listPets');
  if (list) {
    const { query } = requestSchemas(list);
    const variants = query.flatMap((p) => [
      ...mutationsOf(p.schema, `query.${p.name}`)
        .map((m) => ({ name: p.name, label: m.label, value: m.apply(undefined) }))
        .filter((v) => isParameterValue(v.value)),
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
    cases.push(
      generatedCase(
        {
          id: 'generated.invalid-rejected/listPets',
          check: 'generated.invalid-rejected',
          operation: 'listPets',
          title: 'listPets answers every generated invalid parameter with a 4xx Error or at most 100 pets',
          writes: false,
        },
        async (ctx, tally) => {
          // Every variant once: there are few, and each must be tried.
          await eachProperty(ctx.session, variants, async (variant) => {
            tallyOf(
              tally,
              await runProperty(
                ctx,
                `generated.invalid-rejected/listPets/${variant.label}`,
                fc.constant(variant),
                1,
                async (trial) => {
                  const sent = await trial.send({
                    operation: 'listPets',
                    query: { [variant.name]: asParameter(variant.value) },
                  });
                  if (!sent.usable || isClientError(sent)) return;
                  if (sent.status !== 200)
                    return trial.fail(
                      failure(
                        'generated.invalid-rejected',
                        sent,
                        `a 4xx Error, or 200 with at most 100 pets, for ${variant.label}`,
                        `${sent.status}`,
                      ),
                    );
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
                },
              ),
            );
          });
        },
      ),
    );
  }
  const get = spec.operationById.get('getPet');
  if (get) {
    const variants = requestSchemas(get).path.flatMap((p) => [
      ...mutationsOf(p.schema, `path.${p.name}`)
        .map((m) => ({ name: p.name, label: m.label, value: m.apply(undefined) }))
        .filter((v) => isParameterValue(v.value)),
      // 20 digits: beyond any integer type a service could hold it in.
      ...(p.schema.type === 'integer'
        ? [{ name: p.name, label: `path.${p.name}: 20 digits, beyond int64`, value: 99999999999999999999n as unknown }]
        : []),
      // 400 digits: a request target a server may refuse as too long (414, RFC 9110 §15.5.15), as an Error.
      ...(p.schema.type === 'integer'
        ? [
            {
              name: p.name,
              label: `path.${p.name}: 400 digits, a request target a server may refuse as too long`,
              value: BigInt('9'.repeat(400)) as unknown,
            },
          ]
        : []),
    ]);
    cases.push(
      generatedCase(
        {
          id: 'generated.invalid-rejected/getPet',
          check: 'generated.invalid-rejected',
          operation: 'getPet',
          title: 'getPet answers every generated invalid id with a 4xx Error, never a pet',
          writes: false,
        },
        async (ctx, tally) => {
          const invalid = variants.map((variant) => async () => {
            tallyOf(
              tally,
              await runProperty(
                ctx,
                `generated.invalid-rejected/getPet/${variant.label}`,
                fc.constant(variant),
                1,
                async (trial) => {
                  const sent = await trial.send({
                    operation: 'getPet',
                    path: { [variant.name]: asParameter(variant.value) },
                  });
                  if (sent.status !== undefined && sent.status < 500 && !isClientError(sent) && sent.usable)
                    trial.fail(
                      failure('generated.invalid-rejected', sent, `a 4xx Error for ${variant.label}`, `${sent.status}`),
                    );
                },
              ),
            );
          });
          // Valid ids that name no pet: 2^63−1 must be 404; −1 and 0 a 4xx (the interface does not say whether a
          // service's ids may be ≤ 0, so 400 is as right as 404); never a pet, never a 5xx.
          const seen = new Set(
            [...(ctx.session.findings.sample ?? []), ...ctx.session.findings.created.map((c) => c.pet)].map((pet) =>
              String(pet.id),
            ),
          );
          const unknown = (
            [
              [INT64_MAX, true],
              [-1n, false],
              [0n, false],
            ] as const
          )
            .filter(([id]) => !seen.has(String(id)))
            .map(([id, strict]) => async () => {
              tallyOf(
                tally,
                await runProperty(
                  ctx,
                  `generated.invalid-rejected/getPet/unknown ${id}`,
                  fc.constant(id),
                  1,
                  async (trial) => {
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
                  },
                ),
              );
            });
          await eachProperty(ctx.session, [...invalid, ...unknown], (property) => property());
        },
      ),
    );
  }
  return cases;
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
