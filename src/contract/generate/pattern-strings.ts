import { fc, type Arbitrary } from './fast-check.js';
import { made, unhonoured, type Generated } from './generated.js';
import { patternRegExp } from './schema-check.js';

/**
 * Strings matching a `pattern` (2020-12 Validation §6.3.3: ECMA-262, unanchored; AJV compiles it with the `u` flag).
 *
 * Random values come from fast-check's `stringMatching`. It takes no lookahead, lookbehind, backreference or `\b`;
 * for such a pattern the fallback is: those parts are dropped, strings are generated for what is left (by
 * `stringMatching` and by the deterministic generator below), and only those the whole pattern matches are kept. If
 * `PROBE_TRIES` seeded tries find none, the pattern is not honoured and the case that needed it is not run, naming
 * `pattern`.
 */
export const PROBE_TRIES = 200;

/** Random strings matching `pattern`, or the keyword not honoured. fast-check must be loaded. */
export function patternArbitrary(pattern: string): Generated<Arbitrary<string>> {
  const regex = patternRegExp(pattern);
  if (!regex)
    return unhonoured('pattern', '', `${JSON.stringify(pattern)} is not a regular expression in Unicode mode`);
  try {
    return made(fc.stringMatching(regex));
  } catch {
    // Below: the fallback for what stringMatching cannot take.
  }
  const stripped = strippedPattern(pattern);
  const found = new Set<string>();
  let candidates: Arbitrary<string> | undefined;
  const strippedRegex = stripped === undefined ? undefined : patternRegExp(stripped);
  if (strippedRegex) {
    try {
      candidates = fc.stringMatching(strippedRegex);
    } catch {
      candidates = undefined;
    }
  }
  let hits = 0;
  if (candidates) {
    for (const text of fc.sample(candidates, { seed: 53, numRuns: PROBE_TRIES }))
      if (regex.test(text)) {
        hits++;
        found.add(text);
      }
  }
  for (let variant = 0; variant < 32; variant++) {
    const text = patternSample(pattern, variant);
    if (text !== undefined) found.add(text);
  }
  if (found.size === 0)
    return unhonoured('pattern', '', `no string matching ${JSON.stringify(pattern)} found in ${PROBE_TRIES} tries`);
  const known = fc.constantFrom(...found);
  // A filter that keeps one try in five or more is cheap; rarer, the strings found stand for the pattern.
  if (candidates && hits * 5 >= PROBE_TRIES)
    return made(
      fc.oneof(
        candidates.filter((text) => regex.test(text)),
        known,
      ),
    );
  return made(known);
}

/** One piece of a parsed pattern. Atoms keep their source text: RegExp itself says which characters they match. */
type Piece =
  | { kind: 'atom'; source: string }
  | { kind: 'empty' }
  | { kind: 'unsupported'; source: string }
  | { kind: 'group'; alternatives: Piece[][]; capture: boolean }
  | { kind: 'repeat'; piece: Piece; min: number; max: number };

/** Characters tried for an atom, the plainest first. */
const CANDIDATES = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...'_-. @:/+#,;=!?*()[]{}$&%~\'"<>|^\\`',
  'é',
  'ß',
  'Ж',
  '中',
  '😀',
  '\t',
];

/**
 * A deterministic string matching `pattern` (the `variant`-th of a few), built without fast-check, or undefined
 * when none is found: for sample bodies and as the pattern fallback's second source.
 */
export function patternSample(pattern: string, variant = 0): string | undefined {
  const regex = patternRegExp(pattern);
  const parsed = regex && parsePattern(pattern);
  if (!regex || !parsed) return undefined;
  for (let attempt = 0; attempt < 24; attempt++) {
    const text = build(parsed, { seed: variant + attempt, step: 0 });
    if (text !== undefined && regex.test(text)) return text;
  }
  return undefined;
}

/** The pattern with lookarounds, `\b`/`\B` and backreferences dropped; undefined when it cannot be parsed. */
export function strippedPattern(pattern: string): string | undefined {
  const parsed = parsePattern(pattern);
  return parsed && render(parsed);
}

function render(alternatives: Piece[][]): string {
  return alternatives.map((sequence) => sequence.map(renderPiece).join('')).join('|');
}

function renderPiece(piece: Piece): string {
  switch (piece.kind) {
    case 'atom':
      return piece.source;
    case 'empty':
    case 'unsupported':
      return '';
    case 'group':
      return `(?:${render(piece.alternatives)})`;
    case 'repeat':
      return `${renderPiece(piece.piece)}{${piece.min},${Number.isFinite(piece.max) ? piece.max : ''}}`;
  }
}

interface Choices {
  seed: number;
  step: number;
}

/** A deterministic choice among `n`: the first on seed 0, others as the seed grows. */
function choose(choices: Choices, n: number): number {
  choices.step++;
  if (n <= 1 || choices.seed === 0) return 0;
  return (choices.seed * 7 + choices.step * 13) % n;
}

function build(alternatives: Piece[][], choices: Choices): string | undefined {
  const sequence = alternatives[choose(choices, alternatives.length)]!;
  let text = '';
  for (const piece of sequence) {
    const part = buildPiece(piece, choices);
    if (part === undefined) return undefined;
    text += part;
  }
  return text;
}

