/** How a difference touches a client of the old document: breaking fails the gate, a warning fails it with `--fail-on warning`. */
export type Level = 'breaking' | 'warning' | 'info';

export interface CheckRule {
  level: Level;
  /** What the check finds, in a few words (the docs' table). */
  title: string;
  /** oasdiff's ids for the same change (github.com/oasdiff/oasdiff, checker/rules.go), where it has one. */
  oasdiff: readonly string[];
}

/**
 * Every check `compat` can report, by stable id: the table docs/compat.md is tested against. An id never changes
 * meaning; a new rule gets a new id. The levels are ours (the gate's policy), not oasdiff's; where they differ,
 * docs/compat.md says why.
 */
export const checks = {
  // Operations and their lifecycle.
  'operation.removed': {
    level: 'breaking',
    title: 'an operation removed that was never deprecated',
    oasdiff: ['api-removed-without-deprecation', 'api-path-removed-without-deprecation'],
  },
  'operation.removed-before-sunset': {
    level: 'breaking',
    title: 'a deprecated operation removed before its x-sunset date (or with none)',
    oasdiff: ['api-removed-before-sunset', 'api-path-removed-before-sunset'],
  },
  'operation.removed-after-sunset': {
    level: 'info',
    title: 'a deprecated operation removed on or after its x-sunset date',
    oasdiff: ['api-removed-with-deprecation', 'api-path-removed-with-deprecation'],
  },
  'operation.path-changed': {
    level: 'breaking',
    title: 'an operation moved to another path or method (same operationId)',
    oasdiff: ['api-removed-without-deprecation', 'new-request-path-parameter'],
  },
  'operation.added': { level: 'info', title: 'an operation added', oasdiff: ['endpoint-added'] },
  'operation.deprecated': {
    level: 'warning',
    title: 'an operation newly deprecated',
    oasdiff: ['endpoint-deprecated', 'endpoint-deprecated-with-sunset'],
  },
  'operation.reactivated': {
    level: 'info',
    title: 'an operation no longer deprecated',
    oasdiff: ['endpoint-reactivated'],
  },
  'lifecycle.sunset-missing': {
    level: 'warning',
    title: 'a deprecation without an x-sunset date, or with one that is not a date',
    oasdiff: ['api-deprecated-sunset-missing', 'api-deprecated-sunset-parse', 'sunset-deleted'],
  },
  'lifecycle.sunset-too-soon': {
    level: 'warning',
    title: 'an x-sunset sooner than the minimum notice (--min-notice)',
    oasdiff: ['api-sunset-date-too-small'],
  },
  'lifecycle.sunset-moved-earlier': {
    level: 'warning',
    title: 'an x-sunset date moved earlier',
    oasdiff: ['api-sunset-date-changed-too-small'],
  },
  'lifecycle.stability-decreased': {
    level: 'warning',
    title: 'an operation marked less stable (stable → beta → experimental)',
    oasdiff: ['api-stability-decreased'],
  },
  'lifecycle.unstable-changed': {
    level: 'info',
    title: 'a change to an experimental or beta operation, which may change without notice',
    oasdiff: [],
  },
  'server.base-path-changed': {
    level: 'breaking',
    title: 'the base path of the first server changed (`/v1` → `/v2`): every URL moves',
    oasdiff: [],
  },
  // Security.
  'security.requirement-added': {
    level: 'breaking',
    title: 'a security requirement added to an operation that had none',
    oasdiff: ['api-security-added', 'api-global-security-added'],
  },
  'security.requirement-changed': {
    level: 'breaking',
    title: 'a security requirement changed (another scheme, type or scopes)',
    oasdiff: ['api-security-component-type-changed', 'api-security-scope-added'],
  },
  'security.requirement-relaxed': {
    level: 'info',
    title: 'a security requirement removed or an alternative added',
    oasdiff: ['api-security-removed', 'api-global-security-removed'],
  },
  // Parameters.
  'request.parameter-added-required': {
    level: 'breaking',
    title: 'a required parameter added',
    oasdiff: ['new-required-request-parameter'],
  },
  'request.parameter-became-required': {
    level: 'breaking',
    title: 'an optional parameter made required',
    oasdiff: ['request-parameter-became-required'],
  },
  'request.parameter-renamed': {
    level: 'breaking',
    title: 'a query, header or cookie parameter renamed',
    oasdiff: ['request-parameter-removed', 'new-optional-request-parameter'],
  },
  'request.path-parameter-renamed': {
    level: 'info',
    title: 'a path parameter renamed (the URL a client sends is unchanged)',
    oasdiff: [],
  },
  'request.parameter-removed': {
    level: 'warning',
    title: 'a parameter removed: a client that sends it is no longer heard',
    oasdiff: ['request-parameter-removed'],
  },
  'request.parameter-added': {
    level: 'info',
    title: 'an optional parameter added',
    oasdiff: ['new-optional-request-parameter'],
  },
  'request.parameter-became-optional': {
    level: 'info',
    title: 'a required parameter made optional',
    oasdiff: ['request-parameter-became-optional'],
  },
  // Request bodies.
  'request.body-added-required': {
    level: 'breaking',
    title: 'a required request body added',
    oasdiff: ['request-body-added-required'],
  },
  'request.body-became-required': {
    level: 'breaking',
    title: 'an optional request body made required',
    oasdiff: ['request-body-became-required'],
  },
  'request.body-became-optional': {
    level: 'info',
    title: 'a required request body made optional',
    oasdiff: ['request-body-became-optional'],
  },
  'request.body-removed': {
    level: 'warning',
    title: 'a request body removed: what a client sends is no longer read',
    oasdiff: [],
  },
  'request.media-type-removed': {
    level: 'breaking',
    title: 'a request media type removed',
    oasdiff: ['request-body-media-type-removed'],
  },
  'request.media-type-added': {
    level: 'info',
    title: 'a request media type added',
    oasdiff: ['request-body-media-type-added'],
  },
  'request.property-added-required': {
    level: 'breaking',
    title: 'a required request property added',
    oasdiff: ['new-required-request-property'],
  },
  'request.property-became-required': {
    level: 'breaking',
    title: 'an optional request property made required',
    oasdiff: ['request-property-became-required'],
  },
  'request.property-removed': {
    level: 'warning',
    title: 'a request property removed: a client that sends it is no longer heard',
    oasdiff: ['request-property-removed'],
  },
  'request.property-added': {
    level: 'info',
    title: 'an optional request property added',
    oasdiff: ['new-optional-request-property'],
  },
  'request.property-became-optional': {
    level: 'info',
    title: 'a required request property made optional',
    oasdiff: ['request-property-became-optional'],
  },
  // Request values (parameters and body alike): a narrower schema refuses what a client of the old one sends.
  'request.type-changed': {
    level: 'breaking',
    title: 'the type of a request value changed',
    oasdiff: ['request-parameter-type-changed', 'request-property-type-changed', 'request-body-type-changed'],
  },
  'request.format-changed': {
    level: 'breaking',
    title: 'a request value given a format, or another one',
    oasdiff: ['request-parameter-type-changed', 'request-property-type-changed'],
  },
  'request.enum-value-removed': {
    level: 'breaking',
    title: 'a value removed from a request enum',
    oasdiff: ['request-parameter-enum-value-removed', 'request-property-enum-value-removed'],
  },
  'request.became-enum': {
    level: 'breaking',
    title: 'a request value limited to an enum',
    oasdiff: ['request-parameter-became-enum', 'request-property-became-enum', 'request-body-became-enum'],
  },
  'request.maximum-decreased': {
    level: 'breaking',
    title: 'a request maximum lowered or set',
    oasdiff: [
      'request-parameter-max-decreased',
      'request-property-max-decreased',
      'request-body-max-decreased',
      'request-parameter-max-set',
      'request-property-max-set',
    ],
  },
  'request.minimum-increased': {
    level: 'breaking',
    title: 'a request minimum raised or set',
    oasdiff: [
      'request-parameter-min-increased',
      'request-property-min-increased',
      'request-parameter-min-set',
      'request-property-min-set',
    ],
  },
  'request.max-length-decreased': {
    level: 'breaking',
    title: 'a request maxLength lowered or set',
    oasdiff: [
      'request-parameter-max-length-decreased',
      'request-property-max-length-decreased',
      'request-parameter-max-length-set',
      'request-property-max-length-set',
    ],
  },
  'request.min-length-increased': {
    level: 'breaking',
    title: 'a request minLength raised or set',
    oasdiff: ['request-parameter-min-length-increased', 'request-property-min-length-increased'],
  },
  'request.max-items-decreased': {
    level: 'breaking',
    title: 'a request maxItems lowered or set',
    oasdiff: ['request-parameter-max-items-decreased'],
  },
  'request.min-items-increased': {
    level: 'breaking',
    title: 'a request minItems raised or set',
    oasdiff: ['request-parameter-min-items-increased', 'request-property-min-items-increased'],
  },
  'request.pattern-changed': {
    level: 'breaking',
    title: 'a request pattern added or changed',
    oasdiff: ['request-parameter-pattern-added', 'request-property-pattern-added'],
  },
  'request.became-not-nullable': {
    level: 'breaking',
    title: 'a request value no longer nullable',
    oasdiff: ['request-parameter-became-not-nullable', 'request-property-became-not-nullable'],
  },
  'request.constraint-relaxed': {
    level: 'info',
    title:
      'a request value accepts more than before (a bound widened or dropped, an enum value added, a type generalised)',
    oasdiff: [
      'request-parameter-max-increased',
      'request-parameter-enum-value-added',
      'request-property-enum-value-added',
      'request-parameter-type-generalized',
    ],
  },
  'request.default-changed': {
    level: 'warning',
    title: 'the default of a request value added, changed or removed',
    oasdiff: [
      'request-parameter-default-value-added',
      'request-parameter-default-value-changed',
      'request-parameter-default-value-removed',
      'request-property-default-value-changed',
    ],
  },
  // Responses.
  'response.status-removed': {
    level: 'breaking',
    title: 'a response status removed',
    oasdiff: ['response-success-status-removed', 'response-non-success-status-removed'],
  },
  'response.status-added': {
    level: 'info',
    title: 'a response status added',
    oasdiff: ['response-success-status-added', 'response-non-success-status-added'],
  },
  'response.media-type-removed': {
    level: 'breaking',
    title: 'a response media type removed',
    oasdiff: ['response-media-type-removed'],
  },
  'response.media-type-added': {
    level: 'info',
    title: 'a response media type added',
    oasdiff: ['response-media-type-added'],
  },
  'response.property-removed': {
    level: 'breaking',
    title: 'a response property removed',
    oasdiff: ['response-required-property-removed', 'response-optional-property-removed'],
  },
  'response.property-became-optional': {
    level: 'breaking',
    title: 'a required response property made optional',
    oasdiff: ['response-property-became-optional'],
  },
  'response.property-added': {
    level: 'info',
    title: 'a response property added',
    oasdiff: ['response-optional-property-added', 'response-required-property-added'],
  },
  'response.property-became-required': {
    level: 'info',
    title: 'an optional response property made required',
    oasdiff: ['response-property-became-required'],
  },
  'response.type-changed': {
    level: 'breaking',
    title: 'the type of a response value changed',
    oasdiff: ['response-property-type-changed', 'response-body-type-changed'],
  },
  'response.format-changed': {
    level: 'breaking',
    title: 'a response value lost its format or got another one',
    oasdiff: ['response-property-type-changed', 'response-body-type-changed'],
  },
  'response.enum-value-removed': {
    level: 'breaking',
    title: 'a value removed from a response enum',
    oasdiff: ['response-property-enum-value-removed'],
  },
  'response.enum-value-added': {
    level: 'warning',
    title: 'a value added to a response enum: a client may receive one it does not know',
    oasdiff: ['response-property-enum-value-added'],
  },
  'response.enum-removed': { level: 'breaking', title: 'a response value no longer limited to an enum', oasdiff: [] },
  'response.maximum-increased': {
    level: 'breaking',
    title: 'a response maximum raised or dropped',
    oasdiff: ['response-property-max-increased', 'response-body-max-increased'],
  },
  'response.minimum-decreased': {
    level: 'breaking',
    title: 'a response minimum lowered or dropped',
    oasdiff: ['response-property-min-decreased', 'response-body-min-decreased'],
  },
  'response.max-length-increased': {
    level: 'breaking',
    title: 'a response maxLength raised or dropped',
    oasdiff: ['response-property-max-length-increased', 'response-property-max-length-unset'],
  },
  'response.min-length-decreased': {
    level: 'breaking',
    title: 'a response minLength lowered or dropped',
    oasdiff: ['response-property-min-length-decreased'],
  },
  'response.max-items-increased': { level: 'breaking', title: 'a response maxItems raised or dropped', oasdiff: [] },
  'response.min-items-decreased': {
    level: 'breaking',
    title: 'a response minItems lowered or dropped',
    oasdiff: [
      'response-property-min-items-decreased',
      'response-property-min-items-unset',
      'response-body-min-items-decreased',
      'response-body-min-items-unset',
    ],
  },
  'response.pattern-changed': {
    level: 'breaking',
    title: 'a response pattern dropped or changed',
    oasdiff: ['response-property-pattern-removed'],
  },
  'response.became-nullable': {
    level: 'breaking',
    title: 'a response value may now be null',
    oasdiff: ['response-property-became-nullable', 'response-body-became-nullable'],
  },
  'response.constraint-tightened': {
    level: 'info',
    title: 'a response promises more than before (a bound narrowed or set, a format or enum added)',
    oasdiff: [],
  },
  'response.default-changed': {
    level: 'warning',
    title: 'the default of a response value added, changed or removed',
    oasdiff: ['response-property-default-value-changed'],
  },
  // Usage: the recorded exchanges of a client's tests, replayed against the new document (--journal).
  'journal.request-refused': {
    level: 'breaking',
    title: 'a recorded request the old document accepts and the new one refuses',
    oasdiff: [],
  },
  'journal.operation-removed': {
    level: 'breaking',
    title: 'a recorded request to an operation the new document no longer has',
    oasdiff: [],
  },
  'journal.answer-not-promised': {
    level: 'breaking',
    title: 'a recorded answer the new document no longer promises (its status, or a property read from it)',
    oasdiff: [],
  },
  'journal.deprecated-call': {
    level: 'warning',
    title: 'a recorded request to an operation deprecated in the new document',
    oasdiff: [],
  },
} as const satisfies Record<string, CheckRule>;

export type CheckId = keyof typeof checks;

export const checkIds = Object.keys(checks) as CheckId[];
