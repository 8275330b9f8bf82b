import { MAX_RESPONSE_JSON_DEPTH } from '../json/json-depth.js';

/** What the reader of an answer found about its body, before any of the document's rules are applied. */
export interface AnswerFacts {
  status: number;
  contentType: string | null;
  /** Longer than the bound after decompression: reading stopped there. */
  tooLarge?: boolean | undefined;
  /** Why the body could not be read whole: an unknown Content-Encoding, a stream that does not decompress, a cut. */
  encoding?: string | undefined;
  /** JSON nested deeper than MAX_RESPONSE_JSON_DEPTH. */
  tooDeep?: boolean | undefined;
  /** The bytes are not valid UTF-8. */
  invalidUtf8?: boolean | undefined;
}

/** Why a body is not judged further (`response.bounded`), and one line saying so. */
export interface Unbounded {
  reason: 'too-large' | 'encoding' | 'too-deep';
  message: string;
}

/** What the checks every answer gets found: the contract runner and the proxy each word and add their own. */
export interface AnswerBasics {
  /** Set when the body was not read whole or is too deep to parse: `response.bounded` fails, nothing else is judged. */
  unbounded?: Unbounded;
  /** A JSON Content-Type over bytes that are not UTF-8: `content-type.json` fails (RFC 8259 §8.1). */
  notUtf8Json: boolean;
  /** A 5xx: `server.no-5xx` fails (the interface declares none). */
  serverError: boolean;
}

/** The one wording of a JSON body that is not UTF-8, in the runner's reports and the proxy's alike. */
export const NOT_UTF8_MESSAGE = 'the body is not valid UTF-8 (RFC 8259 §8.1 requires UTF-8)';

/**
 * The checks the contract runner's judge and the proxy make before the document's rules: a body read whole and
 * within its bounds (a body that did not decode says nothing of its depth, so that comes first), UTF-8 under a
 * JSON media type, no 5xx. `maxBody` is the bound the caller read with, for the message.
 * @example judgeAnswerBasics({ status: 503, contentType: 'application/json' }, 4096) // { notUtf8Json: false, serverError: true }
 */
export function judgeAnswerBasics(answer: AnswerFacts, maxBody: number): AnswerBasics {
  const unbounded = unboundedOf(answer, maxBody);
  return {
    ...(unbounded ? { unbounded } : {}),
    notUtf8Json: answer.invalidUtf8 === true && /json/i.test(answer.contentType ?? ''),
    serverError: answer.status >= 500,
  };
}

function unboundedOf(answer: AnswerFacts, maxBody: number): Unbounded | undefined {
  if (answer.tooLarge) return { reason: 'too-large', message: `a body longer than ${maxBody} bytes` };
  if (answer.encoding) return { reason: 'encoding', message: answer.encoding };
  if (answer.tooDeep)
    return { reason: 'too-deep', message: `JSON nested deeper than ${MAX_RESPONSE_JSON_DEPTH} levels` };
  return undefined;
}