function buildPiece(piece: Piece, choices: Choices): string | undefined {
  switch (piece.kind) {
    case 'empty':
      return '';
    case 'unsupported':
      return undefined;
    case 'atom':
      return atomCharacter(piece.source, choices);
    case 'group':
      return build(piece.alternatives, choices);
    case 'repeat': {
      const spread = Number.isFinite(piece.max) ? piece.max - piece.min : 3;
      const count = piece.min + Math.min(spread, choose(choices, 3));
      let text = '';
      for (let i = 0; i < count; i++) {
        const part = buildPiece(piece.piece, choices);
        if (part === undefined) return undefined;
        text += part;
      }
      return text;
    }
  }
}

const atomTests = new Map<string, RegExp | undefined>();

function atomCharacter(source: string, choices: Choices): string | undefined {
  if (!atomTests.has(source)) {
    let test: RegExp | undefined;
    try {
      test = new RegExp(`^(?:${source})$`, 'u');
    } catch {
      test = undefined;
    }
    atomTests.set(source, test);
  }
  const test = atomTests.get(source);
  if (!test) return undefined;
  const matching = CANDIDATES.filter((c) => test.test(c));
  if (matching.length === 0) {
    // A literal outside the candidates (`ü`, `\u00e9`): the atom's own character, when it is one.
    const literal = source.startsWith('\\') ? undefined : source;
    return literal !== undefined && test.test(literal) ? literal : undefined;
  }
  return matching[choose(choices, matching.length)]!;
}

/** Parses the structure of a Unicode-mode pattern; atoms keep their source. Undefined on a syntax it does not know. */
function parsePattern(pattern: string): Piece[][] | undefined {
  const state = { source: pattern, at: 0 };
  try {
    const alternatives = parseAlternatives(state);
    return state.at === pattern.length ? alternatives : undefined;
  } catch {
    return undefined;
  }
}

interface ParseState {
  source: string;
  at: number;
}

function parseAlternatives(state: ParseState): Piece[][] {
  const alternatives: Piece[][] = [[]];
  while (state.at < state.source.length) {
    const char = state.source[state.at]!;
    if (char === ')') break;
    if (char === '|') {
      state.at++;
      alternatives.push([]);
      continue;
    }
    const piece = parseQuantified(state);
    alternatives[alternatives.length - 1]!.push(piece);
  }
  return alternatives;
}

function parseQuantified(state: ParseState): Piece {
  const piece = parseAtom(state);
  const rest = state.source.slice(state.at);
  const quantifier = /^(?:\*|\+|\?|\{(\d+)(,(\d*))?\})/.exec(rest);
  if (!quantifier) return piece;
  state.at += quantifier[0].length;
  if (state.source[state.at] === '?') state.at++;
  let min = 0;
  let max = Infinity;
  if (quantifier[0] === '+') min = 1;
  else if (quantifier[0] === '?') max = 1;
  else if (quantifier[0] !== '*') {
    min = Number(quantifier[1]);
    max = quantifier[2] === undefined ? min : quantifier[3] ? Number(quantifier[3]) : Infinity;
  }
  if (piece.kind === 'empty') return piece;
  return { kind: 'repeat', piece, min, max };
}

function parseAtom(state: ParseState): Piece {
  const { source } = state;
  const char = source[state.at]!;
  if (char === '^' || char === '$') {
    state.at++;
    return { kind: 'empty' };
  }
  if (char === '(') return parseGroup(state);
  if (char === '[') {
    const end = classEnd(source, state.at);
    const atom = source.slice(state.at, end);
    state.at = end;
    return { kind: 'atom', source: atom };
  }
  if (char === '\\') return parseEscape(state);
  // A surrogate pair is one character in Unicode mode.
  const codePoint = String.fromCodePoint(source.codePointAt(state.at)!);
  state.at += codePoint.length;
  return { kind: 'atom', source: codePoint };
}

function parseGroup(state: ParseState): Piece {
  const { source } = state;
  const head = /^\((\?:|\?=|\?!|\?<=|\?<!|\?<[A-Za-z_$][\w$]*>)?/.exec(source.slice(state.at))!;
  state.at += head[0].length;
  const alternatives = parseAlternatives(state);
  if (source[state.at] !== ')') throw new Error('unclosed group');
  state.at++;
  const kind = head[1];
  if (kind === '?=' || kind === '?!' || kind === '?<=' || kind === '?<!') return { kind: 'empty' };
  return { kind: 'group', alternatives, capture: kind === undefined || kind.startsWith('?<') };
}

function parseEscape(state: ParseState): Piece {
  const rest = state.source.slice(state.at);
  const escape =
    /^\\(?:[pP]\{[^}]*\}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|k<[^>]*>|[1-9]\d*|[\s\S])/u.exec(
      rest,
    )!;
  state.at += escape[0].length;
  const body = escape[0].slice(1);
  if (body === 'b' || body === 'B') return { kind: 'empty' };
  if (/^[1-9]/.test(body) || body.startsWith('k<')) return { kind: 'unsupported', source: escape[0] };
  return { kind: 'atom', source: escape[0] };
}

/** The index just past a character class `[...]` starting at `start` (escapes inside skipped). */
function classEnd(source: string, start: number): number {
  let at = start + 1;
  if (source[at] === '^') at++;
  while (at < source.length && source[at] !== ']') at += source[at] === '\\' ? 2 : 1;
  if (at >= source.length) throw new Error('unclosed class');
  return at + 1;
}
