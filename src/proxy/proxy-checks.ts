/**
 * The check ids the proxy reports. A response is judged by the contract runner's judge, under its ids
 * (src/openapi/judge-observed.ts, src/contract/base/check-ids.ts); the request checks are the proxy's own, since the
 * runner sends only requests it built itself.
 */
export const proxyChecks = {
  'request.parameters':
    "the request's path, query and header parameters keep the document (types, ranges, enums, required)",
  'request.body':
    "the request body keeps the document: JSON of the operation's schema, application/json, within --body-limit",
  'input.invalid-rejected':
    "a request body that breaks the document is refused with a 4xx, never answered 2xx (the contract runner's id)",
  'schema.response': 'a documented 2xx response body matches the schema for its operation and status',
  'status.documented': 'every 2xx/3xx status is documented for the operation',
  'content-type.json': 'a response with a documented JSON body, and every error, is application/json and parses',
  'error.shape': 'every 4xx/5xx body is an Error {code, message, status} whose status equals the HTTP status',
  'server.no-5xx': 'the upstream answers no request with a 5xx (501 goes to the fallback instead)',
  'response.bounded': 'the upstream body is at most the bound after decompression, nests at most 64 deep and decodes',
} as const;

export type ProxyCheckId = keyof typeof proxyChecks;
