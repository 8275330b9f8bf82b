/** The most characters of a target's text a report shows in one place. */
export const EXCERPT_LENGTH = 200;

// C0 controls, DEL, C1 controls, line/paragraph separators, bidi marks, overrides and isolates, BOM.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const UNSAFE_OR_BACKSLASH = /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Whether `text` holds a character escapeControls would rewrite (a report cannot show it as it is). */
export function hasControls(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

function escapeChar(char: string): string {
  switch (char) {
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      const code = char.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
}

/**
 * Target-supplied text made safe to print on one line of a terminal, a CI log, Markdown or XML: every control
 * character (C0, DEL, C1), line and paragraph separator and bidi control is shown as an escape (`\n`, `\x1b`,
 * `\u202e`) and a backslash as `\\`, so nothing the target sends can start a line (`::error ::`), colour or move
 * the cursor, or reorder what is shown.
 * @example escapeText('a\n::error ::x') // 'a\\n::error ::x'
 */
export function escapeText(text: string): string {
  return text.replace(UNSAFE_OR_BACKSLASH, escapeChar);
}

/**
 * As `escapeText` but leaving backslashes alone, so that it can be applied to every string of a report, again and
 * again: a curl command keeps its shell quoting and an excerpt escaped once is not escaped twice.
 */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * A bounded, escaped excerpt of target-supplied text: the first `max` characters (never splitting a surrogate
 * pair), with `…` and the full length when cut. Redact the whole text before calling this.
 * @example excerpt('x'.repeat(500), 10) // 'xxxxxxxxxx… (500 characters)'
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
  if (text.length <= max) return escapeText(text);
  let cut = text.slice(0, max);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  // A slice shares the whole body's memory in V8 (a sliced string): copy it, so that an excerpt kept for the
  // report does not keep a body of megabytes alive with it.
  return `${copy(escapeText(cut))}… (${text.length} characters)`;
}

function copy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
