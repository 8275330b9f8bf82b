import { fc, type Arbitrary } from './fast-check.js';
import type { Operation } from '../../openapi/operations.js';
import type { RequiredScheme } from '../../openapi/security.js';
import type { CaseContext } from '../engine/run-case.js';
import type { Trial } from './run-property.js';
import { runProperty } from './run-property.js';
import { eachProperty } from './slots.js';
import { generatedCase, tallyOf, type GeneratedContractCase, type PhaseTally } from './generated-case.js';
import { failure } from '../judge/judge-response.js';
import { writes } from '../engine/build-request.js';
import { refusableRequest, refusedCredentials, satisfiesAny } from '../engine/auth-variants.js';
import {
  basicAuthorization,
  credentialOf,
  isBasicKey,
  mergeCredentials,
  type KeySource,
  type SentCredentials,
} from '../transport/credentials.js';
import { swapCase } from '../transport/shown-credentials.js';

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

/** A generated wrong credential for one scheme, in words, and what it puts where the valid one goes. */
interface Wrong {
  label: string;
  credential: Partial<SentCredentials>;
}

/**
 * `generated.auth-rejected` on an operation whose requirement is not v1's bearer key: for each scheme of each
 * requirement, generated near-copies of the key (text appended, a wrong key of the same length, the key less its
 * last character or in another letter case, the key in another place or under another scheme) with the other
 * schemes of that requirement valid, each refused with 401 (or the 403 the document declares). A form another
 * alternative would accept is not sent.
 */
export function schemeAuthCase(operation: Operation): GeneratedContractCase {
  return generatedCase(
    {
      id: `generated.auth-rejected/${operation.id}`,
      check: 'generated.auth-rejected',
      operation: operation.id,
      title: `${operation.id} refuses generated wrong credentials, scheme by scheme`,
      writes: writes(operation),
    },
    async (ctx, tally) => {
      const source = ctx.session.config;
      const kinds = schemesOf(operation).flatMap(({ required, rest }) =>
        wrongKinds(required, source).map((kind, index) => ({ name: `${required.scheme.name}/${index}`, rest, kind })),
      );
      const perKind = Math.max(2, Math.ceil(ctx.session.config.runs / 3 / Math.max(1, kinds.length)));
      await eachProperty(ctx.session, kinds, ({ name, rest, kind }) =>
        refusesKind(ctx, tally, operation, name, rest, kind, perKind),
      );
    },
  );
}

/** Each scheme once, with the valid credentials of the other schemes of the first requirement that has it. */
function schemesOf(operation: Operation): { required: RequiredScheme; rest: (source: KeySource) => SentCredentials }[] {
  const seen = new Set<string>();
  const found: { required: RequiredScheme; rest: (source: KeySource) => SentCredentials }[] = [];
  for (const alternative of operation.security.alternatives)
    for (const required of alternative) {
      if (seen.has(required.scheme.name)) continue;
      seen.add(required.scheme.name);
      found.push({
        required,
        rest: (source) => {
          // refusedCredentials' first form: nothing at all, -H credentials left out.
          let rest = refusedCredentials(operation, source, 'x')[0]!.credentials;
          for (const other of alternative)
            if (other !== required) rest = mergeCredentials(rest, credentialOf(other, source, 'Bearer', true));
          return rest;
        },
      });
    }
  return found;
}

