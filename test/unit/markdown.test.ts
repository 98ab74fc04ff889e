/**
 * core/common/markdown.ts: program text through mdText, mdCode and mdBlock, rendered by marked (the
 * renderer of VS Code's hovers), reads back exactly as written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { marked } from 'marked';
import { mdBlock, mdCode, mdText } from '../../core/common/markdown';

const html = (md: string) => marked.parse(md, { async: false });

test('mdText: emphasis, links, images, HTML, entities, tables, headings and list markers come out as written', () => {
  const cases: [string, string][] = [
    ['y*VECTOR_WIDTH:y*VECTOR_WIDTH', '<p>y*VECTOR_WIDTH:y*VECTOR_WIDTH</p>\n'],
    ['x*y-1 and a*b*c', '<p>x*y-1 and a*b*c</p>\n'],
    ['(broadcast *)', '<p>(broadcast *)</p>\n'],
    ['_w_ __x__ ~~s~~', '<p>_w_ __x__ ~~s~~</p>\n'],
    ['fns[i](x) ![a](b) [r][0]', '<p>fns[i](x) ![a](b) [r][0]</p>\n'],
    ['<b>bold</b> &amp; req->in', '<p>&lt;b&gt;bold&lt;/b&gt; &amp;amp; req-&gt;in</p>\n'],
    ['# not a heading', '<p># not a heading</p>\n'],
    ['- not a list', '<p>- not a list</p>\n'],
    ['12. not a list', '<p>12. not a list</p>\n'],
    ['a `tick` b', '<p>a `tick` b</p>\n'],
    ['back\\slash', '<p>back\\slash</p>\n'],
  ];
  for (const [text, want] of cases) assert.equal(html(mdText(text)), want, text);
  // text without special characters is left alone
  assert.equal(mdText('in_ptr[0] 0x1f (12 bytes)'), 'in_ptr[0] 0x1f (12 bytes)');
});

test('mdCode and mdBlock: code that holds backticks and fences stays code', () => {
  assert.equal(mdCode('a*b'), '`a*b`');
  assert.equal(html(mdCode('x `y` z')), '<p><code>x `y` z</code></p>\n');
  assert.equal(html(mdCode('`edge`')), '<p><code>`edge`</code></p>\n');
  assert.equal(html(mdBlock('a*b\n```\n_c_')), '<pre><code>a*b\n```\n_c_\n</code></pre>\n');
});
