import { fc, type Arbitrary } from './fast-check.js';
import type { Spec } from '../../openapi/load-spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { ProbeRequest } from '../transport/send-request.js';
import { taggedName, type Session } from '../base/session.js';
import { failure } from '../judge/judge-response.js';
import { knownPetId, ownPetId, writes } from '../engine/build-request.js';
import { eachProperty } from './slots.js';
import { runProperty, type Trial } from './run-property.js';
import {
  generatedCase,
  generatedPets,
  tallyOf,
  type GeneratedContractCase,
  type PhaseTally,
} from './generated-case.js';
import type { CaseContext } from '../engine/run-case.js';
import { asParameter } from './request-schemas.js';
import { swapCase } from '../transport/shown-credentials.js';
import { judgesAuth } from '../engine/auth-variants.js';
import { schemeAuthCase } from './scheme-auth-case.js';

/** A way of sending credentials that are not the valid key: the Authorization header (or none), other headers, the query. */
interface Credential {
  label: string;
  authorization: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** Query parameters and cookies that frameworks read a key from (RFC 6750 §2.3 names `access_token`). */
const KEY_QUERY_PARAMETERS = ['api_key', 'access_token'];
const KEY_COOKIES = ['api_key'];

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

/**
 * Wrong credentials derived from the key, by kind, some generated (what is appended, what a same-length wrong key
 * holds): each must get 401 with an Error. Every kind is tried, so none is left to chance. The key itself is never
 * printed: reports rebuild each form of it from `$PETSTORE_API_KEY` (shown-credentials.ts).
 */
function credentialKinds(key: string): Arbitrary<Credential>[] {
  const token = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: min, maxLength: max });
  const kinds: Arbitrary<Credential>[] = [
    token(1, 4).map((extra) => ({ label: 'the key with text appended', authorization: `Bearer ${key}${extra}` })),
    token(key.length, key.length)
      .filter((wrong) => wrong !== key)
      .map((wrong) => ({ label: 'a wrong key of the same length', authorization: `Bearer ${wrong}` })),
    fc.constant({ label: 'the key less its last character', authorization: `Bearer ${key.slice(0, -1)}` }),
    fc.constant({ label: 'the key alone, without a scheme', authorization: key }),
    token(1, 8).map((extra) => ({
      label: 'the key followed by another word',
      authorization: `Bearer ${key} ${extra}`,
    })),
    ...['X-API-Key', 'Api-Key', 'X-Auth-Token'].map((name) =>
      fc.constant({
        label: `the key in ${name} instead of Authorization`,
        authorization: null,
        headers: { [name]: key },
      }),
    ),
    ...['Token', 'Basic', 'Digest', 'ApiKey', 'Bearer:'].map((scheme) =>
      fc.constant({
        label: `the key under the scheme "${scheme}"`,
        authorization: `${scheme} ${scheme === 'Basic' ? Buffer.from(`${key}:`).toString('base64') : key}`,
      }),
    ),
    fc
      .constantFrom('Bearer', 'Bearer ', 'Bearer\t')
      .map((value) => ({ label: 'a bearer scheme with no token', authorization: value })),
  ];
  if (swapCase(key) !== key)
    kinds.push(fc.constant({ label: 'the key in another letter case', authorization: `Bearer ${swapCase(key)}` }));
  // Interface §5: the key is sent in the Authorization header; a request without it has no key, wherever else the
  // key is. In the query only when the key is sent there as written (no percent-encoding), so that the curl shown
  // rebuilds it from $PETSTORE_API_KEY like every other form.
  if (new URLSearchParams({ k: key }).toString() === `k=${key}`) {
    for (const name of KEY_QUERY_PARAMETERS)
      kinds.push(
        fc.constant({ label: `the key in the query parameter ${name}`, authorization: null, query: { [name]: key } }),
      );
  }
  for (const name of KEY_COOKIES)
    kinds.push(
      fc.constant({
        label: `the key in the cookie ${name}`,
        authorization: null,
        headers: { Cookie: `${name}=${key}` },
      }),
    );
  return kinds;
}

/**
 * 414 and 431: a server may refuse a request target (RFC 9110 §15.5.15) or header fields (RFC 6585 §5) longer than
 * it will interpret before anything else, authentication included, and the interface sets no length. Such an
 * answer is not a missing 401; it is judged like every answer (an Error, its status field equal to the status).
 */
function refusedBeforeAuthentication(status: number): boolean {
  return status === 414 || status === 431;
}

/** A request to `operation` that would be valid with the key: for getPet a pet the run created late, when it has one. */
function requestFor(session: Session, operation: Operation): ProbeRequest {
  const request: ProbeRequest = { operation: operation.id };
  if (operation.parameters.some((p) => p.in === 'path')) {
    const late =
      latest(generatedPets(session))?.id ??
      session.findings.created.at(-1)?.pet.id ??
      (writes(operation) ? ownPetId(session) : knownPetId(session));
    request.path = Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, asParameter(late)]),
    );
  }
  // Refused with 401 by every correct target: one name serves all of them.
  if (operation.body) request.json = { name: `${taggedName(session, 'auth')}-`, categoryId: 1 };
  return request;
}

/** The pet with the greatest id: the one created last, and the same whichever create happened to answer last. */
function latest(pets: Record<string, unknown>[]): Record<string, unknown> | undefined {
  const id = (pet: Record<string, unknown>) =>
    typeof pet.id === 'bigint' ? pet.id : Number.isSafeInteger(pet.id) ? BigInt(pet.id as number) : -1n;
  return pets.reduce<Record<string, unknown> | undefined>(
    (best, pet) => (best === undefined || id(pet) > id(best) ? pet : best),
    undefined,
  );
}

