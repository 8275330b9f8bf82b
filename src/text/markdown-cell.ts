import { escapeControls } from './excerpt.js';

/** Text for a table cell: one line, HTML and Markdown punctuation escaped. */
export function cell(text: string): string {
  return escapeControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]!~|]/g, '\\$&');
}
