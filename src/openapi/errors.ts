/** A spec or fixture file that cannot be used; its message names the file and what is wrong, on one line. */
export class SpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecError';
  }
}
