import { checks, type CheckId, type Level } from './check-ids.js';

/** A recorded request a usage finding comes from (a journal entry's, as the journal shows it). */
export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  body?: unknown;
}

/** One difference between the two documents, or one recorded exchange the new document no longer serves. */
export interface Finding {
  check: CheckId;
  level: Level;
  /** `GET /pets/{petId} (getPet)`, when the finding is about one operation. */
  operation?: string;
  /** Where in the old and the new document (JSON pointers); absent on the side that has no such thing. */
  old?: string;
  new?: string;
  /** The documented response status a response finding is about (`200`, `4XX`, `default`). */
  status?: string;
  /** One sentence a person understands. */
  message: string;
  /** A usage finding: the recorded request it comes from (the first of `count`). */
  request?: RecordedRequest;
  /**
   * A usage finding stands for every recorded request with the same check, operation and change: how many there
   * were, the first included. A journal of 300,000 calls of one deprecated operation is one finding of 300,000.
   */
  count?: number;
  /** Up to `MAX_EXAMPLES` of those requests in the journal's order, the first being `request`. */
  examples?: RecordedRequest[];
}

/** A finding at its check's level. */
export function finding(
  check: CheckId,
  message: string,
  where: Omit<Finding, 'check' | 'level' | 'message'> = {},
): Finding {
  return { check, level: checks[check].level, message, ...where };
}
