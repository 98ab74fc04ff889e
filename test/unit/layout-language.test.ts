/**
 * The `.tlayout` language: parser (exact ranges, recovery), checker (catalogue diagnostics on the right
 * ranges, quick fixes, pasted forms, file-level rules, probes) and the editor features (hover, inlay
 * hints, completion, symbols, semantic tokens, formatting). Ends with a robustness fuzz: random
 * mutations of real files never make the parser, checker or any feature throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Diagnostic } from '../../core/common/diagnostic';
import { analyzeLayout, type LayoutAnalysis } from '../../core/layout/analyze';
import { applyEdits, formatLayout } from '../../core/layout/features/format';
import { complete } from '../../core/layout/features/complete';
import { hover } from '../../core/layout/features/hover';
import { inlayHints } from '../../core/layout/features/inlay';
import { documentSymbols } from '../../core/layout/features/symbols';
import { TOKEN_TYPES } from '../../core/common/semanticTokens';
import { semanticTokens } from '../../core/layout/features/tokens';
import { lex, parseLayout } from '../../core/layout/parse';
import { SpyreLayout } from '../../core/layout/models/spyre';
import { TTLayout } from '../../core/layout/models/tt';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'layout');
const EX = join(import.meta.dirname, '..', '..', 'examples', 'layouts');
const read = (p: string) => readFileSync(p, 'utf8');
const an = (text: string) => analyzeLayout(text, '/t/x.tlayout');
const errors = (a: LayoutAnalysis) => a.diagnostics.filter((d) => d.severity === 'error');
const codes = (a: LayoutAnalysis) => a.diagnostics.map((d) => d.code);
const at = (text: string, needle: string, delta = 0) => {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, needle);
  return i + delta;
};
/** The source text a diagnostic points at. */
const under = (a: LayoutAnalysis, d: Diagnostic) => a.text.slice(a.lines.offset(d.range.start), a.lines.offset(d.range.end));
const one = (a: LayoutAnalysis, code: string) => {
  const d = a.diagnostics.filter((x) => x.code === code);
  assert.equal(d.length, 1, `${code}: ${JSON.stringify(a.diagnostics.map((x) => `${x.code} ${x.message}`))}`);
  return d[0];
};
const applyFix = (a: LayoutAnalysis, d: Diagnostic, k = 0) => applyEdits(a.text, d.fixes![k].edits, a.lines);

test('lexer: numbers with units, hex, dims, comments and strings', () => {
  const { tokens, comments } = lex('at 0x1_000 4KiB 32x32 2x2x4 1.5e3 "a b" # note\n// c');
  assert.deepEqual(
    tokens.filter((t) => t.kind !== 'eof').map((t) => [t.kind, t.dims ?? t.value ?? t.text]),
    [
      ['ident', 'at'],
      ['number', 4096],
      ['number', 4096],
      ['dims', [32, 32]],
      ['dims', [2, 2, 4]],
      ['number', 1500],
      ['string', '"a b"'],
      ['newline', '\n'],
    ],
  );
  assert.deepEqual(
    comments.map((c) => c.text),
    ['# note', '// c'],
  );
  assert.match(lex('12abc').tokens[0].problem!, /unexpected 'abc'/);
});

test('parser: statements, exact ranges, multi-line pasted calls', () => {
  const text =
    'target wormhole_b0\n' +
    'tensor blk: bfloat16[128, 128] = ttnn.create_sharded_memory_config(\n' +
    '    shape=(64, 64),\n' +
    '    core_grid=ttnn.CoreGrid(y=2, x=2),\n' +
    '    strategy=ttnn.ShardStrategy.BLOCK,\n' +
    '    use_height_and_width_as_shard_shape=True,\n' +
    ') at 0x1000 + 2*16\n' +
    'probe blk[1, 2]\n' +
    'probe address 4096 core (1,0)\n';
  const f = parseLayout(text);
  assert.deepEqual(f.errors, []);
  assert.deepEqual(
    f.stmts.map((s) => s.kind),
    ['target', 'tensor', 'probe', 'probe'],
  );
  const t = f.stmts[1];
  assert.ok(t.kind === 'tensor');
  assert.equal(text.slice(t.name!.span.start, t.name!.span.end), 'blk');
  assert.equal(text.slice(t.dtype!.span.start, t.dtype!.span.end), 'bfloat16');
  assert.equal(text.slice(t.shape!.span.start, t.shape!.span.end), '[128, 128]');
  assert.equal(t.layout.length, 1);
  assert.ok(t.layout[0].kind === 'call' && t.layout[0].args.length === 4);
  assert.equal(t.at?.value?.kind === 'num' && t.at.value.value, 0x1000 + 32);
  assert.ok(text.slice(t.span.start, t.span.end).endsWith('0x1000 + 2*16'));
  const p = f.stmts[3];
  assert.ok(p.kind === 'probe' && p.address?.unit?.keyword.text === 'core' && p.address.unit.value?.kind === 'list');
  // named dims and ranges
  const g = parseLayout('tensor c: int8[A=2, B: 4] = tt(grid=(0,0)-(7,0), shard=[-1, 2])').stmts[0];
  assert.ok(g.kind === 'tensor' && g.shape!.items[0].name?.text === 'A' && g.shape!.items[1].name?.text === 'B');
  assert.ok(g.layout[0].kind === 'call' && g.layout[0].args[0].value.kind === 'range');
});

