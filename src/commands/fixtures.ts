import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { loadSpec } from '../openapi/load-spec.js';
import { petsFromHar } from '../proxy/fixtures-from-har.js';
import { stringifyJson } from '../json/stringify-json.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { InputFileError, UsageError } from '../input-errors.js';

export const fixturesHelp = `Usage: petstore-kit fixtures --from-har FILE [--out FILE] [--spec FILE]

Turns the pets seen in a recording (petstore-kit proxy --record FILE, or any HAR 1.2 file) into a fixtures file the
mock accepts: every pet in a 2xx JSON answer, checked against the document's Pet schema, one per id (the latest
answer wins), sorted by id.

Options:
  --from-har FILE  the recording to read
  --out FILE       where to write the fixtures (default: standard output)
  --spec FILE      the OpenAPI 3 document whose Pet schema applies (default: the bundled openapi.yaml)
  -h, --help       show this help
`;

/** `petstore-kit fixtures --from-har FILE [--out FILE]`. */
export async function runFixtures(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      'from-har': { type: 'string' },
      out: { type: 'string' },
      spec: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(fixturesHelp);
    return 0;
  }
  const file = values['from-har'];
  if (file === undefined)
    throw new UsageError('fixtures needs --from-har FILE (a recording made with "petstore-kit proxy --record FILE")');
  const spec = await loadSpec(values.spec ?? undefined);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InputFileError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const found = petsFromHar(text, spec, file);
  // One pet a line: diffs of a fixtures file stay readable.
  const json =
    found.pets.length === 0 ? '[]\n' : `[\n  ${found.pets.map((pet) => stringifyJson(pet)).join(',\n  ')}\n]\n`;
  if (values.out === undefined) process.stdout.write(json);
  else await writeFileAtomic(values.out, json);
  const skipped = found.rejected
    ? `; ${found.rejected} object${found.rejected === 1 ? '' : 's'} with an id broke the Pet schema and ${found.rejected === 1 ? 'was' : 'were'} left out`
    : '';
  process.stderr.write(
    `petstore-kit: ${found.pets.length} pet${found.pets.length === 1 ? '' : 's'} from ${found.answersWithPets} of ${found.entries} recorded exchanges${values.out ? ` written to ${values.out}` : ''}${skipped}\n`,
  );
  return 0;
}
