import type { Operation } from '../../openapi/operations.js';
import type { RequiredScheme, SecurityRequirement } from '../../openapi/security.js';
import { examplesOf } from '../../openapi/schema-keywords.js';
import type { ProbeRequest } from '../transport/send-request.js';
import type { Session } from '../base/session.js';
import {
  basicAuthorization,
  credentialOf,
  isBasicKey,
  mergeCredentials,
  noCredentials,
  satisfies,
  sendable,
  type KeySource,
  type SentCredentials,
} from '../transport/credentials.js';
import { validRequest } from './build-request.js';

/** A way of sending no valid credentials for an operation: each must be refused. */
export interface RefusedCredentials {
  /** Stable, for the case id: `no-credentials`, `key-missing`, `petstore_auth-invalid-token`. */
  label: string;
  /** What is wrong, for the title and the report: `no X-API-Key header (apiKey "key")`. */
  description: string;
  credentials: SentCredentials;
}

/** A wrong form of one scheme's credential: what is sent in its place instead of the valid one. */
interface WrongForm {
  label: string;
  description: string;
  credential: Partial<SentCredentials>;
}

/**
 * Whether an operation's auth is judged at all on a document other than v1: it requires credentials (not anonymous:
 * OpenAPI §4.8.30) and every alternative is one the runner can send, so that a refusal is told from an acceptance.
 * An alternative needing mutualTLS or a challenge scheme (Digest) could be satisfied by what the runner cannot send.
 */
export function judgesAuth(operation: Operation): boolean {
  const { security } = operation;
  return !security.anonymous && security.alternatives.every((a) => a.every(sendable));
}

/**
 * The credentials an operation must refuse (401 per RFC 9110 §15.5.2): none at all, then, for each scheme of each
 * requirement, its credential missing or wrong while the other schemes of that requirement are sent valid (so a
 * combination is checked scheme by scheme: a target checking one of two fails). Credentials given with -H are left
 * out unless they belong to that requirement's other schemes. A form that would satisfy another alternative (two
 * requirements sharing an apiKey, oauth2 and http bearer sharing a token) is left out: it must be served.
 */
export function refusedCredentials(operation: Operation, source: KeySource, runId: string): RefusedCredentials[] {
  const alternatives = operation.security.alternatives;
  const nothing = withoutGiven(noCredentials(), alternatives.flat(), source);
  const found: RefusedCredentials[] = [
    { label: 'no-credentials', description: 'no credentials', credentials: nothing },
  ];
  const seen = new Set<string>();
  for (const alternative of alternatives) {
    for (const required of alternative) {
      if (seen.has(required.scheme.name)) continue;
      seen.add(required.scheme.name);
      let rest = nothing;
      for (const other of alternative)
        if (other !== required) rest = mergeCredentials(rest, credentialOf(other, source, 'Bearer', true));
      for (const wrong of wrongForms(required, source, runId)) {
        const credentials = mergeCredentials(rest, wrong.credential);
        if (alternatives.some((a) => satisfies(credentials, a, source))) continue;
        found.push({
          label: `${required.scheme.name}-${wrong.label}`,
          description: `${wrong.description} (scheme "${required.scheme.name}")`,
          credentials,
        });
      }
    }
  }
  return found;
}

/** `credentials` with every -H header or cookie that carries a credential of `schemes` left out. */
function withoutGiven(credentials: SentCredentials, schemes: RequiredScheme[], source: KeySource): SentCredentials {
  const out = mergeCredentials(credentials, {});
  for (const { scheme } of schemes) {
    if (scheme.kind !== 'apiKey') continue;
    if (scheme.in === 'header' && source.headers[scheme.parameter.toLowerCase()] !== undefined)
      out.headers[scheme.parameter] = null;
    if (scheme.in === 'cookie' && (source.headers.cookie ?? '').includes(`${scheme.parameter}=`))
      out.cookies[scheme.parameter] = null;
  }
  return out;
}