test('parser: error recovery keeps later statements and reports exact spans', () => {
  const text = read(join(FIX, 'syntax.tlayout'));
  const a = an(text);
  const f = a.ast;
  assert.deepEqual(
    f.stmts.map((s) => s.kind),
    ['tensor', 'tensor', 'probe'],
  );
  const unclosed = a.diagnostics.find((d) => /not closed/.test(d.message))!;
  assert.equal(under(a, unclosed), '[');
  assert.equal(unclosed.range.start.line, 0);
  const typo = a.diagnostics.find((d) => /did you mean 'tensor'/.test(d.message))!;
  assert.equal(under(a, typo), 'tensr');
  assert.equal(typo.fixes?.[0].edits[0].newText, 'tensor');
  const c = a.tensors.find((t) => t.name === 'c');
  assert.ok(c?.model, 'the statement after two broken ones is analysed');
  assert.ok(a.probes[0].forward);
  // a missing bracket before a new statement line does not swallow it
  const b = an('tensor x: float16[4] = spyre(dim_order=[0\ntensor y: float16[4] = spyre()\n');
  assert.ok(b.tensors.some((t) => t.name === 'y' && t.model));
  // stray characters and junk after a statement
  const j = an('tensor x: float16[4] = spyre() ) junk\n§\nprobe x[1]\n');
  assert.ok(j.diagnostics.some((d) => /unexpected '\)'/.test(d.message)));
  assert.ok(j.diagnostics.some((d) => /unexpected character '§'/.test(d.message)));
  assert.ok(j.probes[0].forward);
});

test('checker: every model from one file, probes computed', () => {
  const a = an(read(join(FIX, 'all-models.tlayout')));
  assert.deepEqual(errors(a), []);
  assert.deepEqual(
    a.tensors.map((t) => [t.name, t.family, !!t.model]),
    [
      ['act', 'spyre', true],
      ['w', 'tt', true],
      ['blk', 'tt', true],
      ['c', 'cells', true],
      ['p', 'strided', true],
      ['f', 'sparse', true],
    ],
  );
  const probes = a.probes.map((p) => p.forward?.address ?? p.inverse?.coord ?? p.hits?.map((h) => [h.tensor.name, h.result.coord]));
  assert.deepEqual(probes, [983_768, [10, 3, 133], 0x1000 + 770, [40, 17], [32, 96], 16 * 13 + 1, 0x100 + 4 * (2 + 3 * 4), 16, undefined, [['w', [40, 17]]]]);
  assert.match(a.probes[8].inverse!.reason!, /pointer of fiber 0/);
});

test('checker: the seeds exactly (Spyre dim_map, TT 64×64 interleaved and 2×2 sharded, (2,4,18) cells)', () => {
  const a = an(read(join(FIX, 'seeds.tlayout')));
  assert.deepEqual(errors(a), []);
  const [s, sDev, t, sh, c] = a.probes;
  assert.deepEqual((s.forward as ReturnType<SpyreLayout['forward']>).device, [7, 4, 5, 44]);
  assert.deepEqual(sDev.inverse?.coord, [10, 3, 133]);
  assert.deepEqual([t.forward?.unit?.label, t.forward?.address], ['DRAM bank 2', 770]);
  const m = a.tensors.find((x) => x.name === 'sh')!.model as TTLayout;
  assert.equal(m.spec.memory, 'BLOCK_SHARDED');
  assert.deepEqual(m.spec.shard, [32, 32]);
  assert.equal(m.spec.buffer, 'L1');
  assert.deepEqual(sh.forward?.unit?.label, 'core (1,1)');
  assert.deepEqual([(c.forward as unknown as { cell: number }).cell, c.forward?.address], [7, 113]);
});

