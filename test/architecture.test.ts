import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// "The house": the layering README's architecture describes, held by a test rather than by care.
const src = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import of a file (type-only ones included: they tie the modules as much), as source paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((m) =>
    resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')),
  );
}

const graph = new Map(sources(src).map((file) => [file, importsOf(file)]));

/** What a file loads when it runs: its imports without the type-only ones (erased at build), relative or not. */
function runtimeImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(import|export)\s(?!type\s)[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gms)].map(
    (m) => m[2] ?? m[3]!,
  );
}
const shown = (file: string) => relative(src, file);

/**
 * Folders of one parent that import each other, as `parent: a ↔ b` (a before b by name): every import between two
 * sibling folders, at any depth below them, counts for the pair.
 */
function* twoWayFolderPairs(): Generator<string> {
  const edges = new Set<string>();
  for (const [file, imports] of graph) {
    for (const target of imports) {
      if (!graph.has(target)) continue;
      const from = shown(file).split('/');
      const to = shown(target).split('/');
      let common = 0;
      while (common < Math.min(from.length, to.length) - 1 && from[common] === to[common]) common++;
      // Both sides must be folders below the common parent (not a file beside them).
      if (common < from.length - 1 && common < to.length - 1 && from[common] !== to[common])
        edges.add(`${from.slice(0, common).join('/') || 'src'}: ${from[common]} → ${to[common]}`);
    }
  }
  for (const edge of [...edges].sort()) {
    const [parent, pair] = edge.split(': ') as [string, string];
    const [a, b] = pair.split(' → ') as [string, string];
    if (a < b && edges.has(`${parent}: ${b} → ${a}`)) yield `${parent}: ${a} ↔ ${b}`;
  }
}

