/**
 * Hovers are Markdown: program text in them must reach the user as written. Each hover of
 * test/fixtures/lsp/markdown/ is rendered with marked (the renderer of VS Code's hovers) and its visible
 * text compared with the program's own text — `y*VECTOR_WIDTH:y*VECTOR_WIDTH+7`, `x*y-1`, `(broadcast *)`,
 * `md::_w_`, `job->in_ptr` — while code spans and blocks stay code. Uses the built server (`npm run build`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { marked } from 'marked';
import { HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { TransferPreviewRequest } from '../../core/protocol/lspExt';
import { LspClient, PCORE, posOf, ROOT, TPROG } from './lspClient';

const DIR = 'test/fixtures/lsp/markdown';
const MD_M = readFileSync(`${ROOT}/${DIR}/md.m`, 'utf8');
const MD_P = readFileSync(`${ROOT}/${DIR}/md.p`, 'utf8');

/** What the user reads: the HTML marked makes of `md`, without tags (a line break as a new line), entities decoded. */
function shown(md: string): { html: string; text: string } {
  const html = marked.parse(md, { async: false });
  const text = html
    .replace(/<br>\n?/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return { html, text };
}

describe('hover Markdown shows program text as written', () => {
  let lsp: LspClient;
  let m: string;
  let p: string;
  before(async () => {
    lsp = await LspClient.start();
    m = await lsp.open(`${DIR}/md.m`, TPROG);
    p = await lsp.open(`${DIR}/md.p`, PCORE);
  });
  after(async () => {
    await lsp?.shutdown();
  });

  const hover = async (uri: string, text: string, line: number, needle: string, delta = 0): Promise<string> => {
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(text, line, needle, delta) });
    assert.ok(h, `a hover on ${needle}`);
    const c = h.contents as MarkupContent;
    assert.equal(c.kind, 'markdown');
    return c.value;
  };

  it('a transfer: ranges with *, a name with underscores, -> and the broadcast mark; the element table stays a code block', async () => {
    const md = await hover(m, MD_M, 14, '<=');
    // the Markdown itself: each special character of the program escaped once
    assert.ok(md.includes('iteration (outermost first): job-\\>in_ptr[0] y\\*VECTOR_WIDTH:y\\*VECTOR_WIDTH+7  \n'), md);
    assert.ok(md.includes('iteration (outermost first): PCORE 0 (broadcast \\*), THREAD 0:15, \\_w\\_ 0:7  \n'), md);
    const { html, text } = shown(md);
    assert.ok(!/<em>|<strong>[^<]*VECTOR/.test(html), `no emphasis made of the program's * and _: ${html}`);
    assert.ok(text.includes('iteration (outermost first): job->in_ptr[0] y*VECTOR_WIDTH:y*VECTOR_WIDTH+7\n'), text);
    assert.ok(text.includes('iteration (outermost first): PCORE 0 (broadcast *), THREAD 0:15, _w_ 0:7\n'), text);
    assert.ok(text.includes('variable: private vint16 md::_w_ — 8 words (shape [8]) at word offset 0\n'), text);
    // the table is code: unescaped in the Markdown, shown verbatim
    assert.ok(md.includes('```\nPCORE  THREAD  _w_  <=  MEM\n'), md);
    assert.ok(/<pre><code>PCORE {2}THREAD {2}_w_ {2}&lt;= {2}MEM\n/.test(html), html);
    assert.ok(text.includes('*      0       1    <=  job->in_ptr[y*VECTOR_WIDTH+1]\n'), text);
  });

  it('a MEM term whose index is x*y-1 and whose address is (uint32_t)&out_buf[0]', async () => {
    const md = await hover(m, MD_M, 15, 'MEM', 1);
    assert.equal(
      md,
      '**MEM** external memory (byte-addressed)  \ndimensions: 4096  \n' +
        'iteration (outermost first): (uint32_t)\\&out_buf[0\\][0] x\\*y-1  \nelements: ? of INT16 (2 bytes each)',
    );
    const { html, text } = shown(md);
    assert.ok(!html.includes('<em>'), html);
    assert.equal(
      text,
      'MEM external memory (byte-addressed)\ndimensions: 4096\n' +
        'iteration (outermost first): (uint32_t)&out_buf[0][0] x*y-1\nelements: ? of INT16 (2 bytes each)\n',
    );
  });

  it('a class member: its name in a code span, its declaration as text', async () => {
    const md = await hover(m, MD_M, 14, 'md::_w_', 5);
    assert.ok(md.startsWith('`md::_w_` — private vint16 md::\\_w\\_ — 8 words (shape [8]) at word offset 0 (md.p)  \n'), md);
    const { html, text } = shown(md);
    assert.ok(html.startsWith('<p><code>md::_w_</code> — private vint16 md::_w_ — 8 words (shape [8]) at word offset 0 (md.p)<br>'), html);
    assert.ok(text.includes('(broadcast *)'), text);
  });

  it('a C variable: its declaration stays a code span', async () => {
    const md = await hover(m, MD_M, 15, 'x*y-1');
    assert.equal(md, '`int x = y + 2` (value known only at run time)');
    assert.equal(shown(md).html, '<p><code>int x = y + 2</code> (value known only at run time)</p>\n');
  });

  it('the PCORE program: a variable and a kernel', async () => {
    const v = await hover(p, MD_P, 4, '_w_', 1);
    assert.equal(v, 'private vint16 md::\\_w\\_ — 8 words (shape [8]) at word offset 0');
    assert.equal(shown(v).text, 'private vint16 md::_w_ — 8 words (shape [8]) at word offset 0\n');
    const k = await hover(p, MD_P, 3, 'twice');
    assert.equal(shown(k).html, '<p>kernel <code>md::twice</code>()</p>\n');
  });

  it('the transfer preview (a Markdown document too) shows the broadcast mark and the ranges as written', async () => {
    const r = await lsp.conn.sendRequest(TransferPreviewRequest, { uri: m, function: 'part', rows: 2 });
    assert.equal(r.transfers, 2);
    const { html, text } = shown(r.markdown);
    assert.ok(html.startsWith('<h1>Transfers of <code>part</code></h1>'), html);
    assert.ok(text.includes('PCORE 0 (broadcast *), THREAD 0:15, _w_ 0:7'), text);
    assert.ok(text.includes('job->in_ptr[0] y*VECTOR_WIDTH:y*VECTOR_WIDTH+7'), text);
    assert.ok(text.includes('(uint32_t)&out_buf[0][0] x*y-1'), text);
    // the statement itself is a code block, verbatim
    assert.ok(r.markdown.includes('```\n> DTYPE(INT16)MEM((uint32_t)&out_buf[0],4096)[x*y-1] <= INT16(5);\n```'), r.markdown);
  });
});