test('checker: pasted forms map exactly like the native ones', () => {
  const a = an(
    [
      'target blackhole',
      'tensor n: float16[1024, 256] = spyre()',
      'tensor p: float16[1024, 256] = SpyreTensorLayout(device_size=[4, 1024, 64], stride_map=[64, 256, 1], device_dtype=DataFormats.SEN169_FP16)',
      'tensor d: float16[1024, 256] = spyre(device_size=[4, 1024, 64], dim_map=[1, 0, 1], stride_map=[64, 256, 1]) at 0x100000',
      'tensor t1: bfloat16[256, 64] = tt(memory=height_sharded, shard=[64, 64], grid=(0,0)-(3,0)) at 0x10000',
      'tensor t2: bfloat16[256, 64] = ttnn.TILE_LAYOUT ttnn.create_sharded_memory_config(shape=[256, 64], core_grid=ttnn.CoreGrid(y=1, ' +
        'x=4), strategy=ttnn.ShardStrategy.HEIGHT) at 0x20000',
      'tensor t3: bfloat16[256, 64] = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, ' +
        'ttnn.ShardSpec(ttnn.CoreRangeSet({ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))}), [64, 64], ' +
        'ttnn.ShardOrientation.ROW_MAJOR)) at 0x30000',
      'tensor t4: bfloat16[64, 64] = ttnn.Tile((16, 32)) ttnn.L1_MEMORY_CONFIG at 0x40000',
      'tensor s1: float32[4, 5] = torch.as_strided(x, (4, 5), (1, 4), 0)',
      '',
    ].join('\n'),
  );
  assert.deepEqual(errors(a), []);
  const m = (n: string) => a.tensors.find((t) => t.name === n)!.model!;
  for (const c of [
    [0, 0],
    [77, 130],
    [1023, 255],
  ]) {
    assert.equal(m('p').forward(c).address, m('n').forward(c).address);
    assert.equal(m('d').forward(c).address - 0x100000, m('n').forward(c).address);
  }
  for (const c of [
    [0, 0],
    [100, 33],
    [255, 63],
  ]) {
    const [a1, a2, a3] = ['t1', 't2', 't3'].map((n) => m(n).forward(c));
    assert.deepEqual([a2.unit, a2.address - 0x20000], [a1.unit, a1.address - 0x10000]);
    assert.deepEqual([a3.unit, a3.address - 0x30000], [a1.unit, a1.address - 0x10000]);
  }
  assert.deepEqual((m('t4') as TTLayout).geo.g && [(m('t4') as TTLayout).geo.g!.tH, (m('t4') as TTLayout).spec.buffer], [16, 'L1']);
  assert.equal(m('s1').forward([2, 3]).address, 4 * 14);
  // stride_map that contradicts dim_map
  const bad = an('tensor d: float16[1024, 256] = spyre(device_size=[4, 1024, 64], dim_map=[1, 0, 1], stride_map=[64, 255, 1])');
  const d = one(bad, 'SPY022');
  assert.equal(under(bad, d), '[64, 255, 1]');
  assert.equal(d.fixes?.[0].edits[0].newText, '[64, 256, 1]');
});

test('checker: create_sharded_memory_config quirks — derived shards, COL_MAJOR swap, CoreRangeSet', () => {
  const derive = an(
    'target wormhole_b0\n' +
      'tensor x: bfloat16[256, 128] = ttnn.create_sharded_memory_config(shape=(256, 128), core_grid=ttnn.CoreGrid(y=2, x=4), ' +
      'strategy=ttnn.ShardStrategy.BLOCK)',
  );
  assert.deepEqual((derive.tensors[0].model as TTLayout).spec.shard, [128, 32]);
  const col = an(
    'target wormhole_b0\n' +
      'tensor x: bfloat16[256, 128] = ttnn.create_sharded_memory_config(shape=(256, 128), core_grid=ttnn.CoreGrid(y=2, x=4), ' +
      'strategy=ttnn.ShardStrategy.BLOCK, orientation=ttnn.ShardOrientation.COL_MAJOR)',
  );
  assert.deepEqual((col.tensors[0].model as TTLayout).spec.shard, [64, 64], 'COL_MAJOR: (H/x, W/y)');
  const swap = an(
    'target wormhole_b0\n' +
      'tensor x: bfloat16[64, 128] = ttnn.create_sharded_memory_config(shape=(64, 32), core_grid=ttnn.CoreGrid(y=2, x=2), ' +
      'strategy=ttnn.ShardStrategy.BLOCK, orientation=ttnn.ShardOrientation.COL_MAJOR, use_height_and_width_as_shard_shape=True)',
  );
  assert.equal(one(swap, 'TT013').severity, 'warning');
  assert.deepEqual((swap.tensors[0].model as TTLayout).spec.shard, [32, 64]);
  const nd = an(
    'target wormhole_b0\n' +
      'tensor x: bfloat16[96, 64] = ttnn.create_sharded_memory_config(shape=(96, 64), core_grid=ttnn.CoreGrid(y=1, x=7), ' +
      'strategy=ttnn.ShardStrategy.HEIGHT)',
  );
  assert.match(one(nd, 'TT020').message, /Invalid sharding core_grid/);
  const set = an(
    'target wormhole_b0\n' +
      'tensor x: bfloat16[64, 64] = ttnn.create_sharded_memory_config(shape=(64, 64), core_grid=ttnn.CoreRangeSet({ttnn.CoreRange((0, 0), (1, ' +
      '0))}), strategy=ttnn.ShardStrategy.HEIGHT)',
  );
  assert.match(one(set, 'TT020').message, /use_height_and_width_as_shard_shape/);
});

