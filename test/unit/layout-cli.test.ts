/** `tensor-lens map`: summaries, coordinate and address queries, JSON, exit codes and usage errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runMap } from '../../cli/map';
import { UsageError } from '../../cli/args';

const FIX = relative(process.cwd(), join(import.meta.dirname, '..', 'fixtures', 'layout'));
const ALL = join(FIX, 'all-models.tlayout');

function run(...argv: string[]): { code: number; out: string } {
  const lines: string[] = [];
  const code = runMap(argv, (s) => lines.push(s));
  return { code, out: lines.join('\n') };
}

test('map FILE: every tensor summary and the probes', () => {
  const { code, out } = run(ALL);
  assert.equal(code, 0);
  assert.match(out, /^tensor act: float16\[128, 256, 512\] \(spyre\)$/m);
  assert.match(out, /^ {2}device_size: \[256, 8, 128, 64\]$/m);
  assert.match(out, /^tensor w: bfloat16\[64, 64\] \(tt\)$/m);
  assert.match(out, /^ {2}per bank: 1 page slot = 2,048 B, reserved in every bank \(banks 0–3: 1, banks 4–11: 0\)$/m);
  assert.match(out, /^tensor c: int8\[A=2, B=4, C=18\] \(cells\)$/m);
  assert.match(out, /^ {2}byte breakdown: element 144, padding 112 = 256 B$/m);
  assert.match(out, /^probe w\[40, 17\]:\n {2}w\[40, 17\] → DRAM bank 2: 0x1302 \(4866\)$/m);
  assert.match(out, /^probe address 0x1302 bank 2:\n {2}0x1302 in DRAM bank 2 → w\[40, 17\]$/m);
});

test('map --coord: the mapping with every intermediate', () => {
  const { code, out } = run(ALL, '--tensor', 'w', '--coord', '40,17');
  assert.equal(code, 0);
  assert.deepEqual(out.split('\n'), [
    'w[40, 17] → DRAM bank 2: 0x1302 (4866)',
    '  coordinate: (40, 17)',
    '  tile (page): page 2 = tile (1, 0) of 2×2',
    '  in tile: (8, 17)',
    '  face: face 1 (16×16), in face (8, 1)',
    '  element in tile: 385',
    '  byte in page: 770 of 2048',
    '  bank: 2 = page 2 mod 12',
    '  page in bank: 0 = ⌊2 / 12⌋ (aligned page 2048 B)',
    '  offset in bank: 770 = 0·2048 + 770',
    '  address: DRAM bank 2: 0x1302 (B+770)',
  ]);
  const s = run(ALL, '--tensor', 'act', '--coord', '5, 7, 300');
  assert.match(s.out, /^act\[5, 7, 300\] → 0xf02d8 \(983768\)$/m);
  assert.match(s.out, /device coordinate: \(7, 4, 5, 44\)/);
  assert.match(s.out, /stick: 7,685/);
  const named = run(ALL, '--tensor', 'c', '--coord', 'C=17,B=3,A=0');
  assert.match(named.out, /^c\[0, 3, 17\] → 0x71 \(113\)$/m);
  const dev = run(ALL, '--tensor', 'act', '--device', '3,2,10,5');
  assert.match(dev.out, /^0x6850a → act\[10, 3, 133\]$/m);
  const sparse = run(ALL, '--tensor', 'f', '--coord', '0,0');
  assert.match(sparse.out, /not stored \(implicit zero\)/);
});

test('map --address: inverse for one tensor or a search of all', () => {
  const one = run(ALL, '--tensor', 'w', '--address', '0x1000+770', '--bank', '2');
  assert.equal(one.code, 0);
  assert.match(one.out, /^0x1302 in DRAM bank 2 → w\[40, 17\]$/m);
  const core = run(ALL, '--tensor', 'blk', '--address', '0x21800', '--core', '1,0');
  assert.match(core.out, /^0x21800 in core \(1,0\) → blk\[32, 96\]$/m);
  const pad = run(ALL, '--tensor', 'c', '--address', '20');
  assert.match(pad.out, /^0x14 → c: padding$/m);
  assert.match(pad.out, /zero padding after the 18 elements of row 0/);
  const meta = run(ALL, '--tensor', 'f', '--address', '12', '--space', 'meta');
  assert.match(meta.out, /pointer of fiber 0/);
  const search = run(ALL, '--address', '0x1302', '--bank', '2');
  assert.match(search.out, /^0x1302 in DRAM bank 2 → w\[40, 17\]$/m);
  const none = run(ALL, '--address', '0x7fffffff');
  assert.match(none.out, /no tensor holds it \(banked tensors need --bank or --core\)/);
});

test('map --json', () => {
  const s = JSON.parse(run(ALL, '--json').out);
  assert.deepEqual(
    s.tensors.map((t: { name: string; model: string }) => [t.name, t.model]),
    [
      ['act', 'spyre'],
      ['w', 'tt'],
      ['blk', 'tt'],
      ['c', 'cells'],
      ['p', 'strided'],
      ['f', 'sparse'],
    ],
  );
  assert.equal(s.tensors[1].summary.bytes, 24576);
  assert.equal(s.tensors[1].summary.units.count, 12);
  assert.equal(s.probes.length, 10);
  const f = JSON.parse(run(ALL, '--tensor', 'w', '--coord', '40,17', '--json').out);
  assert.deepEqual([f.tensor, f.address, f.bank, f.offset, f.tile.face], ['w', 4866, 2, 770, 1]);
  const i = JSON.parse(run(ALL, '--tensor', 'c', '--address', '113', '--json').out);
  assert.deepEqual([i.kind, i.coord], ['element', [0, 3, 17]]);
});

test('map: an invalid spec exits 1 with file:line:col: error', () => {
  const p = join(FIX, 'errors.tlayout');
  const { code, out } = run(p);
  assert.equal(code, 1);
  const lines = out.split('\n');
  assert.equal(
    lines[0],
    `${p}:2:49: error: the last device dim is the stick: device_size[1] must be 64 (elements of float16 per 128-byte stick), not 32 [SPY002]`,
  );
  assert.equal(lines[1], `${p}:4:9: error: index 64 is out of range for dimension 0: valid is 0..63 (shape [64, 64]) [TL010]`);
  assert.equal(run(p, '--tensor', 'ok', '--coord', '1,1').code, 1);
  const j = JSON.parse(run(p, '--json').out);
  assert.equal(j.errors.length, 2);
  assert.equal(run(join(FIX, 'syntax.tlayout')).code, 1);
});

test('map reads fibers(file=…) beside the spec: the real fibers of the .csfbin, a missing file or a directory a located error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-map-csf-'));
  const spec = join(dir, 'a.tlayout');
  writeFileSync(spec, 'tensor A: float32[2, 3] = fibers(file="A.csfbin")\nprobe A[1, 2]\n');
  copyFileSync(join(import.meta.dirname, '..', 'fixtures', 'csf', 'A.csfbin'), join(dir, 'A.csfbin'));
  // A.csfbin is [[0, 1.5, 0], [-2, 0, 3.25]]: fiber 1 holds entries 1..2, A[1, 2] is entry 2 = main byte 2 × 8
  const ok = run(spec);
  assert.equal(ok.code, 0, ok.out);
  assert.match(ok.out, /^ {2}stored: 3 of 6 elements \(50\.0 %\), 0 empty fibers$/m);
  assert.match(ok.out, /^ {2}A\[1, 2\] → main memory: 0x10 \(16\)$/m);
  const other = join(dir, 'b.tlayout');
  writeFileSync(other, 'tensor B: float32[2, 3] = fibers(file="none.csfbin")\ntensor C: float32[2, 3] = fibers(file="sub.csfbin")\n');
  mkdirSync(join(dir, 'sub.csfbin'));
  const bad = run(other);
  assert.equal(bad.code, 1);
  assert.match(bad.out, /b\.tlayout:1:39: error: none\.csfbin: file not found: .*none\.csfbin \[CSF009\]/);
  assert.match(bad.out, /b\.tlayout:2:39: error: sub\.csfbin: .*sub\.csfbin: it is a directory, not a regular file \[CSF009\]/);
});

test('map: bad usage throws UsageError (exit 2 in the CLI)', () => {
  const bad: [string[], RegExp][] = [
    [[], /needs a \.tlayout file/],
    [['a.tlayout', 'b.tlayout'], /one \.tlayout file/],
    [['nope.tlayout'], /no such file/],
    [[ALL, '--frob'], /unknown option --frob/],
    [[ALL, '--coord', '1,2'], /--coord needs --tensor NAME/],
    [[ALL, '--tensor', 'zz'], /no tensor named zz/],
    [[ALL, '--tensor', 'w', '--coord', 'a,b'], /integers separated by commas/],
    [[ALL, '--tensor', 'w', '--coord', '1,2', '--address', '4'], /one of --coord, --device, --address/],
    [[ALL, '--tensor', 'w', '--address', '4'], /spread over 12 banks: add --bank N/],
    [[ALL, '--tensor', 'w', '--address', '4', '--core', '1,0'], /has no core 1,0/],
    [[ALL, '--tensor', 'w', '--address', 'zz', '--bank', '1'], /--address must be a number/],
    [[ALL, '--bank', '1'], /go with --address/],
    [[ALL, '--tensor', 'w', '--device', '1,2'], /--device is for Spyre layouts/],
    [[ALL, '--tensor', 'act', '--device', '1,2'], /device layout has 4 dimensions/],
  ];
  for (const [argv, msg] of bad)
    assert.throws(
      () => run(...argv),
      (e: unknown) => e instanceof UsageError && msg.test(e.message),
      argv.join(' '),
    );
  assert.equal(run('--help').code, 0);
  // #16.12: a well-formed coordinate out of range is a located error (exit 1), not bad usage
  const oor = run(ALL, '--tensor', 'w', '--coord', '64,0');
  assert.equal(oor.code, 1);
  assert.match(oor.out, /all-models\.tlayout:\d+:\d+: error: --coord 64,0: index 64 is out of range for dimension 0: valid is 0\.\.63/);
});
