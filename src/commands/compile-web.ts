import { parseArgs } from 'node:util';
import { basename } from 'node:path';
import { InputFileError, UsageError } from '../input-errors.js';
import { packageVersion } from '../package-version.js';
import { writeFileAtomic } from '../fs/write-file-atomic.js';
import { compileWebModule, declarationsOf, type CompiledModule } from '../compile-web/compile-web-module.js';

export const compileWebHelp = `Usage: petstore-kit compile-web --spec FILE --out FILE.js [--fixtures FILE]

Compiles an OpenAPI document for the browser build of petstore-kit/msw and petstore-kit/fetch, which parses no YAML
and compiles no schema in the page: one ES module holding the document dereferenced, the seeds of its collections,
its resource model, and every validator the mock needs as AJV standalone code. Import it whole and pass it as
"compiled" (in a page and in Node alike):
  import * as compiled from './petstore.compiled.js';
  const handlers = petstoreHandlers({ compiled, baseUrl: 'https://petstore.example.com/v1' });
The module imports petstore-kit/web-formats (the formats and AJV helpers its validators call). Operations that fit
no resource role are answered 501 there (the server mock answers them with prism-http, which a page does not carry);
the command lists them. Exit 0: written; 2: the document is not valid OpenAPI, a seed breaks its schema, or a bad
flag (nothing written).

Options:
  --spec FILE      the OpenAPI 3 document, a file or an http(s) URL (default: the bundled openapi.yaml)
  --fixtures FILE  the seeds, as "petstore-kit mock --fixtures" reads them: FILE seeds the collection named like it
                   (pets.json: pets), <collection>.json beside it each other one (store/orders.json), else the
                   document's examples (default: the bundled fixtures/pets.json)
  --out FILE       where to write the module (required; an existing file is replaced whole); its TypeScript
                   declarations go beside it (FILE.js: FILE.d.ts)
  -h, --help       show this help
`;

/** `petstore-kit compile-web --spec FILE --out FILE.js`: a document → an ES module for the browser build. */
export async function runCompileWeb(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      spec: { type: 'string' },
      fixtures: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(compileWebHelp);
    return 0;
  }
  const out = values.out;
  if (out === undefined)
    throw new UsageError(
      'compile-web needs --out FILE.js (where to write the module); see "petstore-kit compile-web --help"',
    );
  const writtenBy = `petstore-kit compile-web ${packageVersion()}`;
  let compiled: CompiledModule;
  try {
    compiled = await compileWebModule({
      spec: values.spec,
      fixtures: values.fixtures,
      formatsFrom: 'petstore-kit/web-formats',
      writtenBy,
    });
  } catch (error) {
    // A seed that breaks its schema is as much "could not compile" as a document that is not OpenAPI: exit 2.
    if (!(error instanceof InputFileError)) throw error;
    process.stderr.write(`petstore-kit: ${error.message}\n`);
    return 2;
  }
  await writeFileAtomic(out, compiled.code);
  // FILE.js → FILE.d.ts, FILE.mjs → FILE.d.mts: what TypeScript looks for beside a JavaScript module.
  const declarations = out.replace(/\.(m?)js$/, '.d.$1ts');
  if (declarations !== out) await writeFileAtomic(declarations, declarationsOf(writtenBy));
  const seeds = Object.entries(compiled.seeds).map(([name, count]) => `${name} ${count}`);
  process.stdout.write(
    `compiled ${compiled.spec.file ?? 'the document'} into ${out} (${(Buffer.byteLength(compiled.code) / 1024).toFixed(1)} KiB; seeds: ${seeds.join(', ') || 'none'})\n`,
  );
  if (compiled.stateless.length > 0)
    process.stdout.write(
      `answered 501 in a page (they fit no resource role; the server mock answers them with prism-http):\n${compiled.stateless.map((o) => `  ${o.method.toUpperCase()} ${o.path} (${o.operationId})\n`).join('')}`,
    );
  process.stdout.write(`use it: import * as compiled from './${basename(out)}'; petstoreHandlers({ compiled })\n`);
  return 0;
}