test('checker: diagnostics land on the offending value, and quick fixes repair it', () => {
  const cases: [string, string, string, number?][] = [
    ['target wormhole_b0\ntensor s: float16[64] = spyre(device_size=[1, 32], dim_map=[0, 0])', 'SPY002', '32'],
    ['target wormhole_b0\ntensor s: float16[100] = spyre(device_size=[1, 64], dim_map=[0, 0])', 'SPY006', '1'],
    [
      'target wormhole_b0\ntensor s: float16[100] = spyre(device_size=[2, 64], dim_map=[0, 0], device_dtype=DataFormats.IEEE_FP32)',
      'SPY019',
      'DataFormats.IEEE_FP32',
    ],
    ['target wormhole_b0\ntensor s: float16[100] = spyre(device_size=[2, 64], dim_map=[0, 0]) at 0x44', 'SPY021', '0x44'],
    ['target wormhole_b0\ntensor t: bfloat16[64, 64] = tt(memory=block_sharded, shard=[40, 32], grid=(0,0)-(1,1))', 'TT008', '[40, 32]'],
    ['target wormhole_b0\ntensor t: bfloat16[1024, 64] = tt(memory=height_sharded, shard=[32, 64], grid=(0,0)-(3,0))', 'TT005', '32'],
    ['target wormhole_b0\ntensor t: bfloat16[64, 64] = tt(memory=height_sharded, shard=[64, 32], grid=(0,0)-(3,0))', 'TT005', '32'],
    ['target wormhole_b0\ntensor t: bfloat8_b[64, 64] = tt(layout=row_major)', 'TT002', 'row_major'],
    ['target wormhole_b0\ntensor t: bfloat16[64, 64] = tt() at 0x1010', 'TT021', '0x1010'],
    ['target wormhole_b0\ntensor t: bfloat16[64, 64] = tt(layout=tile, alignment=[32, 48])', 'TT003', '[32, 48]'],
    ['target npu\ntensor c: int8[2, 4, 18] = cells() at 0x8', 'CELL003', '0x8'],
    ['tensor p: float32[4, 5] = strided(strides=[5])', 'PT001', '[5]'],
    ['tensor p: float32[4, 5] = strided(strides=[5, 1], storage=10)', 'PT004', '10'],
    ['tensor s: float16[64] = spyre()\nprobe ss[1]', 'TL010', 'ss'],
    ['tensor s: float16[64] = spyre(device_sizes=[1, 64], dim_map=[0, 0])', 'TL003', 'device_sizes'],
    ['tensor s: flaot16[64] = spyre()', 'TL005', 'flaot16'],
    ['target wormhole_b1\ntensor s: float16[64] = spyre()', 'TL007', 'wormhole_b1'],
    ['tensor s: float16[64] = spyer()', 'TL002', 'spyer()'],
  ];
  for (const [text, code, pointed] of cases) {
    const a = an(text);
    const d = a.diagnostics.find((x) => x.code === code);
    assert.ok(d, `${code} in ${JSON.stringify(text)}: ${JSON.stringify(a.diagnostics.map((x) => x.code))}`);
    assert.equal(under(a, d), pointed, `${code} range`);
    assert.ok(d.message.length > 20);
    if (!d.fixes?.length) continue;
    const fixed = an(applyFix(a, d));
    assert.ok(
      !fixed.diagnostics.some((x) => x.code === code && x.severity === d.severity && x.message === d.message),
      `${code}: the fix "${d.fixes[0].title}" repairs it → ${fixed.text}`,
    );
    assert.ok(
      errors(fixed).length < errors(a).length || d.severity !== 'error',
      `${code}: fewer errors after the fix (${JSON.stringify(errors(fixed).map((x) => x.message))})`,
    );
  }
});

