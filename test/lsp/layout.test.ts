/**
 * Layout specs (`.tlayout`) through a real LSP client over stdio: diagnostics with ranges (including
 * `.csfbin` files the server reads relative to the spec), hover on probes with every intermediate,
 * inlay hints, completion, code lenses and formatting. Expected values are the worked examples of
 * research/layouts.md (T1, T5, S1) and formats.md part A, computed by hand in the comments.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRequest,
  CompletionRequest,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  DiagnosticSeverity,
  DocumentFormattingRequest,
  HoverRequest,
  InlayHintRequest,
  type CodeLens,
  type CompletionItem,
  type Diagnostic,
  type InlayHint,
  type MarkupContent,
  type Range,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { LspClient, posOf, ROOT } from './lspClient';

const LAYOUT = 'tensor-layout';

function textAt(text: string, range: Range): string {
  const lines = text.split('\n');
  assert.equal(range.start.line, range.end.line, 'single-line range');
  return lines[range.start.line].slice(range.start.character, range.end.character);
}

const label = (h: InlayHint) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''));

// A spec next to A.csfbin ([[0, 1.5, 0], [-2, 0, 3.25]]: ptr [0, 1, 3], index [1, 0, 2]).
const SPEC = `target wormhole_b0
tensor a: bfloat16[64, 64] = tt(layout=tile, buffer=dram) at 0x100000
probe a[40, 17]
tensor h: bfloat16[1024, 64] = tt(layout=tile, memory=height_sharded, shard=[128, 64], grid=(0,0)-(7,0)) at 0x10000
probe h[300, 50]
tensor s: float32[2, 3] = fibers(file="A.csfbin", main=10, meta=0)
probe s[1, 2]
`;

const SPYRE = `target spyre
tensor act: float16[128, 256, 512] = spyre(device_size=[256, 8, 128, 64], dim_map=[1, 2, 0, 2])
probe act[5, 7, 300]
`;

describe('layout specs over LSP', () => {
  let c: LspClient;
  let dir: string;
  const A = readFileSync(join(ROOT, 'examples/layouts/A.csfbin'));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tl-layout-lsp-'));
    copyFileSync(join(ROOT, 'examples/layouts/A.csfbin'), join(dir, 'A.csfbin'));
    // V6: the header says 3 entries (24 bytes from offset 16) but the file ends at byte 20
    writeFileSync(join(dir, 'short.csfbin'), A.subarray(0, 20));
    // V10: the first fiber pointer (offset 44) is 1 instead of 0
    const p = Buffer.from(A);
    p.writeUInt32LE(1, 44);
    writeFileSync(join(dir, 'ptr.csfbin'), p);
    c = await LspClient.start();
  });

  after(async () => {
    await c?.shutdown();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const openSpec = async (name: string, text: string) => c.open(join(dir, name), LAYOUT, text);

  it('a valid spec has no errors; hover on a probe shows the address and every intermediate (T1, T5, sparse)', async () => {
    const uri = await openSpec('ok.tlayout', SPEC);
    const d = await c.diagnostics(uri);
    assert.deepEqual(
      d.diagnostics.filter((x) => x.severity === DiagnosticSeverity.Error).map((x) => x.message),
      [],
    );

    // T1: (40,17) → tile (1,0) = page 2 → bank 2 (2 mod 12), face 1, element 256 + 8·16 + 1 = 385 → byte 770
    const h1 = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(SPEC, 2, '40') });
    const m1 = (h1!.contents as MarkupContent).value;
    assert.match(m1, /DRAM bank 2, address `0x100302`/); // 0x100000 + 770
    assert.match(m1, /face 1 \(16×16\), in face \(8, 1\)/);
    assert.match(m1, /\| element in tile \| 385 \|/);
    assert.match(m1, /\| bank \| 2 = page 2 mod 12 \|/);

    // T5: (300,50) → tile (9,1) = page 19 → core (2,0), local page 3 → 3·2048 + (256 + 12·16 + 2)·2 = 7044
    const h2 = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(SPEC, 4, '300') });
    const m2 = (h2!.contents as MarkupContent).value;
    assert.match(m2, /core \(2,0\), address `0x11b84`/); // 0x10000 + 7044 = 0x11b84
    assert.match(m2, /\| local page \| 3 /);
    assert.match(m2, /\| offset in core \| 7,044 /);

    // sparse from the file: fiber 1 = entries 1..2, index 2 is entry 2 → main entry 10 + 2 = 12 → byte 96;
    // its pointer is metadata word t + 1 + n + fiber = 0 + 1 + 2 + 1 = 4
    const h3 = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(SPEC, 6, '1, 2') });
    const m3 = (h3!.contents as MarkupContent).value;
    assert.match(m3, /address `0x60` \(96\)/);
    assert.match(m3, /metadata word 4 = t \+ 1 \+ 2 \+ 1/);
    assert.match(m3, /main 11\.\.12 \(2 entries\)/);
  });

  it('inlay hints: tensor summaries (bytes, pages, banks/cores, entries of the file) and probe addresses', async () => {
    const uri = await openSpec('ok.tlayout', SPEC);
    const hints = await c.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } },
    });
    const byLine = new Map<number, string[]>();
    for (const h of hints ?? []) byLine.set(h.position.line, [...(byLine.get(h.position.line) ?? []), label(h)]);
    // T1: 2×2 tiles of 2048 B = 4 pages over 12 banks, every bank reserves 2048 B → 24 KiB
    assert.deepEqual(byLine.get(1), ['24 KiB · 4 pages over 12 banks · 2,048 B/bank · 0 % padding']);
    assert.deepEqual(byLine.get(2), ['→ DRAM bank 2: 0x100302']);
    // T5: 64 pages, 8 per core, 8 cores × 16 KiB
    assert.deepEqual(byLine.get(3), ['128 KiB · 8 shards on 8 cores · 16 KiB/core · 0 % padding']);
    assert.deepEqual(byLine.get(4), ['→ core (2,0): 0x11b84']);
    // the real file: 3 stored entries of 6 elements, 3·8 B main, 2 + 2 + 2 metadata words
    assert.deepEqual(byLine.get(5), ['3 entries (50.0 % dense) · 24 B main + 6 metadata words']);
    assert.deepEqual(byLine.get(6), ['→ 0x60']);
    // the hint sits at the end of the tensor's line
    const h = (hints ?? []).find((x) => x.position.line === 1)!;
    assert.equal(h.position.character, SPEC.split('\n')[1].length);
  });

  it('Spyre S1: hover and inlay of the seed example (device (7,4,5,44), stick 7,685, byte 983,768)', async () => {
    const uri = await openSpec('spyre.tlayout', SPYRE);
    const d = await c.diagnostics(uri);
    assert.deepEqual(
      d.diagnostics.filter((x) => x.severity === DiagnosticSeverity.Error),
      [],
    );
    const hv = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(SPYRE, 2, '5, 7') });
    const md = (hv!.contents as MarkupContent).value;
    assert.match(md, /\| device coordinate \| \(7, 4, 5, 44\) \|/);
    assert.match(md, /\| stick \| 7,685 /);
    assert.match(md, /slot 44, byte 88/);
    assert.match(md, /address `0xf02d8` \(983,768\)/);
    const hints = await c.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    });
    // 128·256·512 fp16 = 32 MiB in 262,144 sticks of 64 elements, no padding
    assert.deepEqual((hints ?? []).map(label), ['32 MiB · 262,144 sticks · 0 % padding', '→ 0xf02d8']);
  });

  it('bad .csfbin references are errors on the file="…" string saying what is wrong', async () => {
    const text = [
      'tensor m: float32[2, 3] = fibers(file="missing.csfbin")',
      'tensor t: float32[2, 3] = fibers(file="short.csfbin")',
      'tensor p: float32[2, 3] = fibers(file="ptr.csfbin")',
      'tensor w: float32[3, 3] = fibers(file="A.csfbin")',
      'tensor k: float32[2, 3] = fibers(file="A.csfbin", meta=100)',
      '',
    ].join('\n');
    const uri = await openSpec('bad.tlayout', text);
    const d = await c.diagnostics(uri);
    const errs = d.diagnostics.filter((x) => x.severity === DiagnosticSeverity.Error);
    const on = (line: number): Diagnostic => {
      const x = errs.find((e) => e.range.start.line === line);
      assert.ok(x, `an error on line ${line + 1}: ${JSON.stringify(errs.map((e) => [e.range.start.line, e.message]))}`);
      return x;
    };
    const m = on(0);
    assert.equal(textAt(text, m.range), '"missing.csfbin"');
    assert.equal(m.code, 'CSF009');
    assert.equal(m.message, `missing.csfbin: file not found: ${join(dir, 'missing.csfbin')}`);
    const t = on(1);
    assert.equal(textAt(text, t.range), '"short.csfbin"');
    assert.match(String(t.message), /^short\.csfbin: invalid \.csfbin \(rule V6, byte offset 16\): /);
    const p = on(2);
    assert.equal(textAt(text, p.range), '"ptr.csfbin"');
    assert.match(String(p.message), /^ptr\.csfbin: invalid \.csfbin \(rule V10, byte offset 44\): /);
    // a valid file whose shape disagrees with the declaration: the error is on the shape, with the fix
    const w = on(3);
    assert.equal(w.code, 'CSF010');
    assert.equal(textAt(text, w.range), '[3, 3]');
    assert.equal(w.message, "the file's shape [2, 3] differs from the declared [3, 3]");
    // line 5 is valid (the file, placed at metadata word 100)
    assert.equal(errs.filter((e) => e.range.start.line === 4).length, 0);
    assert.equal(errs.length, 4, JSON.stringify(errs.map((e) => e.message)));
  });

  it('after the file is fixed on disk and the spec edited, the error goes away', async () => {
    const text = 'tensor t: float32[2, 3] = fibers(file="late.csfbin")\nprobe t[0, 1]\n';
    const uri = await openSpec('late.tlayout', text);
    const d1 = await c.diagnostics(uri);
    assert.match(d1.diagnostics.map((x) => x.message).join('\n'), /late\.csfbin: file not found/);
    writeFileSync(join(dir, 'late.csfbin'), A);
    await c.change(uri, [{ text: text + '\n' }]);
    const d2 = await c.diagnostics(uri);
    assert.deepEqual(
      d2.diagnostics.filter((x) => x.severity === DiagnosticSeverity.Error).map((x) => x.message),
      [],
    );
    const hints = await c.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
    });
    // (0, 1): fiber 0, index 1 = entry 0 at main 0 → byte 0
    assert.deepEqual((hints ?? []).map(label), ['3 entries (50.0 % dense) · 24 B main + 6 metadata words', '→ 0x0']);
  });

  it('a .csfbin changed on disk (workspace/didChangeWatchedFiles) re-checks the open specs without an edit', async () => {
    const text = 'tensor t: float32[2, 3] = fibers(file="watched.csfbin")\n';
    const uri = await openSpec('watched.tlayout', text);
    const d1 = await c.diagnostics(uri);
    assert.match(d1.diagnostics.map((x) => x.message).join('\n'), /watched\.csfbin: file not found/);
    const before = c.published.get(uri)?.length ?? 0;
    writeFileSync(join(dir, 'watched.csfbin'), A);
    await c.conn.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: pathToFileURL(join(dir, 'watched.csfbin')).href, type: FileChangeType.Created }],
    });
    const d2 = await c.diagnostics(uri, (p) => (c.published.get(uri)?.indexOf(p) ?? 0) >= before);
    assert.deepEqual(
      d2.diagnostics.map((x) => x.message),
      [],
    );
  });

  it('code lens "Show layout map" on each tensor with a layout, running tensorLens.openLayoutMap(uri, name)', async () => {
    const text = SPEC + 'tensor bad: float32[2, 3] = fibers(file="missing.csfbin")\n';
    const uri = await openSpec('lens.tlayout', text);
    const lenses: CodeLens[] = (await c.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, textAt(text, l.range), l.command?.title, l.command?.command, l.command?.arguments]),
      [
        [1, 'a', 'Show layout map', 'tensorLens.openLayoutMap', [uri, 'a']],
        [3, 'h', 'Show layout map', 'tensorLens.openLayoutMap', [uri, 'h']],
        [5, 's', 'Show layout map', 'tensorLens.openLayoutMap', [uri, 's']],
      ],
    );
  });

  it('completion offers layouts, dtypes and keywords where they fit', async () => {
    const text = 'target wormhole_b0\ntensor a: bfloat16[64, 64] = tt(layout=ti)\n\n';
    const uri = await openSpec('complete.tlayout', text);
    const labels = async (line: number, character: number) =>
      (((await c.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character } })) as CompletionItem[] | null) ?? []).map(
        (i) => i.label,
      );
    const inLayout = await labels(1, posOf(text, 1, 'ti)').character + 2);
    assert.ok(inLayout.includes('tile') && inLayout.includes('row_major'), inLayout.join(' '));
    const dtypes = await labels(1, posOf(text, 1, 'bfloat16').character);
    assert.ok(
      ['bfloat16', 'bfloat8_b', 'bfloat4_b', 'float32'].every((x) => dtypes.includes(x)),
      dtypes.join(' '),
    );
    const statement = await labels(2, 0);
    assert.ok(
      ['tensor', 'probe', 'target'].every((x) => statement.includes(x)),
      statement.join(' '),
    );
  });

  it('formatting normalises spacing of a tensor line and leaves formatted lines alone', async () => {
    const text = 'target wormhole_b0\ntensor  m :  bfloat16[ 64,64 ]=tt( layout=tile )\nprobe m[1, 2]\n';
    const uri = await openSpec('format.tlayout', text);
    const edits: TextEdit[] =
      (await c.conn.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })) ?? [];
    assert.equal(edits.length, 1);
    assert.equal(edits[0].range.start.line, 1);
    assert.equal(edits[0].newText, 'tensor m: bfloat16[64, 64] = tt(layout=tile)');
  });

  it('a spec opened by URI outside the workspace still resolves files relative to itself', async () => {
    // the server gets a file:// URI; the .csfbin sits beside the spec in the temporary folder
    const uri = pathToFileURL(join(dir, 'ok.tlayout')).href;
    const hv = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(SPEC, 5, 's:') });
    assert.match((hv!.contents as MarkupContent).value, /\*\*tensor s\*\*: float32\[2, 3\]/);
    assert.match((hv!.contents as MarkupContent).value, /stored \| 3 of 6 elements/);
  });
});
