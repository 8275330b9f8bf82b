import { checks, type CheckId } from './check-ids.js';

/**
 * The sentence of the interface (`/work/shared/spec/petstore-service-interface.md`, rendered as openapi.yaml) or of
 * the RFC each check rests on, quoted, with where it is: what a report shows beside a failure, so that a reader can
 * see which promise the target broke. A `note` check judges nothing; its basis says what it reports on.
 */
export const checkBasis: Record<CheckId, string> = {
  'schema.response':
    'Interface §2 and §4: each documented response has its body (Pet, Pets, Error) with the fields, types and required members of §2.',
  'status.documented':
    'Interface §4: each operation lists its responses; a 2xx/3xx outside that list is not one of them.',
  'content-type.json':
    'Interface §1: "Request and response bodies are application/json"; §7: "Error responses use the Error shape (code, message, status) as application/json."',
  'error.shape':
    'Interface §7: "Error responses use the Error shape (code, message, status)" and "The status field of the Error body holds the same number as the HTTP status."',
  'server.no-5xx':
    'RFC 9110 §15.6: a 5xx says the server failed to fulfil a request; no request of the suite is one the interface lets fail so.',
  'server.responds':
    'RFC 9110 §9.3: every request of a documented operation gets a response; none came within --timeout.',
  'response.bounded':
    'RFC 8259 §8.1: JSON text is UTF-8; RFC 9110 §8.4: a Content-Encoding is decodable by the client; a body must be readable to be judged at all.',
  'auth.required':
    'Interface §5: "When the key is missing or invalid, the service answers 401 with an Error body."; RFC 6750 §3.',
  'auth.valid-key':
    'Interface §5: "The API key is sent in the header Authorization as a bearer token: Authorization: Bearer <API_KEY>."',
  'input.valid-accepted':
    'Interface §4.1: limit is "minimum 1, maximum 100, default 20", status one of PetStatus; §2: NewPet status is optional.',
  'input.invalid-rejected':
    'Interface §4.2: 400 when the "Body is missing required fields or holds invalid values"; §8: limit maximum 100.',
  'list.limit': 'Interface §4.1: limit is the "Maximum number of animals to return."',
  'list.default-limit': 'Interface §4.1 and §8: limit "default 20".',
  'list.status-filter': 'Interface §4.1: status "Filters by availability status."',
  'list.no-duplicates':
    'Interface §4.1: "Returns a paginated list of animals"; a page that holds one animal twice is not a list of animals.',
  'create.echo': 'Interface §4.2: 201 "Animal added; the returned Pet carries the assigned id."',
  'create.persisted': 'Interface §4.2 and §4.3: an animal added is in the store that getPet and listPets read.',
  'get.returns-requested': 'Interface §4.3: 200 is "The requested animal."',
  'get.not-found': 'Interface §4.3 and §7: 404 when the "Requested resource not found."',
  'deprecation.headers':
    'Interface §9: getPet "is deprecated, with removal on 5 December 2030" (RFC 9745, RFC 8594): reported, not judged.',
  'coverage.operation-status':
    'Interface §4: the responses each operation documents; judged only with --require-coverage.',
  'generated.valid-accepted':
    'Interface §4 and §5: a request within every documented parameter, body and scheme is served.',
  'generated.invalid-rejected':
    'Interface §4.2: 400 when the "Body is missing required fields or holds invalid values"; §7: errors in the Error shape.',
  'generated.auth-rejected':
    'Interface §5: "When the key is missing or invalid, the service answers 401 with an Error body." The rule has no condition.',
  'generated.round-trip':
    'Interface §2 and §4.2: a Pet is all fields of NewPet plus id; name is a string, categoryId an int64.',
  'stateful.get': 'Interface §4.3: 200 is "The requested animal", the one added by createPet (§4.2).',
  'stateful.list': 'Interface §4.1: at most limit animals, filtered by status, from the store createPet added to.',
  'stateful.unique-ids': 'Interface §2: id is the "Unique identifier assigned by the service on creation."',
  'stateful.sequence':
    'RFC 9110 §9.3.1, §9.3.4, §9.3.5 and RFC 7396 §2, over a sequence: each request acts on the state the ones before it left, so a read shows the last write, a deleted item stays gone and a refused update changes nothing.',
  'stateful.not-found': 'Interface §4.3 and §7: 404 when the "Requested resource not found."',
  'resource.created-readable':
    'RFC 9110 §15.3.2: the created resource is "identified by either a Location header field in the response or, if no Location header field is received, by the target URI"; §10.2.2: a Location "consists of a single URI-reference", a relative one resolved "against the target URI", so it names the item in the collection that created it; §9.3.1: GET "requests transfer of a current selected representation for the target resource."',
  'resource.self-link':
    'RFC 8288 §2: a link is "a typed connection between two resources", its relation type a registered name (§2.1.1); the IANA Link Relations registry: self "Conveys an identifier for the link\'s context" (RFC 4287 §4.2.7.2: it "identifies a resource equivalent to the containing element"), so the links.self of an item names that item: its own path in the collection that created it.',
  'resource.filter':
    "The document: a list query parameter named like a property of the item filters on that property (the resource model's filters): an item is kept when its property equals the value, not when it contains it, starts with it or matches it in another letter case.",
  'resource.replace-exact':
    'RFC 9110 §9.3.4: PUT "requests that the state of the target resource be created or replaced with the state defined by the representation enclosed"; §9.2.2: PUT is idempotent.',
  'resource.merge-patch':
    'RFC 7396 §2: "If the target does contain the member, the value is replaced. Null values in the merge patch are given special meaning to indicate the removal of existing values in the target."',
  'resource.delete-gone':
    'RFC 9110 §9.3.5: DELETE "requests that the origin server remove the association between the target resource and its current functionality."',
  'resource.refused-unchanged':
    'RFC 9110 §15.5.1: a 400 means the server "cannot or will not process the request", so the item stays as it was.',
  'resource.unknown-id':
    'RFC 9110 §15.5.5: 404 "indicates that the origin server did not find a current representation for the target resource"; the document declares it for the operation.',
  'resource.refused-create':
    'RFC 9110 §15.5.1: a 400 means the server "cannot or will not process the request", so nothing of it is stored.',
  'resource.unique-ids':
    'Interface §2: the id is the "Unique identifier assigned by the service on creation"; the document\'s id property names each item of a collection.',
  'resource.nested-parent':
    'RFC 9110 §15.5.5: 404 "indicates that the origin server did not find a current representation for the target resource"; a nested item\'s resource is under its own parent\'s path.',
  'resource.children-gone':
    'RFC 9110 §9.3.5: DELETE "requests that the origin server remove the association between the target resource and its current functionality"; a child\'s address runs through it.',
  'resource.limit':
    'The document: the list\'s limit parameter, its minimum, maximum and default; the interface §4.1: limit is the "Maximum number of animals to return."',
  'resource.create-echo':
    'RFC 9110 §15.3.2: a 201\'s content "typically describes and links to the resource(s) created"; the document declares the item as the answer.',
  'resource.json-patch':
    'RFC 6902 §4.2: the remove operation "removes the value at the target location"; §5: "if an operation is not successful, evaluation of the JSON Patch document SHOULD terminate and application of the entire patch document SHALL NOT be deemed successful."',
  'resource.put-create':
    'RFC 9110 §9.3.4: "If the target resource does not have a current representation and the PUT successfully creates one, then the origin server MUST inform the user agent by sending a 201 (Created) response."',
  'resource.cleanup':
    'None: a note of what the run created and deleted at its end, and of what it left behind and why (the document has no delete, a refused delete, the request cap).',
  'rate-limit.retry':
    'RFC 6585 §4 and RFC 9110 §10.2.3: a 429 or 503 with Retry-After was waited out: reported, not judged.',
  'suite.error': 'None: the suite itself could not run the case; this is never blamed on the target.',
};