test('checker: "use the default Spyre layout" and "round shard shape up to tiles"', () => {
  const a = an('tensor s: float16[64, 2] = spyre(device_size=[1, 64], dim_map=[0, 0])');
  const d = one(a, 'SPY004');
  const titles = d.fixes!.map((f) => f.title);
  assert.equal(titles[0], 'Use the default Spyre layout');
  assert.equal(applyFix(a, d), 'tensor s: float16[64, 2] = spyre()');
  assert.deepEqual(errors(an(applyFix(a, d))), []);
  assert.equal(applyFix(a, d, 1), 'tensor s: float16[64, 2] = spyre(device_size=[1, 64, 64], dim_map=[1, 0, 1])');
  const t = an('target wormhole_b0\ntensor t: bfloat16[64, 64] = tt(memory=block_sharded, shard=[40, 20], grid=(0,0)-(1,1))');
  const e = one(t, 'TT008');
  assert.equal(e.fixes![0].title, 'Round shard shape up to tiles: [64, 32]');
  assert.deepEqual(errors(an(applyFix(t, e))), []);
  // a fix that adds a missing argument
  const c = an('target npu\ntensor c: int8[1, 1, 1, 1, 4] = cells()');
  const r = one(c, 'CELL001');
  assert.equal(applyFix(c, r), 'target npu\ntensor c: int8[1, 1, 1, 1, 4] = cells(relax_rank=true)');
  // missing target
  const n = an('tensor t: bfloat16[64, 64] = tt()');
  const tgt = one(n, 'TL006');
  assert.equal(applyFix(n, tgt), 'target wormhole_b0\ntensor t: bfloat16[64, 64] = tt()');
});

test('checker: file-level rules — duplicates, overlapping placements, out of memory', () => {
  const dup = an('tensor a: float16[64] = spyre()\ntensor a: float16[64] = spyre() at 0x1000');
  assert.match(one(dup, 'TL001').message, /already declared on line 1/);
  const ov = an('target wormhole_b0\ntensor x: bfloat16[64, 64] = tt() at 0x0\ntensor y: bfloat16[64, 64] = tt() at 0x400');
  const o = one(ov, 'TL008');
  assert.equal(under(ov, o), '0x400');
  assert.match(o.message, /overlaps 'x'/);
  assert.equal(applyFix(ov, o).split('\n')[2], 'tensor y: bfloat16[64, 64] = tt() at 0x800');
  assert.ok(!codes(an(applyFix(ov, o))).includes('TL008'));
  // sharded tensors on disjoint cores do not overlap; on shared cores they do
  const cores = an(
    'target wormhole_b0\n' +
      'tensor a: bfloat16[64, 64] = tt(memory=block_sharded, shard=[32, 32], grid=(0,0)-(1,1))\n' +
      'tensor b: bfloat16[64, 64] = tt(memory=block_sharded, shard=[32, 32], grid=(2,0)-(3,1))\n' +
      'tensor c: bfloat16[64, 64] = tt(memory=block_sharded, shard=[32, 32], grid=(1,1)-(2,2))',
  );
  const ov2 = one(cores, 'TL008');
  assert.match(ov2.message, /'c' .* overlaps 'a' .* on core \(1,1\)/);
  // L1 interleaved uses every core
  assert.ok(
    codes(
      an(
        'target wormhole_b0\n' +
          'tensor a: bfloat16[64, 64] = tt(buffer=l1)\n' +
          'tensor b: bfloat16[64, 64] = tt(memory=height_sharded, shard=[32, 64], grid=(5,5)-(6,5))',
      ),
    ).includes('TL008'),
  );
  // host views of one storage are not overlaps
  assert.ok(!codes(an('tensor a: float32[4, 4] = strided()\ntensor b: float32[4, 4] = strided(strides=[1, 4])')).includes('TL008'));
  // out of memory
  const oom = an('target spyre(memory=1MiB)\ntensor s: float16[1024, 1024] = spyre()');
  assert.match(one(oom, 'TL009').message, /out of memory/);
  const cellOom = an('target npu(capacity=256)\ntensor c: int8[2, 4, 18] = cells() at 0x10');
  assert.equal(under(cellOom, one(cellOom, 'TL009')), '0x10');
  const l1 = an('target wormhole_b0\ntensor t: bfloat16[1024, 1024] = tt(memory=height_sharded, shard=[1024, 1024], grid=(0,0)-(0,0))');
  assert.match(one(l1, 'TT012').message, /does not fit/);
});

