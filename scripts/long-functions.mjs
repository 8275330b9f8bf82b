// Lists the functions in src/ longer than a limit (80 lines by default), longest first: a function that long does
// more than one thing a reader can hold, and its steps deserve names. Run `node scripts/long-functions.mjs [limit]`;
// test/function-length.test.ts holds src/ to it. Every function counts, nested ones too, each with its whole body.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 80;

const root = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** What a reader would call a function: its own name, the variable or property it is assigned to, or `(anonymous)`. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name
  )
    return parent.name.getText();
  return '(anonymous)';
}

/** Every function of `src/` over `limit` lines, as `{ file, line, name, lines }` (file relative to src/). */
export function longFunctions(limit = MAX_FUNCTION_LINES) {
  const found = [];
  for (const path of sources(root)) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        const lines = last - first + 1;
        if (lines > limit) found.push({ file: relative(root, path), line: first + 1, name: nameOf(node), lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = Number(process.argv[2] ?? MAX_FUNCTION_LINES);
  const found = longFunctions(limit);
  for (const { file, line, name, lines } of found)
    console.log(`${String(lines).padStart(4)}  src/${file}:${line}  ${name}`);
  console.log(`${found.length} function${found.length === 1 ? '' : 's'} over ${limit} lines`);
}
