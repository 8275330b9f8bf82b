import { judgeObservedResponse } from '../../openapi/judge-observed.js';
import type { Violation } from '../../openapi/describe-errors.js';
import type { Spec } from '../../openapi/load-spec.js';
import { findResponse, isJsonMediaType, type Operation } from '../../openapi/operations.js';
import { isInterfaceDocument } from '../../openapi/interface-words.js';
import type { CheckId } from '../base/check-ids.js';
import type { Exchange } from '../base/exchange.js';
import type { Failure } from '../base/case-result.js';
import { describeResponse } from './describe-response.js';
import { judgeAnswerBasics, NOT_UTF8_MESSAGE, type Unbounded } from '../../openapi/judge-answer-basics.js';
import { MAX_RESPONSE_JSON_DEPTH as MAX_JSON_DEPTH } from '../../json/json-depth.js';

export interface Judgement {
  /** Checks that looked at this exchange (passed unless also in `failures`). */
  evaluated: CheckId[];
  failures: Failure[];
  /**
   * Whether behavioural checks may judge this exchange. A response that broke the document, a 5xx, no answer at
   * all or a valid key rejected is reported once, under its own id, instead of again by every check reading it.
   */
  usable: boolean;
}

const MAX_DETAILS = 5;

/**
 * The checks every response gets, whatever the case: an answer came, no 5xx, and `checkResponse` (the same
 * judge the mock's own tests use) finds the status, media type and body as the document says.
 */
export function judgeResponse(spec: Spec, exchange: Exchange, maxBody = Infinity): Judgement {
  const failures: Failure[] = [];
  const fail = (check: CheckId, expected: string, actual: string, details?: Violation[]) =>
    failures.push(failure(check, exchange, expected, actual, details));
  if (exchange.status === undefined) {
    fail('server.responds', `an HTTP answer within the timeout`, exchange.error ?? 'no answer');
    return { evaluated: ['server.responds'], failures, usable: false };
  }
  const status = exchange.status;
  const operation = spec.operationById.get(exchange.operation);
  const ours = isInterfaceDocument(spec.document);
  const evaluated: CheckId[] = ['server.responds', 'response.bounded', 'server.no-5xx', 'content-type.json'];
  // A body is judged where a schema says what it is: always on the interface's document (§7's Error for any
  // error), on another only where the document declares one for the status. Nothing judged is no ✓.
  if (ours || (operation && findResponse(operation, status)?.validate))
    evaluated.push(status >= 400 ? 'error.shape' : 'schema.response');
  const basics = judgeAnswerBasics({ status, contentType: exchange.contentType, ...exchange.problems }, maxBody);
  if (basics.unbounded) {
    // A body the runner would not read whole (or cannot decode) is not judged further: one failure says why.
    fail(
      'response.bounded',
      `a body of at most ${maxBody} bytes after decompression, nested at most ${MAX_JSON_DEPTH} deep`,
      boundsProblem(basics.unbounded),
    );
    return { evaluated, failures, usable: false };
  }
  if (basics.notUtf8Json) {
    fail(
      'content-type.json',
      ours ? 'Content-Type application/json and a JSON body' : 'UTF-8 JSON text',
      NOT_UTF8_MESSAGE,
    );
    return { evaluated, failures, usable: false };
  }
  if (status < 400) evaluated.push('status.documented');
  if (basics.serverError) fail('server.no-5xx', 'no 5xx for any request the suite sends', describeResponse(exchange));
  for (const { check, violations: found, message } of judgeObservedResponse(spec, operation, {
    status,
    contentType: exchange.contentType,
    body: exchange.body,
    text: exchange.text,
  })) {
    const schemaErrors =
      check === 'schema.response' || check === 'error.shape' ? found.filter((v) => v.schemaPath) : [];
    fail(
      check,
      expectationOf(check, ours, operation, exchange.operation, status),
      message,
      schemaErrors.slice(0, MAX_DETAILS),
    );
  }
  if (
    exchange.operation === 'getPet' &&
    status === 200 &&
    failures.length === 0 &&
    exchange.pathValues?.petId !== undefined
  )
    evaluated.push('get.returns-requested');
  const askedFor = evaluated.includes('get.returns-requested') ? otherPet(exchange) : undefined;
  if (askedFor) {
    // §4.3: getPet's 200 is "the requested animal": a pet with another id is a wrong answer, whatever the id asked.
    fail(
      'get.returns-requested',
      `the pet with id ${exchange.pathValues!.petId} (§4.3: 200 is the requested animal)`,
      askedFor,
    );
  }
  if (exchange.validKey) evaluated.push('auth.valid-key');
  if (exchange.validKey && (status === 401 || status === 403)) {
    fail('auth.valid-key', 'the valid key to be accepted', describeResponse(exchange));
  }
  return { evaluated, failures, usable: failures.length === 0 };
}