test('checker: probes — named coordinates, units, search, bad probes', () => {
  const a = an(read(join(EX, 'tenstorrent.tlayout')));
  const p = a.probes.find((x) => x.tensor?.name === 'blk' && x.kind === 'inverse')!;
  assert.deepEqual([p.unit, p.inverse?.coord], [1, [32, 96]]);
  const bad = an(
    'target wormhole_b0\n' +
      'tensor w: bfloat16[64, 64] = tt()\n' +
      'probe w address 770\n' +
      'probe w address 770 core (0, 0)\n' +
      'probe w address 770 bank 12\n' +
      'probe w[1]\n' +
      'probe w[1, x]\n' +
      'probe address 0x99999999 bank 1',
  );
  const msgs = bad.diagnostics.filter((d) => d.code === 'TL010').map((d) => d.message);
  assert.match(msgs[0], /spread over 12 banks: say which, e.g. 'address 770 bank 0'/);
  assert.match(msgs[1], /no such core/);
  assert.match(msgs[2], /no such bank: 'w' uses DRAM banks 0..11/);
  assert.match(msgs[3], /2 dimensions but 1 index/);
  assert.match(msgs[4], /an index is an integer/);
  assert.match(msgs[5], /no tensor holds 0x99999999/);
  const named = an('tensor c: int8[A=2, B=4, C=18] = cells()\nprobe c[C=17, B=3, A=0]\nprobe c[A=0, B=1]\nprobe c[A=0, X=1, C=2]');
  assert.equal(named.probes[0].forward?.address, 113);
  assert.ok(named.diagnostics.some((d) => /missing an index for C/.test(d.message)));
  assert.ok(named.diagnostics.some((d) => /no dimension named 'X'/.test(d.message)));
  const later = an('probe s[0]\ntensor s: float16[64] = spyre()');
  assert.match(one(later, 'TL010').message, /declared later/);
});

test('features: hover on probes, addresses, tensors and words', () => {
  const text = read(join(FIX, 'all-models.tlayout'));
  const a = an(text);
  const h1 = hover(a, at(text, 'probe w[40', 8))!;
  assert.match(h1.markdown, /\*\*w\[40, 17\]\*\* → DRAM bank 2, address `0x1302`/);
  assert.match(h1.markdown, /\| face \| face 1 \(16×16\), in face \(8, 1\) \|/);
  assert.equal(text.slice(a.lines.offset(h1.range.start), a.lines.offset(h1.range.end)), '[40, 17]');
  const h2 = hover(a, at(text, '0x1000 + 770', 2))!;
  assert.match(h2.markdown, /→ \*\*w\[40, 17\]\*\*/);
  const h3 = hover(a, at(text, 'tensor act', 8))!;
  assert.match(h3.markdown, /\*\*tensor act\*\*: float16\[128, 256, 512\] — spyre layout/);
  assert.match(h3.markdown, /\| stride_map \| \[512, 64, 131072, 1\] \|/);
  const h4 = hover(a, at(text, 'block_sharded', 3))!;
  assert.match(h4.markdown, /BLOCK_SHARDED/);
  const h5 = hover(a, at(text, 'wormhole_b0', 2))!;
  assert.match(h5.markdown, /12 DRAM banks/);
  const h6 = hover(a, at(text, 'device[3', 8))!;
  assert.match(h6.markdown, /device \[3, 2, 10, 5\] of \*\*act\*\* → address `0x6850a` → \*\*act\[10, 3, 133\]\*\*/);
  const h7 = hover(a, at(text, 'probe address', 16))!;
  assert.match(h7.markdown, /`0x1302` in DRAM bank 2 → \*\*w\[40, 17\]\*\*/);
  assert.match(hover(a, at(text, 'int8', 1))!.markdown, /16 per cell/);
  assert.match(hover(a, at(text, 'dim_map=', 1))!.markdown, /host dim of each device dim/);
  assert.equal(hover(a, at(text, '# Every', 3)), undefined);
});

test('features: inlay hints after tensors and probes', () => {
  const text = read(join(FIX, 'all-models.tlayout'));
  const a = an(text);
  const hints = inlayHints(a, 0, 100);
  const line = (needle: string) => a.lines.position(at(text, needle)).line;
  const on = (l: number) => hints.filter((h) => h.position.line === l).map((h) => h.label.trim());
  assert.deepEqual(on(line('tensor act')), ['32 MiB · 262,144 sticks · 0 % padding']);
  assert.deepEqual(on(line('tensor w:')), ['24 KiB · 4 pages over 12 banks · 2,048 B/bank · 0 % padding']);
  assert.deepEqual(on(line('tensor blk')), ['32 KiB · 4 shards on 4 cores · 8,192 B/core · 0 % padding']);
  assert.deepEqual(on(line('tensor c:')), ['256 B · 16 cells · 43.8 % padding']);
  assert.deepEqual(on(line('probe w[40')), ['→ DRAM bank 2: 0x1302']);
  assert.deepEqual(on(line('probe act device')), ['→ act[10, 3, 133] @ 0x6850a']);
  assert.deepEqual(on(line('probe f address')), ['→ pointer of fiber 0 (0) → main 0']);
  assert.equal(inlayHints(a, 0, 2).length, 0);
  assert.ok(hints.every((h) => h.tooltip.length > 0));
});

