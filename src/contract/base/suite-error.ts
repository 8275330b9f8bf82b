/** The suite cannot go on with a case: reported under the check id `suite.error`, never blamed on the target. */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}

/** The run's request cap (--max-requests) is spent: a fixed case cannot go on; a generated example ends untried. */
export class RequestCapReached extends SuiteError {
  constructor(maxRequests: number) {
    super(`the request cap of ${maxRequests} (--max-requests) was reached`);
    this.name = 'RequestCapReached';
  }
}