/** The runner's wording of why a body was not judged: what to raise for one too large, that one too deep was not parsed. */
function boundsProblem({ reason, message }: Unbounded): string {
  if (reason === 'too-large') return `${message} (reading stopped there; raise --max-body if this is expected)`;
  if (reason === 'too-deep') return `${message} (not parsed)`;
  return message;
}

/** For a getPet 200: what it answered instead of the pet asked for (another id), or undefined. */
function otherPet(exchange: Exchange): string | undefined {
  const asked = exchange.pathValues?.petId;
  const id = (exchange.body as { id?: unknown } | null)?.id;
  if (asked === undefined || !/^-?\d+$/.test(asked) || (typeof id !== 'number' && typeof id !== 'bigint'))
    return undefined;
  if (typeof id === 'number' && !Number.isSafeInteger(id)) return undefined;
  return BigInt(asked) === BigInt(id) ? undefined : `the pet with id ${String(id)}`;
}

/**
 * What a check expected of an answer, in the words of the document judged: the interface's (its Error, its
 * `application/json`) on the interface's own document, else what the operation declares for the status.
 */
function expectationOf(
  check: CheckId,
  ours: boolean,
  operation: Operation | undefined,
  id: string,
  status: number,
): string {
  const declared = operation ? declaredAs(operation, status) : undefined;
  switch (check) {
    case 'status.documented':
      return `a status documented for ${id}`;
    case 'content-type.json': {
      if (ours) return 'Content-Type application/json and a JSON body';
      const types = (operation ? findResponse(operation, status)?.mediaTypes : undefined)?.filter(isJsonMediaType);
      return `Content-Type ${types?.join(' or ') || 'of JSON'} and a JSON body, as ${id} declares for ${declared ?? status}`;
    }
    case 'error.shape':
      if (ours) return `an Error {code, message, status} with status ${status}`;
      return `a body matching the schema ${id} declares for ${declared ?? status}`;
    default:
      return `a body matching the schema of ${id} ${status}`;
  }
}

/** The key under which `operation` declares `status` (`404`, `4XX`, `default`), or undefined when it does not. */
export function declaredAs(operation: Operation, status: number): string | undefined {
  const documented = findResponse(operation, status);
  const key = [...operation.responses].find(([, response]) => response === documented)?.[0];
  return key === 'DEFAULT' ? 'default' : key;
}

/** A failure of `check` observed on `exchange`. */
export function failure(
  check: CheckId,
  exchange: Exchange,
  expected: string,
  actual: string,
  details?: Violation[],
): Failure {
  const result: Failure = { check, operation: exchange.operation, expected, actual, request: exchange.curl };
  if (exchange.status !== undefined) result.status = exchange.status;
  result.response = {
    ...(exchange.status !== undefined ? { status: exchange.status } : {}),
    contentType: exchange.contentType,
    body: exchange.excerpt,
    ...(exchange.error ? { error: exchange.error } : {}),
  };
  if (details?.length)
    result.schemaErrors = details.map(({ path, rule, message, schemaPath }) => ({
      path,
      rule,
      message,
      ...(schemaPath ? { schemaPath } : {}),
    }));
  return result;
}
