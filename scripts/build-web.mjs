// Build step for the browser: (1) compiles openapi.yaml (src/compile-web/compile-web-module.ts, what
// `petstore-kit compile-web` runs: the dereferenced document, the checked seeds, the resource model and the validators
// as AJV standalone code) to dist/web/compiled-spec.js, so a page never parses YAML or compiles a schema; (2) bundles
// the browser entries (dist/web/msw.js, dist/web/fetch.js, and dist/web/web-formats.js; msw itself left out)
// as a bundler would, minified, and fails the build if they reach a `node:` module, use Node's globals, or weigh
// more than the budget (min+gzip). The figures go to dist/web/size.json, which docs/in-process.md quotes (a test
// holds it to them).
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { rolldown } from 'rolldown';
import { compileWebModule } from '../dist/compile-web/compile-web-module.js';

/**
 * The most the browser build of `petstore-kit/msw` may weigh, minified and gzipped, without msw itself. The general
 * handlers by role, merge and JSON Patch and the store of collections cost about 5 KiB over v1's three fixed
 * handlers; the resource model is built here, not in the page (docs/decisions.md). Errors in the document's words
 * (src/mock/base/error-template.ts, issue 52) cost 2.7 KiB more; every security scheme (issue 52) 1.4 KiB on every
 * page (the document's security model, the redaction of apiKey headers, query parameters and cookies, the
 * challenges of a forced 401), the checks themselves, 1.7 KiB, loaded only for a document with a scheme other than
 * HTTP bearer: 30 → 35. Request bodies by media type (the matching of a declared type, 0.5 KiB; their readers, 2.8
 * KiB, load only for a document with a body other than JSON) and ids a client names (0.5 KiB): 35 → 36
 * (docs/decisions.md; issue 52 leaves bringing it back down open: the errors' templates could load only for a
 * document whose errors differ from the interface's). Answers that keep their schema (examples checked, stored items
 * completed; the completer itself loads only for a document whose items may lack a member): 0.2 KiB, 36 → 37.
 */
export const BUDGET_KB = 37;

const web = new URL('../dist/web/', import.meta.url);
mkdirSync(web, { recursive: true });

// (1) The package's document, compiled by the code `petstore-kit compile-web` runs (one writer of such modules); it
// imports its formats from the same entry a compiled module of a team's own document does (web-formats.js).
const compiled = await compileWebModule({ formatsFrom: './web-formats.js', writtenBy: 'scripts/build-web.mjs' });
writeFileSync(new URL('compiled-spec.js', web), compiled.code);

// (2) The browser entries as a page's bundler sees them.
const nodeModules = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Entries bundled for a page, minified; throws when they reach a Node module or use Node's globals. */
async function bundleForBrowser(input) {
  const reached = [];
  const bundle = await rolldown({
    input,
    platform: 'browser',
    external: [/^msw(\/|$)/],
    logLevel: 'silent',
    plugins: [
      {
        name: 'no-node',
        resolveId(source, importer) {
          if (source.startsWith('node:') || nodeModules.has(source)) {
            reached.push(
              `${source} (from ${importer?.replace(fileURLToPath(new URL('../', import.meta.url)), '') ?? '?'})`,
            );
            return { id: source, external: true };
          }
          return null;
        },
      },
    ],
  });
  const minified = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  // Modules are resolved while the bundle is generated, so the plugin's list is complete only now.
  if (reached.length > 0)
    throw new Error(`build-web: the browser build reaches Node modules: ${[...new Set(reached)].join(', ')}`);
  for (const chunk of minified.output) {
    if (chunk.type !== 'chunk') continue;
    // Node's globals are undefined in a page (minified: no comments left to match); `globalThis.Buffer` (utf8.ts's
    // feature test) is allowed.
    const global = chunk.code.match(/(?<![.\w$'"`])(Buffer|process|require)\s*[.(]/);
    if (global)
      throw new Error(
        `build-web: ${chunk.fileName} uses Node's ${global[1]} (…${chunk.code.slice(Math.max(0, global.index - 80), global.index + 40)}…)`,
      );
  }
  return minified;
}

const minified = await bundleForBrowser({
  msw: fileURLToPath(new URL('msw.js', web)),
  fetch: fileURLToPath(new URL('fetch.js', web)),
});
// The entry a compiled module imports (petstore-kit/web-formats), bundled on its own: held to the same rules, and
// weighed apart, since a page without a compiled module of its own never loads it.
const formats = await bundleForBrowser({ 'web-formats': fileURLToPath(new URL('web-formats.js', web)) });
const weigh = (entry, { output } = minified) => {
  // An entry's weight: its chunk and every chunk it imports (the core they share counts for each).
  const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !chunks.has(name)) return;
    seen.add(name);
    for (const imported of chunks.get(name).imports) visit(imported);
  };
  visit([...chunks.values()].find((c) => c.isEntry && c.name === entry).fileName);
  const text = [...seen].map((name) => chunks.get(name).code).join('\n');
  return { minBytes: Buffer.byteLength(text), gzipBytes: gzipSync(text, { level: 9 }).length };
};
/**
 * What an entry loads only when a document needs it (a dynamic import, document-model.ts: the checks of security
 * schemes other than HTTP bearer, `authorize`; the readers of bodies other than JSON, `body-readers`): the chunks
 * reached by the dynamic imports of the module named `lazy` from the entry's static closure, less what the entry
 * already weighs. A page serving the package's document never loads them.
 */
const weighLazy = (entry, lazyName, { output } = minified) => {
  const chunks = new Map(output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
  const closure = (names) => {
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !chunks.has(name)) return;
      seen.add(name);
      for (const imported of chunks.get(name).imports) visit(imported);
    };
    names.forEach(visit);
    return seen;
  };
  const eager = closure([[...chunks.values()].find((c) => c.isEntry && c.name === entry).fileName]);
  const dynamic = [...eager]
    .flatMap((name) => chunks.get(name).dynamicImports)
    .filter((n) => chunks.get(n)?.name === lazyName);
  const lazy = [...closure(dynamic)].filter((n) => !eager.has(n));
  const text = lazy.map((name) => chunks.get(name).code).join('\n');
  return { minBytes: Buffer.byteLength(text), gzipBytes: text ? gzipSync(text, { level: 9 }).length : 0 };
};
const size = {
  budgetKb: BUDGET_KB,
  msw: weigh('msw'),
  fetch: weigh('fetch'),
  webFormats: weigh('web-formats', formats),
  mswLoadedWhenNeeded: weighLazy('msw', 'authorize'),
  mswBodyReaders: weighLazy('msw', 'body-readers'),
};
writeFileSync(new URL('size.json', web), `${JSON.stringify(size, null, 2)}\n`);
const kb = (bytes) => (bytes / 1024).toFixed(1);
const line = `browser build: petstore-kit/msw ${kb(size.msw.gzipBytes)} KiB min+gzip (${kb(size.msw.minBytes)} KiB minified), petstore-kit/fetch ${kb(size.fetch.gzipBytes)} KiB; budget ${BUDGET_KB} KiB (petstore-kit/web-formats, for a compiled document: ${kb(size.webFormats.gzipBytes)} KiB; loaded only for a document with security schemes other than HTTP bearer: ${kb(size.mswLoadedWhenNeeded.gzipBytes)} KiB, with request bodies other than JSON: ${kb(size.mswBodyReaders.gzipBytes)} KiB)`;
if (size.msw.gzipBytes > BUDGET_KB * 1024 || size.fetch.gzipBytes > BUDGET_KB * 1024)
  throw new Error(`build-web: over budget: ${line}`);
console.log(line);