test('features: completion by context', () => {
  const cases: [string, string[], string[]?][] = [
    ['', ['target', 'tensor', 'probe']],
    ['target ', ['wormhole_b0', 'blackhole', 'grayskull', 'spyre', 'npu', 'custom']],
    ['target custom(', ['dram_banks', 'l1_alignment', 'grid']],
    ['tensor x: ', ['float16', 'bfloat16', 'bfloat8_b', 'int8']],
    ['tensor x: float16[4] = ', ['spyre()', 'tt()', 'cells()', 'SpyreTensorLayout()', 'ttnn.create_sharded_memory_config()']],
    ['tensor x: float16[4] = spyre(', ['device_size', 'dim_map', 'stride_map', 'dim_order']],
    ['tensor x: float16[4] = spyre(device_size=[2, 64], ', ['dim_map'], ['device_size']],
    ['tensor x: bfloat16[4] = tt(memory=', ['interleaved', 'block_sharded', 'nd_sharded']],
    ['tensor x: bfloat16[4] = tt(orientation=', ['row_major', 'col_major']],
    ['tensor x: bfloat16[4] = tt(tile=', ['32x32', '16x32', '1x16']],
    ['tensor x: bfloat16[4] = ttnn.create_sharded_memory_config(shape=(4,4), ', ['core_grid', 'strategy', 'orientation']],
    ['tensor x: bfloat16[4] = tt(strategy=', ['ttnn.ShardStrategy.BLOCK']],
    ['tensor x: bfloat16[4] = tt() ', ['at']],
    ['tensor s: float16[4] = spyre()\nprobe ', ['s', 'address']],
    ['tensor s: float16[4] = spyre()\nprobe s ', ['address', 'device']],
    ['target wormhole_b0\ntensor w: bfloat16[64, 64] = tt()\nprobe w address 0x10 ', ['bank'], ['core']],
  ];
  for (const [text, want, not] of cases) {
    const got = complete(an(text), text.length)?.map((e) => e.label) ?? [];
    for (const w of want) assert.ok(got.includes(w), `${JSON.stringify(text)} → ${w} in ${got.join(',')}`);
    for (const w of not ?? []) assert.ok(!got.includes(w), `${JSON.stringify(text)} → no ${w}`);
  }
  // multi-line pasted call: still inside the call's arguments
  const ml = 'tensor x: bfloat16[4] = ttnn.create_sharded_memory_config(\n    shape=(4, 4),\n    ';
  assert.ok(complete(an(ml), ml.length)!.some((e) => e.label === 'strategy'));
  assert.equal(complete(an('# comm'), 6), undefined);
});

test('features: symbols, semantic tokens, formatting', () => {
  const text = read(join(FIX, 'all-models.tlayout'));
  const a = an(text);
  const sy = documentSymbols(a);
  assert.deepEqual(
    sy.filter((s) => s.kind === 'variable').map((s) => s.name),
    ['act', 'w', 'blk', 'c', 'p', 'f'],
  );
  assert.equal(sy.filter((s) => s.kind === 'module').length, 3);
  assert.equal(sy.filter((s) => s.kind === 'event').length, 10);
  assert.match(sy.find((s) => s.name === 'w')!.detail!, /bfloat16\[64, 64\] tt · 24 KiB/);
  const toks = semanticTokens(a);
  const tokAt = (needle: string, d = 0) => {
    const p = a.lines.position(at(text, needle, d));
    return toks.find((t) => t.line === p.line && t.char === p.character);
  };
  assert.equal(TOKEN_TYPES[tokAt('tensor act')!.type], 'keyword');
  assert.equal(TOKEN_TYPES[tokAt('act:')!.type], 'variable');
  assert.equal(tokAt('act:')!.modifiers & 1, 1, 'declaration');
  assert.equal(TOKEN_TYPES[tokAt('float16[128')!.type], 'type');
  assert.equal(TOKEN_TYPES[tokAt('spyre(device')!.type], 'function');
  assert.equal(TOKEN_TYPES[tokAt('device_size')!.type], 'parameter');
  assert.equal(TOKEN_TYPES[tokAt('256, 8')!.type], 'number');
  assert.equal(TOKEN_TYPES[tokAt('wormhole_b0')!.type], 'namespace');
  for (let i = 1; i < toks.length; i++)
    assert.ok(toks[i].line > toks[i - 1].line || toks[i].char >= toks[i - 1].char + toks[i - 1].length, 'sorted, no overlap');
  // formatting: canonical spacing, idempotent, leaves broken statements alone
  const messy =
    '\n' +
    '\n' +
    '  tensor  w :bfloat16[ 64,64 ]=tt( layout = tile,grid=( 0 , 0 )-( 1 , 1 ) )   at 0x10+ 4   \n' +
    '\n' +
    '\n' +
    '# note\n' +
    'probe w [1,2]\n' +
    'tensor bad: float16[4 = spyre( )\n';
  const m = an(messy);
  const out = applyEdits(messy, formatLayout(m), m.lines);
  assert.equal(out, 'tensor w: bfloat16[64, 64] = tt(layout=tile, grid=(0,0)-(1,1)) at 0x10 + 4\n\n# note\nprobe w[1, 2]\ntensor bad: float16[4 = spyre( )\n');
  const again = an(out);
  assert.deepEqual(formatLayout(again), []);
  for (const f of ['spyre', 'tenstorrent', 'cells', 'strided', 'sparse', 'mistakes']) {
    const e = an(read(join(EX, `${f}.tlayout`)));
    assert.deepEqual(formatLayout(e), [], `${f}.tlayout is formatted`);
  }
  const nl = an('tensor a: f16[1] = spyre()');
  assert.equal(applyEdits(nl.text, formatLayout(nl), nl.lines), 'tensor a: f16[1] = spyre()\n');
});

