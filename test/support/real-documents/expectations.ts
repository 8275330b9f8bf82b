/**
 * What the mock does today with each document of the corpus (issue 52): the goal is `valid` for every valid
 * document and `refused` for the invalid ones. A known failure is asserted to fail exactly as written here, so a
 * fix that changes it fails real-documents.test.ts, telling the fixer to move the document up this table.
 */
export type Expectation = Valid | Refused | FailsToStart | InvalidAnswers;

/** Starts; every operation sent (but those in `notSent`, each with the harness's reason) and every answer valid. */
export interface Valid {
  today: 'valid';
  /** Operations the harness sends nothing to, with its reasons; default: NOT_SENDABLE[file], then none. */
  notSent?: Record<string, RegExp>;
  /** Lines the start printed (warnings), exactly; default 0. */
  printed?: number;
  /** Operations answered an undeclared 404 for an item the harness could not create or list first (try-document.ts). */
  absent?: string[];
}

/** An invalid document, refused in one line naming what it breaks and where; nothing else printed. */
export interface Refused {
  today: 'refused';
  line: RegExp;
}

/** A known failure: a document that should start (or be refused for its own fault) is refused with `message`. */
export interface FailsToStart {
  today: 'fails to start';
  reason: string;
  message: RegExp;
  printed?: number;
}

/**
 * A known failure: the mock starts, and the answers the `invalid` rules describe break the document — each rule
 * matches `count` operations whose causes match `cause`, and no other answer is invalid.
 */
export interface InvalidAnswers {
  today: 'invalid answers';
  reason: string;
  invalid: { operations: RegExp; cause: RegExp; count: number }[];
  /** The mock's own failures (500s it reports to onInternalError), each matching; default none. */
  internalErrors?: RegExp;
  /** Operations the harness sends nothing to, with its reasons; default: NOT_SENDABLE[file], then none. */
  notSent?: Record<string, RegExp>;
  printed?: number;
  /** As for Valid: undeclared 404s for items the harness could not create or list first. */
  absent?: string[];
}

export const EXPECTATIONS: Record<string, Expectation> = {
  'OAI.OpenAPI-Specification/examples/v3.0/petstore.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/examples/v3.0/petstore-expanded.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/examples/v3.0/uspto.yaml': { today: 'valid' },
  // No operation creates or lists users, so the harness asks for one by a made-up name: not there, 404 (RFC 9110
  // §15.5.5), which the operation need not declare (OAS 3.0.3 §4.7.16).
  'OAI.OpenAPI-Specification/examples/v3.0/link-example.yaml': {
    today: 'valid',
    absent: ['GET /2.0/users/{username}'],
  },
  'OAI.OpenAPI-Specification/examples/v3.0/callback-example.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/examples/v3.0/api-with-examples.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/examples/v3.1/webhook-example.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/examples/v3.1/non-oauth-scopes.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/tests/v3.1/pass/minimal_comp.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/tests/v3.1/pass/minimal_hooks.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/tests/v3.1/pass/path_no_response.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/tests/v3.1/pass/mega.yaml': { today: 'valid' },
  'OAI.OpenAPI-Specification/tests/v3.1/pass/schema.yaml': { today: 'valid' },
  // OAS 3.1.0 §4.8.1: at least one of paths, components or webhooks MUST be present.
  'OAI.OpenAPI-Specification/tests/v3.1/fail/no_containers.yaml': {
    today: 'refused',
    line: /breaks the OpenAPI 3\.1 schema: document\.paths is required; document\.components is required; document\.webhooks is required$/,
  },
  // OAS 3.1.0 §4.8.24: a Schema Object is a JSON Schema (an object or a boolean).
  'OAI.OpenAPI-Specification/tests/v3.1/fail/invalid_schema_types.yaml': {
    today: 'refused',
    line: /breaks the OpenAPI 3\.1 schema: document\.components\.schemas\.invalid_null must be an object or a boolean;/,
  },
  'OAI.learn.openapis.org/examples/v3.1/tictactoe.yaml': { today: 'valid' },
  'swagger-api.swagger-petstore/src/main/resources/openapi.yaml': { today: 'valid' },
  'Redocly.museum-openapi-example/openapi.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/security.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/security-multiple.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/callbacks.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/discriminators.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/polymorphism.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/circular.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/schema-circular.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.0/yaml/star-trek.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.1/yaml/security.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.1/yaml/webhooks.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.1/yaml/petstore.yaml': { today: 'valid' },
  'readmeio.oas-examples/3.1/yaml/schema-types.yaml': { today: 'valid' },
  // The large documents start since every security scheme is enforced (issue 52 item 3), and every answer keeps
  // the document: bodies prism-http composes from property examples that break their schemas (Box's shared_link
  // without accessed, Asana's 'asana.com' as a uri) give way to the least valid body (src/mock/front-door/
  // valid-body.ts), and a stored item gets the nested members its answer requires (complete-required.ts).
  // Operations Box keeps apart by a fragment in the path (`/shared_items#folders`) are judged with those of the same
  // request (same-request.ts): no request can ask for one of them rather than another.
  'box.box-openapi/openapi.json': { today: 'valid' },
  'Asana.openapi/defs/asana_oas.yaml': { today: 'valid' },
  // Each of its operations too large for prism-http (src/mock/front-door/fallback.ts): answered from the document.
  'stripe.openapi/openapi/spec3.json': { today: 'valid' },
};

/**
 * Operations of the valid documents no valid request can be built for, with what in the document stops it (or,
 * named so, the harness): real-documents-harness.test.ts holds the harness to it, and a document that starts is
 * expected to have exactly these operations not sent.
 */
export const NOT_SENDABLE: Record<string, Record<string, RegExp>> = {
  'readmeio.oas-examples/3.0/yaml/security-multiple.yaml': {
    // RFC 9110 §11.6.2: one Authorization header carries one set of credentials.
    'POST /anything/and': /apiKey_header and basic and oauth2 both need the Authorization header/,
  },
  'readmeio.oas-examples/3.1/yaml/security.yaml': { 'POST /anything/mutualTLS': /mutualTLS.*cannot be sent/ },
  'readmeio.oas-examples/3.1/yaml/schema-types.yaml': {
    // A required body of allOf [string, integer]: no value is both.
    'PUT /anything/quirks/polymorphism': /no valid value for the body: \/ must be string/,
    'PATCH /anything/quirks/polymorphism': /no valid value for the body: \/ must be string/,
  },
  // Two oneOf bodies whose branches this harness cannot make unlike (a limit of the harness, not of the document).
  'readmeio.oas-examples/3.0/yaml/discriminators.yaml': {
    'POST /potentially-undefined-formData': /must match exactly one schema in oneOf/,
  },
  'readmeio.oas-examples/3.0/yaml/polymorphism.yaml': {
    'POST /one-of-complex': /must match exactly one schema in oneOf/,
  },
};
