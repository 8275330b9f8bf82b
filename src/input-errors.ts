/**
 * What the user handed petstore-kit cannot be used: one class per kind of input, each with a one-line message that
 * names the input and what is wrong. They are not ApiErrors (no request caused them); the CLI prints the message
 * and exits 2 for a usage error, 1 for the others.
 */
export abstract class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The OpenAPI document: unreadable, invalid, or asking for what the mock cannot do (a non-bearer scheme). */
export class DocumentError extends InputError {}

/** A data file or its contents: fixtures, a `--state` file, or a snapshot in that format (`restore`, `PUT /__admin/state`). */
export class InputFileError extends InputError {}

/** How a command or function was called: a bad flag, config key, option or API key. */
export class UsageError extends InputError {}