/** The kinds of generated wrong credential for one scheme, each an arbitrary. */
function wrongKinds({ scheme }: RequiredScheme, source: KeySource): Arbitrary<Wrong>[] {
  const key = source.apiKey;
  const token = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: min, maxLength: max });
  const near: Arbitrary<{ label: string; value: string }>[] = [
    token(1, 4).map((extra) => ({ label: 'the key with text appended', value: `${key}${extra}` })),
    token(key.length, key.length)
      .filter((wrong) => wrong !== key)
      .map((wrong) => ({ label: 'a wrong key of the same length', value: wrong })),
    fc.constant({ label: 'the key less its last character', value: key.slice(0, -1) }),
    ...(swapCase(key) !== key ? [fc.constant({ label: 'the key in another letter case', value: swapCase(key) })] : []),
  ];
  switch (scheme.kind) {
    case 'apiKey': {
      const { parameter } = scheme;
      const at = (value: string): Partial<SentCredentials> =>
        scheme.in === 'query'
          ? { query: { [parameter]: value } }
          : scheme.in === 'header'
            ? { headers: { [parameter]: value } }
            : { cookies: { [parameter]: value } };
      // The key where the document does not put it: the scheme's own place left empty.
      const elsewhere: Partial<SentCredentials>[] = [
        ...(scheme.in !== 'query' ? [{ query: { [parameter]: key } }] : []),
        ...(scheme.in !== 'header' ? [{ headers: { [parameter]: key } }] : []),
        ...(scheme.in !== 'cookie' ? [{ cookies: { [parameter]: key } }] : []),
        { authorization: `Bearer ${key}` },
      ];
      return [
        ...near.map((kind) => kind.map(({ label, value }) => ({ label, credential: at(value) }))),
        ...elsewhere.map((credential) =>
          fc.constant({ label: `the key in another place than the ${scheme.in} ${parameter}`, credential }),
        ),
      ];
    }
    case 'bearer':
    case 'token': {
      const word = scheme.kind === 'bearer' ? 'Bearer' : scheme.authScheme;
      return [
        ...near.map((kind) =>
          kind.map(({ label, value }) => ({ label, credential: { authorization: `${word} ${value}` } })),
        ),
        fc.constant({ label: 'the key alone, without a scheme', credential: { authorization: key } }),
        ...['Token', 'Basic', 'ApiKey', 'Bearer']
          .filter((other) => other.toLowerCase() !== word.toLowerCase())
          .map((other) =>
            fc.constant({
              label: `the key under the scheme "${other}"`,
              credential: { authorization: `${other} ${key}` },
            }),
          ),
      ];
    }
    case 'basic': {
      const user = isBasicKey(key) ? key.split(':')[0]! : '';
      const password = isBasicKey(key) ? key.slice(user.length + 1) : key;
      const wrongPassword = fc
        .oneof(
          token(1, 4).map((extra) => `${password}${extra}`),
          token(password.length, password.length),
          fc.constant(password.slice(0, -1)),
          fc.constant(swapCase(password)),
        )
        .filter((wrong) => wrong !== password);
      return [
        wrongPassword.map((wrong) => ({
          label: 'a wrong password',
          credential: { authorization: basicAuthorization(user, wrong) },
        })),
        fc.constant({
          label: 'the key as the user name, no password',
          credential: { authorization: basicAuthorization(key, '') },
        }),
        fc.constant({ label: 'the key under the scheme "Bearer"', credential: { authorization: `Bearer ${key}` } }),
        fc.constant({ label: 'the key alone, not base64', credential: { authorization: `Basic ${key}` } }),
      ];
    }
    case 'unenforced':
      return [];
  }
}

/** One kind of wrong credential on a request that would be served with the valid one. */
async function refusesKind(
  ctx: CaseContext,
  tally: PhaseTally,
  operation: Operation,
  name: string,
  rest: (source: KeySource) => SentCredentials,
  kind: Arbitrary<Wrong>,
  runs: number,
): Promise<void> {
  const { session } = ctx;
  const source = session.config;
  const others = operation.security.alternatives;
  // A form another requirement would accept is not a wrong credential: not sent.
  const refusable = kind.filter(
    ({ credential }) => !satisfiesAny(mergeCredentials(rest(source), credential), others, source),
  );
  const id = `generated.auth-rejected/${operation.id}/${name}`;
  tallyOf(
    tally,
    await runProperty(ctx, id, refusable, runs, async (trial, wrong) => {
      const { request, valid } = refusableRequest(session, operation, 'auth');
      const credentials = mergeCredentials(rest(source), wrong.credential);
      await expectRefused(trial, operation, { ...request, credentials }, valid, wrong.label);
    }),
  );
}

/**
 * Any answer but a refusal fails: 401 (RFC 9110 §15.5.2), or 403 where the operation declares it. A 5xx, and a
 * 414 or 431 (refused before authentication), are judged on their own; another 4xx only for a request valid but for
 * its credentials (see auth-cases.ts).
 */
async function expectRefused(
  trial: Trial,
  operation: Operation,
  request: Parameters<Trial['send']>[0],
  valid: boolean,
  label: string,
): Promise<void> {
  const sent = await trial.send(request);
  const status = sent.status;
  if (status === undefined || status >= 500 || status === 414 || status === 431) return;
  const forbidden = operation.responses.has('403');
  if (status === 401 || (forbidden && status === 403)) return;
  if (!valid && status >= 400) return;
  const expected = forbidden ? '401 (or the 403 the document declares)' : '401 (RFC 9110 §15.5.2)';
  trial.fail(failure('generated.auth-rejected', sent, `${expected} for ${label}`, `${status}`));
}