/** The other parts of a request varied around a missing or wrong key: queries, ids and bodies, valid or not. */
function restOf(operation: Operation): Arbitrary<Partial<ProbeRequest>> {
  const text = fc.oneof(
    fc.constantFrom('', 'abc', '-1', '0', '101', '99999999999999999999', 'available', 'AVAILABLE', 'x'.repeat(300)),
    fc.string({ maxLength: 12 }),
  );
  const parts: Arbitrary<Partial<ProbeRequest>>[] = [fc.constant({})];
  if (operation.parameters.some((p) => p.in === 'query'))
    parts.push(
      fc.record({
        query: fc.dictionary(
          fc.constantFrom(...operation.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'unknown'),
          text,
          { maxKeys: 3 },
        ),
      }),
    );
  // An empty id, a dot segment or a slash (`%2F`, which servers and gateways may decode) can name another path
  // (`/pets/`, `/`): not this operation, so not sent as an id.
  const id = text.filter((value) => value !== '' && value !== '.' && value !== '..' && !/[/\\]/.test(value));
  // A write names only the run's own item (requestFor): a varied id could name a seed a target with broken auth deletes.
  if (operation.parameters.some((p) => p.in === 'path') && !writes(operation))
    parts.push(
      id.map((id) => ({
        path: Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, id])),
      })),
    );
  if (operation.body) {
    parts.push(
      fc.constantFrom<Partial<ProbeRequest>>(
        { json: {} },
        { json: { name: 7, categoryId: 'x' } },
        { json: [] },
        { rawBody: '{' },
        { rawBody: 'name=x' },
        { json: { name: 'x', categoryId: 1 }, contentType: 'text/plain' },
        { json: { name: 'x', categoryId: 1 }, contentType: null },
      ),
    );
  }
  return fc.oneof(...parts);
}

/**
 * For every operation that needs the key: generated wrong credentials each get 401 with an Error body; v1's bearer
 * key here, every other requirement scheme by scheme (scheme-auth-case.ts).
 */
export function authVariantCases(spec: Spec): GeneratedContractCase[] {
  return spec.operations.flatMap((o) =>
    o.security.bearerOnly ? [authVariantCase(o)] : judgesAuth(o) ? [schemeAuthCase(o)] : [],
  );
}

function authVariantCase(operation: Operation): GeneratedContractCase {
  return generatedCase(
    {
      id: `generated.auth-rejected/${operation.id}`,
      check: 'generated.auth-rejected',
      operation: operation.id,
      title: `${operation.id} refuses generated wrong credentials with 401`,
      writes: writes(operation),
    },
    async (ctx, tally) => {
      const kinds = credentialKinds(ctx.session.config.apiKey);
      const perKind = Math.max(2, Math.ceil(ctx.session.config.runs / 3 / kinds.length));
      const properties = [
        () => refusesWhateverElse(ctx, tally, operation, perKind * 2),
        ...kinds.map((kind, index) => () => refusesCredentialKind(ctx, tally, operation, index, kind, perKind)),
      ];
      await eachProperty(ctx.session, properties, (property) => property());
    },
  );
}

/**
 * "When the key is missing or invalid, the service answers 401 with an Error body" (interface §5): no condition, so
 * whatever else the request carries — a bad query, an unknown or malformed id, a body that would be refused — a
 * request without the valid key gets 401, not the 400 or 404 the rest would earn.
 */
async function refusesWhateverElse(
  ctx: CaseContext,
  tally: PhaseTally,
  operation: Operation,
  runs: number,
): Promise<void> {
  const { session } = ctx;
  const arbitrary = fc.record({
    credential: fc.constantFrom<Credential>(
      { label: 'no Authorization header', authorization: null },
      { label: 'a wrong key', authorization: `Bearer ${session.config.runId}-not-the-key` },
    ),
    rest: restOf(operation),
  });
  const id = `generated.auth-rejected/${operation.id}/whatever-else`;
  tallyOf(
    tally,
    await runProperty(ctx, id, arbitrary, runs, (trial, { credential, rest }) =>
      expectRefused(
        trial,
        { ...requestFor(session, operation), ...rest, authorization: credential.authorization },
        `401 with an Error for ${credential.label}, whatever else the request carries (interface §5)`,
      ),
    ),
  );
}

/** One kind of wrong credential, on a request that would be valid with the key. */
async function refusesCredentialKind(
  ctx: CaseContext,
  tally: PhaseTally,
  operation: Operation,
  index: number,
  kind: Arbitrary<Credential>,
  runs: number,
): Promise<void> {
  const id = `generated.auth-rejected/${operation.id}/${index}`;
  tallyOf(
    tally,
    await runProperty(ctx, id, kind, runs, (trial, credential) => {
      const base = requestFor(ctx.session, operation);
      const request = {
        ...base,
        authorization: credential.authorization,
        ...(credential.headers ? { headers: credential.headers } : {}),
        ...(credential.query ? { query: { ...base.query, ...credential.query } } : {}),
      };
      return expectRefused(trial, request, `401 with an Error for ${credential.label}`);
    }),
  );
}

/** Sends a request without the valid key: any answer but 401 fails (a 5xx and a 414/431 are judged on their own). */
async function expectRefused(trial: Trial, request: ProbeRequest, expected: string): Promise<void> {
  const sent = await trial.send(request);
  if (
    sent.status !== undefined &&
    sent.status !== 401 &&
    !refusedBeforeAuthentication(sent.status) &&
    sent.status < 500
  )
    trial.fail(failure('generated.auth-rejected', sent, expected, `${sent.status}`));
}