describe('the source tree', () => {
  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map(shown).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('runs the imports between two folders of one parent one way only, in every folder of src/', () => {
    expect([...twoWayFolderPairs()]).toEqual([]);
  });

  it.each(['mock', 'contract'])('keeps %s/base/ the ground floor: it imports no other folder of its parent', (top) => {
    const wrong = [...graph].flatMap(([file, imports]) =>
      shown(file).startsWith(`${top}/base/`)
        ? imports
            .filter((i) => shown(i).startsWith(`${top}/`) && !shown(i).startsWith(`${top}/base/`))
            .map((i) => `${shown(file)} → ${shown(i)}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });

  it.each(['mock', 'contract'])(
    "is drawn in docs/architecture.md as it is: %s/'s folders bottom-up, each importing only folders listed before it",
    (top) => {
      const page = readFileSync(fileURLToPath(new URL('../docs/architecture.md', import.meta.url)), 'utf8');
      const block = new RegExp(`^ {2}${top}/ .*\\n((?: {4}.*\\n)+)`, 'm').exec(page)?.[1];
      expect(block, `docs/architecture.md's tree has a ${top}/ entry with its folders below it`).toBeDefined();
      const level = new Map<string, number>();
      for (const [row, names] of [...block!.matchAll(/^ {4}((?:[\w-]+\/(?:, )?)+)/gm)].map(
        (m, row) => [row, m[1]!] as const,
      )) {
        for (const name of names.split(', ')) level.set(name.replace(/\/$/, ''), row);
      }
      const folders = readdirSync(join(src, top)).filter((name) => statSync(join(src, top, name)).isDirectory());
      expect([...level.keys()].sort()).toEqual(folders.sort());
      const inside = new RegExp(`^${top}/([^/]+)/`);
      const upward = [...graph].flatMap(([file, imports]) => {
        const from = inside.exec(shown(file))?.[1];
        return imports.flatMap((target) => {
          const to = inside.exec(shown(target))?.[1];
          return from && to && from !== to && level.get(from)! <= level.get(to)!
            ? [`${shown(file)} → ${shown(target)}`]
            : [];
        });
      });
      expect(upward).toEqual([]);
    },
  );

  it("keeps the proxy off the contract runner's internals: what both use lives below both", () => {
    const reached = [...graph].flatMap(([file, imports]) =>
      shown(file).startsWith('proxy/')
        ? imports.filter((i) => shown(i).startsWith('contract/')).map((i) => `${shown(file)} → ${shown(i)}`)
        : [],
    );
    expect(reached).toEqual([]);
  });

  it('keeps the proxy and the mock free of the command-line layer', () => {
    const wrong = [...graph].flatMap(([file, imports]) =>
      /^(proxy|mock|contract|fetch|msw)\//.test(shown(file))
        ? imports.filter((i) => shown(i).startsWith('commands/')).map((i) => `${shown(file)} → ${shown(i)}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });

  it('keeps the portable core portable: what the browser build (src/web) runs imports no Node module and no package but msw', () => {
    const reached = new Set<string>();
    const wrong: string[] = [];
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const specifier of runtimeImportsOf(file)) {
        if (specifier.startsWith('.')) {
          const next = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
          // compiled-spec.js is written by the build (scripts/build-web.mjs); its declaration stands in for it.
          if (graph.has(next)) visit(next);
          else if (!next.endsWith('web/compiled-spec.ts')) wrong.push(`${shown(file)} → ${specifier} (no such source)`);
        } else if (specifier !== 'msw') wrong.push(`${shown(file)} → ${specifier}`);
      }
    };
    for (const entry of ['web/msw.ts', 'web/fetch.ts']) visit(join(src, entry));
    expect(wrong).toEqual([]);
    // petstore-kit/web-formats, which a compiled document's validators import: AJV's formats and two helpers of its
    // standalone code (plain modules; the build bundles the entry for a page and fails on a Node module), nothing else.
    const formats = join(src, 'web/web-formats.ts');
    const helpers = ['ajv-formats/dist/formats.js', 'ajv/dist/runtime/ucs2length.js', 'ajv/dist/runtime/equal.js'];
    const outside = runtimeImportsOf(formats).filter((specifier) => !specifier.startsWith('.'));
    expect(outside.sort()).toEqual([...helpers].sort());
    for (const specifier of runtimeImportsOf(formats).filter((s) => s.startsWith('.')))
      visit(resolve(dirname(formats), specifier.replace(/\.js$/, '.ts')));
    expect(wrong).toEqual([]);
    // It is the mock's core, not a copy: the front door, the stages, the store and the document model are in it.
    for (const part of [
      'mock/dispatch.ts',
      'mock/front-door/pipeline.ts',
      'mock/stages/authenticate.ts',
      'mock/store/memory.ts',
      'mock/document/document-model.ts',
      'mock/mock-core.ts',
      'mock/runtime.ts',
    ]) {
      expect([...reached].map(shown)).toContain(part);
    }
  });

  it('has one atomic file writer (a temporary file renamed over its target)', () => {
    const writers = [...graph.keys()].filter(
      (file) => /\brename(Sync)?\(/.test(readFileSync(file, 'utf8')) && /\.tmp`/.test(readFileSync(file, 'utf8')),
    );
    expect(writers.map(shown)).toEqual(['fs/write-file-atomic.ts']);
  });

  it('points the benchmarks at modules that exist (they import dist/, built from src/)', () => {
    const bench = fileURLToPath(new URL('../bench', import.meta.url));
    const missing = readdirSync(bench)
      .filter((name) => name.endsWith('.mjs'))
      .flatMap((name) =>
        [...readFileSync(join(bench, name), 'utf8').matchAll(/from '\.\.\/dist\/([^']+)\.js'/g)].map(
          (m) => [name, m[1]!] as const,
        ),
      )
      .filter(([, module]) => !existsSync(join(src, `${module}.ts`)))
      .map(([name, module]) => `bench/${name} → dist/${module}.js`);
    expect(missing).toEqual([]);
  });
});
