/** The suite cannot go on with a case: reported under the check id `suite.error`, never blamed on the target. */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}
