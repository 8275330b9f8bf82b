// What one request and its answer were, as the runner judges and reports them: apart from send-request.ts so that
// the session (which keeps them) and the sender (which makes them) do not import each other.

/** What was wrong with a body beyond what the document says: reported under `response.bounded`/`content-type.json`. */
export interface BodyProblems {
  /** Longer than --max-body after decompression: reading stopped at the cap. */
  tooLarge?: boolean;
  /** JSON nested deeper than MAX_JSON_DEPTH: not parsed. */
  tooDeep?: boolean;
  /** Not valid UTF-8 (RFC 8259 §8.1 requires it of JSON). */
  invalidUtf8?: boolean;
  /** An unknown Content-Encoding or a compressed stream that does not decompress. */
  encoding?: string;
}

/** One request and what came back, as sent and received: only `excerpt` and `error` (printed as they are) are masked. */
export interface Exchange {
  operation: string;
  method: string;
  url: string;
  /** The path parameters as sent (their text), e.g. `{ petId: '7' }`. */
  pathValues?: Record<string, string>;
  curl: string;
  /** True when the request carried the valid key. */
  validKey: boolean;
  /** Absent when no HTTP answer came (see `error`). */
  status?: number;
  contentType: string | null;
  headers: Record<string, string>;
  /** The body parsed as JSON whatever the Content-Type said (that is judged separately); undefined if not JSON. Dropped once the case is over. */
  body: unknown;
  /** The body as text, as received (at most --max-body). Dropped once the case is over. */
  text: string;
  /** A bounded, escaped, redacted excerpt of the body: what reports show. Kept. */
  excerpt: string;
  /** How many bytes the body had, decompressed (at most --max-body). */
  length: number;
  problems: BodyProblems;
  /** Why no HTTP answer came: a timeout or a network error. */
  error?: string;
  durationMs: number;
  /** The 429/503 answers with Retry-After that were waited out before this answer (a note, never a violation). */
  retried?: { status: number; waitedMs: number }[];
}