/** The wrong forms of a scheme's credential the fixed cases send (v1's four for a bearer token, and their likes). */
function wrongForms({ scheme }: RequiredScheme, source: KeySource, runId: string): WrongForm[] {
  const key = source.apiKey;
  const invalid = `contract-invalid-${runId}`;
  switch (scheme.kind) {
    case 'apiKey': {
      const { parameter } = scheme;
      const place = { header: 'header', query: 'query parameter', cookie: 'cookie' }[scheme.in];
      const at = (value: string | null): Partial<SentCredentials> =>
        scheme.in === 'query'
          ? { query: value === null ? {} : { [parameter]: value } }
          : scheme.in === 'header'
            ? { headers: { [parameter]: value } }
            : { cookies: { [parameter]: value } };
      return [
        { label: 'missing', description: `no ${parameter} ${place}`, credential: at(null) },
        { label: 'empty', description: `an empty ${parameter} ${place}`, credential: at('') },
        { label: 'invalid', description: `an unknown key in the ${parameter} ${place}`, credential: at(invalid) },
      ];
    }
    case 'bearer':
    case 'token': {
      const word = scheme.kind === 'bearer' ? 'Bearer' : scheme.authScheme;
      const other = word.toLowerCase() === 'token' ? 'Bearer' : 'Token';
      return [
        { label: 'no-header', description: 'no Authorization header', credential: { authorization: null } },
        {
          label: 'wrong-scheme',
          description: `the valid key under the scheme "${other}"`,
          credential: { authorization: `${other} ${key}` },
        },
        { label: 'empty-token', description: `an empty ${word} token`, credential: { authorization: `${word} ` } },
        {
          label: 'invalid-token',
          description: `an unknown ${word} token`,
          credential: { authorization: `${word} ${invalid}` },
        },
      ];
    }
    case 'basic':
      return [
        { label: 'no-header', description: 'no Authorization header', credential: { authorization: null } },
        {
          label: 'wrong-scheme',
          description: 'the valid key under the scheme "Bearer"',
          credential: { authorization: `Bearer ${key}` },
        },
        {
          label: 'invalid-password',
          description: 'Basic credentials with an unknown password',
          credential: { authorization: basicAuthorization(isBasicKey(key) ? key.split(':')[0]! : '', invalid) },
        },
        {
          label: 'not-base64',
          description: 'Basic credentials that are not base64 (RFC 7617)',
          credential: { authorization: 'Basic %not-base64%' },
        },
      ];
    case 'unenforced':
      return [];
  }
}

/**
 * A request to `operation` that would be served with valid credentials, as far as the runner can tell, and whether
 * it can tell: path parameters as validRequest fills them (an item the run may not have), the body the first of the
 * document's examples that its schema accepts (else v1's NewPet shape, checked alike). A 4xx other than the refusal
 * is judged only when `valid`: the order in which a server checks credentials and input is not the document's to
 * fix (RFC 9110 leaves it open), but a valid request has nothing else to refuse.
 */
export function refusableRequest(
  session: Session,
  operation: Operation,
  label: string,
): { request: ProbeRequest; valid: boolean } {
  const request = validRequest(session, operation, label);
  let valid =
    !operation.parameters.some((p) => p.in === 'path') &&
    !operation.parameters.some((p) => p.required && p.in !== 'cookie');
  if (operation.body?.validate) {
    const json = bodyExamples(operation).find((example) => operation.body!.validate!(example));
    if (json !== undefined) request.json = json;
    else valid &&= operation.body.validate(request.json) === true;
  }
  return { request, valid };
}

/** The examples of an operation's JSON request body: the media type's (`example`, `examples`) and its schema's. */
function bodyExamples(operation: Operation): unknown[] {
  const content = (operation.object.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined)
    ?.content;
  const media = Object.entries(content ?? {}).find(([type]) => /^application\/(.+\+)?json\b/i.test(type))?.[1];
  if (!media) return [];
  const named = Object.values((media.examples ?? {}) as Record<string, { value?: unknown }>).map((e) => e?.value);
  return [media.example, ...named, ...examplesOf(media.schema)].filter((value) => value !== undefined);
}

/** Whether `requirement` would be satisfied: re-exported for the generated phase's wrong credentials. */
export function satisfiesAny(
  credentials: SentCredentials,
  requirements: readonly SecurityRequirement[],
  source: KeySource,
): boolean {
  return requirements.some((requirement) => satisfies(credentials, requirement, source));
}
