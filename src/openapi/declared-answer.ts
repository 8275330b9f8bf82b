import { findResponse, type Operation } from './operations.js';

/** What came back, as far as telling a declared answer needs: the status, the media type and the body's text. */
export interface AnswerShape {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * Whether an answer is one the operation declares: its status is declared (exact code, range, then `default`:
 * OpenAPI 3.0.3 §4.7.16) and its body is as that response says, of one of its media types, or none at all where it
 * declares no content. The body's schema is for the suite to judge; this only tells a documented answer (a 200
 * with no content, a 301 the document lists) from a page that is not the API.
 * @example isDeclaredAnswer(ping, { status: 200, contentType: null, text: '' }) // true where ping's 200 has no content
 */
export function isDeclaredAnswer(operation: Operation, answer: AnswerShape): boolean {
  const declared = findResponse(operation, answer.status);
  if (!declared) return false;
  if (declared.mediaTypes.length === 0) return answer.text.trim() === '';
  const essence = answer.contentType?.split(';')[0]!.trim().toLowerCase();
  return essence !== undefined && declared.mediaTypes.some((type) => mediaRangeMatches(type.toLowerCase(), essence));
}

/** RFC 9110 §12.5.1 media ranges as OpenAPI 3.0.3 §4.7.10 allows them as keys: `text/plain`, `text/*`, `*\/*`. */
function mediaRangeMatches(range: string, essence: string): boolean {
  if (range === '*/*' || range === essence) return true;
  return range.endsWith('/*') && essence.startsWith(range.slice(0, -1));
}

/**
 * The answers a valid request to `operation` is expected to get, in words: "a 2xx" where it declares one, else the
 * statuses it declares (an operation that only redirects, or only refuses, answers that way by the document).
 * @example expectedAnswers(legacy) // "301 (the only status legacyThings declares)"
 */
export function expectedAnswers(operation: Operation): string {
  const statuses = declaredStatuses(operation);
  if (statuses.length === 0 || statuses.some((status) => status.startsWith('2'))) return 'a 2xx';
  return `${statuses.join(' or ')} (${statuses.length === 1 ? 'the only status' : 'the statuses'} ${operation.id} declares)`;
}

/** Whether `status` answers a valid request to `operation`: a 2xx, or one it declares where it declares no 2xx. */
export function answersAsDeclared(operation: Operation, status: number): boolean {
  const statuses = declaredStatuses(operation);
  if (statuses.length === 0 || statuses.some((declared) => declared.startsWith('2')))
    return status >= 200 && status < 300;
  return findResponse(operation, status) !== undefined;
}

/** The statuses an operation declares, as it writes them (`200`, `2XX`, `default`). */
function declaredStatuses(operation: Operation): string[] {
  return [...operation.responses.keys()].map((key) => (key === 'DEFAULT' ? 'default' : key));
}