test('examples: every model and probe form, no unexpected errors', () => {
  for (const f of ['spyre', 'tenstorrent', 'cells', 'strided', 'sparse']) {
    const a = an(read(join(EX, `${f}.tlayout`)));
    assert.deepEqual(
      errors(a).map((d) => d.message),
      [],
      f,
    );
    assert.ok(
      a.tensors.every((t) => t.model),
      f,
    );
    assert.ok(a.probes.length > 0 && a.probes.every((p) => p.forward || p.inverse || p.hits), f);
  }
  const m = an(read(join(EX, 'mistakes.tlayout')));
  assert.deepEqual([...new Set(errors(m).map((d) => d.code))].sort(), ['CELL003', 'SPY002', 'SPY006', 'TL010', 'TT002', 'TT005', 'TT008', 'TT021']);
  assert.ok(codes(m).includes('TL008'));
});

test('robustness: random mutations of real files never throw', () => {
  const sources = [
    ...['spyre', 'tenstorrent', 'cells', 'strided', 'sparse', 'mistakes'].map((f) => read(join(EX, `${f}.tlayout`))),
    read(join(FIX, 'all-models.tlayout')),
  ];
  const pieces = [
    '[',
    ']',
    '(',
    ')',
    '{',
    '}',
    ',',
    '=',
    ':',
    '-',
    '+',
    '*',
    '.',
    '#',
    '"',
    "'",
    '\n',
    ' ',
    'tensor',
    'probe',
    'target',
    'at',
    'address',
    'bank',
    'core',
    'device',
    'x',
    '0x',
    '1e',
    '32x',
    '-1',
    '999999999999',
    '0',
    'spyre(',
    'tt(',
    'ttnn.',
    'nd_sharded',
    'ẞ',
    '\u0000',
    '\r',
  ];
  const mutation = fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 3 }), fc.constantFrom(...pieces), fc.nat({ max: 12 }));
  fc.assert(
    fc.property(
      fc.nat({ max: sources.length - 1 }),
      fc.array(mutation, { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
      (si, muts, offsets) => {
        let text = sources[si];
        for (const [p, q, op, piece, len] of muts) {
          const i = p % (text.length + 1);
          if (op === 0) text = text.slice(0, i) + piece + text.slice(i);
          else if (op === 1) text = text.slice(0, i) + text.slice(i + len);
          else if (op === 2) text = text.slice(0, i) + piece + text.slice(i + len);
          else {
            const j = q % (text.length + 1);
            text = text.slice(0, i) + text.slice(j, j + len) + text.slice(i);
          }
        }
        const a = an(text);
        for (const d of a.diagnostics) assert.ok(d.range.start.line <= d.range.end.line && d.message.length > 0);
        for (const o of offsets) {
          const off = o % (text.length + 1);
          hover(a, off);
          complete(a, off);
        }
        inlayHints(a, 0, 1e6);
        documentSymbols(a);
        semanticTokens(a);
        const f = formatLayout(a);
        const out = applyEdits(text, f, a.lines);
        analyzeLayout(out, 'x');
      },
    ),
    { numRuns: Number(process.env.LAYOUT_FUZZ_RUNS ?? 150) },
  );
});
