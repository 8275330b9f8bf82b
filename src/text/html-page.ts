import { createHash } from 'node:crypto';
import { escapeControls } from './excerpt.js';

/**
 * Text for HTML, as element content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` as references, and
 * control and bidi characters shown as escapes (`\n`, `\u202e`), so that a target's text can neither add markup nor
 * reorder what is shown.
 * @example html('<b onclick="x">') // '&lt;b onclick=&quot;x&quot;&gt;'
 */
export function html(text: string | number): string {
  return escapeControls(String(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** As `html`, keeping line breaks: for a block of several lines (a script, a document excerpt) inside `<pre>`. */
export function htmlLines(text: string): string {
  return text.split('\n').map(html).join('\n');
}

/** What a report page is made of; `body` is HTML already escaped by its maker. */
export interface HtmlPage {
  title: string;
  /** Page-specific CSS, added after the shared style. */
  style?: string;
  body: string;
}

/**
 * One self-contained page: no URL to load anything from (no script, style, font or image outside the file), so it
 * opens from `file://`, as a CI artifact and offline. Its Content-Security-Policy says so to the browser too
 * (`default-src 'none'`), and allows only this page's own style and script by their hashes: a target's text that
 * slipped through escaping still could not run or load anything.
 */
export function htmlPage(page: HtmlPage): string {
  const style = `${BASE_STYLE}${page.style ?? ''}`;
  const policy = [
    "default-src 'none'",
    `style-src '${sha256(style)}'`,
    `script-src '${sha256(PAGE_SCRIPT)}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${html(page.title)}</title>
<style>${style}</style>
</head>
<body>
${page.body}
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/**
 * A filter bar: one labelled `<select>` per field (keyboard operable as the platform makes it), acting on every
 * element with `data-filterable` by its `data-<field>` attribute: one value (an operation label may hold spaces) or
 * several separated by spaces (check ids). `fields` maps a field
 * to its label and choices (a value, or a value and its label); the choice "all" is the empty value.
 */
export function filterBar(
  fields: { name: string; label: string; choices: (string | [value: string, label: string])[] }[],
): string {
  const selects = fields.map(
    (field) =>
      `<label>${html(field.label)} <select data-filter="${html(field.name)}"><option value="">all</option>${field.choices
        .map((choice): [string, string] => (typeof choice === 'string' ? [choice, choice] : choice))
        .map(([value, label]) => `<option value="${html(value)}">${html(label)}</option>`)
        .join('')}</select></label>`,
  );
  return `<form class="filters" role="search" aria-label="Filter the report">${selects.join(' ')} <output data-filter-count aria-live="polite"></output></form>`;
}

/** A button that copies the text of the element with `id` (a curl line, a script) to the clipboard. */
export function copyButton(id: string, label = 'Copy'): string {
  return `<button type="button" class="copy" data-copy="${html(id)}">${html(label)}</button>`;
}

// The one script of every page: the filters and the copy buttons. Without it (scripts off) the whole report is shown.
const PAGE_SCRIPT = `(() => {
  const selects = [...document.querySelectorAll('select[data-filter]')];
  const items = [...document.querySelectorAll('[data-filterable]')];
  const count = document.querySelector('[data-filter-count]');
  function apply() {
    const wanted = selects.filter((s) => s.value !== '').map((s) => [s.dataset.filter, s.value]);
    let shown = 0;
    for (const item of items) {
      const keep = wanted.every(([name, value]) => {
        const values = item.getAttribute('data-' + name) || '';
        return values === value || values.split(' ').includes(value);
      });
      item.hidden = !keep;
      if (keep && item.hasAttribute('data-counted')) shown++;
    }
    if (count) count.textContent = wanted.length ? shown + ' shown' : '';
  }
  for (const select of selects) select.addEventListener('change', apply);
  document.addEventListener('click', (event) => {
    const button = event.target.closest ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = source.textContent;
    const done = () => { button.textContent = 'Copied'; setTimeout(() => { button.textContent = 'Copy'; }, 1500); };
    const fallback = () => {
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      try { document.execCommand('copy'); done(); } finally { area.remove(); }
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  });
})();`;

const BASE_STYLE = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --soft: #f6f8fa;
  --pass: #116329; --pass-bg: #dafbe1; --fail: #a40e26; --fail-bg: #ffebe9; --warn: #7d4e00; --warn-bg: #fff8c5;
  --info: #0550ae; --info-bg: #ddf4ff; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 78rem; padding: 1.5rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
code, pre { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--soft); border: 1px solid var(--line); padding: .6rem .8rem; overflow-x: auto; white-space: pre-wrap;
  word-break: break-all; margin: .3rem 0; }
table { border-collapse: collapse; margin: .4rem 0; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.verdict { display: inline-block; padding: .35rem .8rem; border-radius: 6px; font-weight: 600; margin: .3rem 0 .8rem; }
.verdict.pass { background: var(--pass-bg); color: var(--pass); }
.verdict.fail { background: var(--fail-bg); color: var(--fail); }
.verdict.warn { background: var(--warn-bg); color: var(--warn); }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 4px; font-size: 13px; font-weight: 600; white-space: nowrap; }
.passed { background: var(--pass-bg); color: var(--pass); }
.failed, .breaking { background: var(--fail-bg); color: var(--fail); }
.notRun, .warning { background: var(--warn-bg); color: var(--warn); }
.skipped, .info, .note { background: var(--info-bg); color: var(--info); }
.filters { position: sticky; top: 0; background: var(--bg); padding: .5rem 0; border-bottom: 1px solid var(--line); z-index: 1; }
.filters label { margin-right: 1rem; }
select, button { font: inherit; padding: .15rem .4rem; }
button.copy { float: right; margin-left: .5rem; }
:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
.muted { color: var(--muted); }
section.group { border: 1px solid var(--line); border-radius: 6px; padding: .2rem .9rem .6rem; margin: .6rem 0; }
[hidden] { display: none !important; }
`;
