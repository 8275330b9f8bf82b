import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** Lines of a document around the place a JSON pointer names, numbered as in the file. */
export interface Excerpt {
  /** The line number of `lines[0]`, from 1. */
  firstLine: number;
  /** The line the pointer names (where its key is written). */
  line: number;
  lines: string[];
}

/** Lines shown before the place, and the most shown in all: a finding's excerpt reads at a glance. */
export const CONTEXT_LINES = 2;
export const MAX_EXCERPT_LINES = 16;

/**
 * The lines of a YAML or JSON document (JSON is YAML) where a JSON pointer (`#/paths/~1pets/get`, RFC 6901 as a URI
 * fragment) is written: from the key's line, two lines before it, to the end of its value, at most 16 lines.
 * Undefined when the text does not hold that place: a document bundled from several files (the pointer names the
 * bundle), or a text that is not the one judged.
 * @example excerptAt('a:\n  b: 1\n', '#/a/b') // { firstLine: 1, line: 2, lines: ['a:', '  b: 1'] }
 */
export function excerptAt(text: string, pointer: string): Excerpt | undefined {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter, keepSourceTokens: false, uniqueKeys: false });
  if (document.errors.length > 0) return undefined;
  let node: unknown = document.contents;
  let keyStart: number | undefined = node ? (node as Node).range?.[0] : undefined;
  for (const segment of segments(pointer)) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (!pair) return undefined;
      keyStart = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(segment)) {
      node = node.items[Number(segment)];
      keyStart = (node as Node | undefined)?.range?.[0];
    } else return undefined;
    if (node === undefined || node === null) return undefined;
  }
  const end = (node as Node).range?.[1];
  if (keyStart === undefined || end === undefined) return undefined;
  const all = text.split(/\r?\n/);
  const line = counter.linePos(keyStart).line;
  // A value ends where the next one starts: its last line is the one before the end offset's, unless it ends mid-line.
  const endPos = counter.linePos(Math.max(keyStart, end - 1)).line;
  const firstLine = Math.max(1, line - CONTEXT_LINES);
  const lastLine = Math.min(all.length, endPos, firstLine + MAX_EXCERPT_LINES - 1);
  return { firstLine, line, lines: all.slice(firstLine - 1, Math.max(lastLine, line)) };
}

function segments(pointer: string): string[] {
  const path = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (path === '') return [];
  return path
    .split('/')
    .slice(1)
    .map((raw) => decoded(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A pointer written by swagger-parser is percent-encoded; a `%` that encodes nothing is taken as written. */
function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
