import { readFile } from 'node:fs/promises';
import { InputFileError } from '../input-errors.js';
import { parseJson } from '../json/parse-json.js';

/**
 * Reads and parses (with parseJson: int64 digits kept) a JSON file the mock starts from (fixtures, a state file); any failure is a one-line InputFileError
 * naming the file. With `missingOk`, a file that does not exist gives undefined instead.
 */
export async function readJsonFile(file: string, { missingOk = false } = {}): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (missingOk && code === 'ENOENT') return undefined;
    throw new InputFileError(`${file}: cannot be read (${code ?? String(error)})`);
  }
  try {
    return parseJson(text);
  } catch (error) {
    throw new InputFileError(`${file}: is not valid JSON (${(error as Error).message})`);
  }
}
