/**
 * Whether the upstream answers, as the last request found: one line when it goes away (the first failure after an
 * answer, or at start) and one when it comes back, never one per request.
 */
export class UpstreamHealth {
  #state: 'unknown' | 'up' | 'down' = 'unknown';
  readonly #say: (line: string) => void;
  readonly #upstream: string;
  readonly #fallback: boolean;

  constructor(upstream: string, fallback: boolean, say: (line: string) => void) {
    this.#upstream = upstream;
    this.#fallback = fallback;
    this.#say = say;
  }

  get state(): 'unknown' | 'up' | 'down' {
    return this.#state;
  }

  answered(): void {
    if (this.#state === 'down') this.#say(`upstream ${this.#upstream} answers again; forwarding to it`);
    this.#state = 'up';
  }

  failed(reason: string): void {
    if (this.#state !== 'down') {
      this.#say(
        `upstream ${this.#upstream} is unreachable (${reason}); ${this.#fallback ? 'the embedded mock answers until it is back' : 'answering 502 until it is back (--fallback none)'}`,
      );
    }
    this.#state = 'down';
  }
}
