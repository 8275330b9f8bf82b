import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// README and the pages under docs/ read as one text: a claim a test checks may move between them (README is the
// front page, the docs pages hold the rest) and the test follows it.
const root = fileURLToPath(new URL('../..', import.meta.url));
export const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
export const docs = pages.map((page) => readFileSync(join(root, page), 'utf8')).join('\n\n');

/**
 * The text from the line that starts with `start` (a heading, given with or without its #s, or any text) to the next
 * heading of level 3 or less — or of `level` (`##`) or less — after it.
 */
export function section(start: string, level = '###'): string {
  const heading = /^#+ /.test(start) ? start.replace(/^#+ /, '') : undefined;
  const found =
    heading === undefined
      ? docs.indexOf(start)
      : docs.search(new RegExp(`^#{1,6} ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  if (found < 0) throw new Error(`README and docs/ have no "${start}"`);
  const firstLine = docs.indexOf('\n', found);
  const next = docs.slice(firstLine).search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return docs.slice(found, next < 0 ? undefined : firstLine + next);
}

/**
 * An options table's rows by flag: every flag named (in backticks) in a row's first column, with the row's second
 * column, its default. An escaped `\|` inside a cell is not a column break.
 */
export function optionsTable(text: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of text.replaceAll('\\|', '/').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]!.includes('`-')) continue;
    for (const flag of cells[1]!.matchAll(/`(--?[a-zA-Z][a-z-]*)/g)) rows.set(flag[1]!, cells[2]!);
  }
  return rows;
}
