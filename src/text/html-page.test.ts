import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyButton, filterBar, html, htmlLines, htmlPage } from './html-page.js';

describe('html', () => {
  it.each([
    ['<b onclick="x">', '&lt;b onclick=&quot;x&quot;&gt;'],
    ["it's & done", 'it&#39;s &amp; done'],
    ['a\nb\u202ec\u001b[31m', 'a\\nb\\u202ec\\x1b[31m'],
    [42, '42'],
  ])('%j → %j', (given, want) => {
    expect(html(given)).toBe(want);
  });

  it('keeps line breaks in htmlLines, escaping each line', () => {
    expect(htmlLines('<a>\n<b>')).toBe('&lt;a&gt;\n&lt;b&gt;');
  });
});

describe('htmlPage', () => {
  const page = htmlPage({ title: '<title>', style: 'p { color: red; }', body: '<p>x</p>' });
  const hash = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

  it('allows exactly its own style and script by hash, and nothing else', () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
    expect(policy).toBe(
      `default-src 'none'; style-src '${hash(style)}'; script-src '${hash(script)}'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(style).toContain('p { color: red; }');
  });

  it('escapes the title and names its language', () => {
    expect(page).toContain('<title>&lt;title&gt;</title>');
    expect(page).toContain('<html lang="en">');
  });

  it('labels each filter and escapes its choices', () => {
    const bar = filterBar([{ name: 'check', label: 'Check', choices: ['a"b', ['notRun', 'not run']] }]);
    expect(bar).toContain('<label>Check <select data-filter="check"><option value="">all</option>');
    expect(bar).toContain('<option value="a&quot;b">a&quot;b</option><option value="notRun">not run</option>');
    expect(copyButton('x"y')).toBe('<button type="button" class="copy" data-copy="x&quot;y">Copy</button>');
  });
});
