import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Issue 22, "the house": the layering README's architecture describes, held by a test rather than by care.
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
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
}

const graph = new Map(sources(src).map((file) => [file, importsOf(file)]));
const shown = (file: string) => relative(src, file);

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

  it('keeps the proxy and the mock free of the command-line layer', () => {
    const wrong = [...graph].flatMap(([file, imports]) => (/^(proxy|mock|contract|fetch|msw)\//.test(shown(file)) ? imports.filter((i) => shown(i).startsWith('commands/')).map((i) => `${shown(file)} → ${shown(i)}`) : []));
    expect(wrong).toEqual([]);
  });

  it('has one atomic file writer (a temporary file renamed over its target)', () => {
    const writers = [...graph.keys()].filter((file) => /\brename(Sync)?\(/.test(readFileSync(file, 'utf8')) && /\.tmp`/.test(readFileSync(file, 'utf8')));
    expect(writers.map(shown)).toEqual(['fs/write-file-atomic.ts']);
  });
});
