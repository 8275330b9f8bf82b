import type { CheckId } from './check-ids.js';

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