/**
 * What a report's checks rest on: the Petstore interface's sentences (`interface`, on its own document: openapi.yaml
 * and its later versions, which declare its Error) or the judged document's own declarations and the RFCs
 * (`document`, on any other: a document nobody here wrote owes nothing to our interface).
 */
export type CheckBasis = 'interface' | 'document';

/**
 * The basis of the checks whose interface wording names the Petstore interface, for any other document: the
 * OpenAPI sentence the document's declaration takes effect by, or the RFC. Checks that rest on an RFC or on the
 * document already (`resource.*` but two, `server.responds`, notes) keep their one wording.
 */
const documentBasis: Partial<Record<CheckId, string>> = {
  'schema.response':
    'The document: OpenAPI 3.0.3 §4.7.17 and §4.7.11, a response declared for the status (exact code, range, then default) with a media type and schema; the body matches that schema.',
  'status.documented':
    "The document: OpenAPI 3.0.3 §4.7.16, an operation's responses are the codes, ranges and default it declares; a 2xx or 3xx none of them covers is not one of its answers.",
  'content-type.json':
    'The document: OpenAPI 3.0.3 §4.7.17, the response declared for the status names its media types (RFC 9110 §8.3: Content-Type says which was sent; RFC 8259 §8.1: JSON text is UTF-8).',
  'error.shape':
    'The document: the schema it declares for the error\'s status (exact code, range, then default), and none where it declares no content; RFC 9457 §3.1.3: a problem\'s status member "MUST" be the status of the HTTP response.',
  'server.no-5xx':
    'RFC 9110 §15.6: a 5xx says the server failed to fulfil a request; every request the suite sends is one the document describes.',
  'auth.required':
    "The document: OpenAPI 3.0.3 §4.8.30, the operation's security requirement; RFC 9110 §15.5.2 and §11.6.1: a request without valid credentials gets 401.",
  'auth.valid-key':
    'The document: OpenAPI 3.0.3 §4.8.27, its security scheme; the credentials sent as the scheme says are accepted.',
  'input.valid-accepted':
    "The document: listPets' parameters and createPet's body as it declares them; a request within them is served.",
  'input.invalid-rejected':
    "The document: createPet's request schema and the 4xx it declares for a body that breaks it; RFC 9110 §15.5.1.",
  'list.limit': "The document: listPets' limit parameter, the most items a page holds, as far as it bounds it.",
  'list.default-limit': "The document: the default of listPets' limit parameter.",
  'list.status-filter': "The document: listPets' status parameter, named like the property it filters on.",
  'list.no-duplicates': 'The document: a list of items, each named by its id; one listed twice is not such a list.',
  'create.echo': 'RFC 9110 §15.3.2: a 201\'s content "typically describes and links to the resource(s) created".',
  'create.persisted': 'RFC 9110 §15.3.2 and §9.3.1: a created item is there for the reads and lists of its collection.',
  'get.returns-requested':
    'RFC 9110 §9.3.1: GET "requests transfer of a current selected representation for the target resource".',
  'get.not-found':
    'RFC 9110 §15.5.5: 404 "the origin server did not find a current representation for the target resource"; the document declares it.',
  'deprecation.headers':
    'The document marks the operation deprecated (OpenAPI 3.0.3 §4.7.10); RFC 9745 and RFC 8594: reported, not judged.',
  'coverage.operation-status':
    'The document: the responses each operation declares; judged only with --require-coverage.',
  'generated.valid-accepted':
    'The document: OpenAPI 3.0.3 §4.7.12 and §4.7.13, a request within every parameter, body and scheme it declares is served.',
  'generated.invalid-rejected':
    'The document: a body that breaks its request schema is refused with a 4xx (the 400 it declares, where it does); RFC 9110 §15.5.1.',
  'generated.auth-rejected':
    "The document: OpenAPI 3.0.3 §4.8.30, the operation's security requirement; RFC 9110 §15.5.2: 401 without valid credentials.",
  'generated.round-trip': 'RFC 9110 §9.3.1: a created item reads back with every field as sent.',
  'stateful.get': 'RFC 9110 §9.3.1: a read gives the item the sequence created.',
  'stateful.list':
    'The document: a list holds at most its limit, filtered as asked, from the items its collection holds.',
  'stateful.unique-ids': 'The document: its id property names each item of a collection; no two items share one.',
  'stateful.not-found': 'RFC 9110 §15.5.5: 404 for a target resource with no current representation.',
  'resource.unique-ids': 'The document: its id property names each item of a collection; no two items share one.',
  'resource.limit':
    "The document: the list's limit parameter, its minimum, maximum and default, as far as it bounds it.",
};

/** What `check` rests on, in the words of `basis` (the interface's on its own document). */
export function basisOf(check: CheckId, basis: CheckBasis = 'interface'): string {
  return (basis === 'document' ? documentBasis[check] : undefined) ?? checkBasis[check];
}

/** What the judge's own checks assert on any document but the interface's, where their interface wording names it. */
const documentChecks: Partial<Record<CheckId, string>> = {
  'content-type.json':
    'a response the document declares with a JSON body carries one of the media types it declares (parameters allowed) and parses',
  'error.shape':
    'every 4xx/5xx the document declares with content matches the schema it declares; a problem+json status equals the HTTP status',
};

/** What `check` asserts, in the words of `basis`. */
export function describeCheck(check: CheckId, basis: CheckBasis = 'interface'): string {
  return (basis === 'document' ? documentChecks[check] : undefined) ?? checks[check];
}
