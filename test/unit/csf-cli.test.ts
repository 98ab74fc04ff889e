import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCsf } from '../../cli/csf';
import { UsageError } from '../../cli/args';
import { writeNpy } from '../../core/csf/index';

const FIXTURES = fileURLToPath(new URL('../fixtures/csf/', import.meta.url));
const oracles = JSON.parse(readFileSync(FIXTURES + 'oracles.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

let dir = '';
const p = (name: string) => join(dir, name);
function run(...argv: string[]): { code: number; out: string[] } {
  const out: string[] = [];
  const code = runCsf(argv, (s) => out.push(s));
  return { code, out };
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'csf-cli-'));
  for (const name of ['A', 'B', 'order3']) writeFileSync(p(`${name}.csfbin`), hex(oracles.valid[name].hex));
  for (const c of oracles.corrupt) writeFileSync(p(`${c.rule}-${c.offset}-${c.code}.csfbin`), hex(c.hex));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('csf CLI', () => {
  test('validate: ok line and exit 0', () => {
    const r = run('validate', p('A.csfbin'));
    assert.equal(r.code, 0);
    assert.deepEqual(r.out, [`${p('A.csfbin')}: ok: order 2, shape 2×3, nnz 3, 2 fibers, density 50% (56 bytes)`]);
  });

  test('validate: every corrupt oracle exits 1 with `file: offset N: error: message`', () => {
    for (const c of oracles.corrupt) {
      const f = p(`${c.rule}-${c.offset}-${c.code}.csfbin`);
      const r = run('validate', f);
      assert.equal(r.code, 1, c.name);
      assert.equal(r.out.length, 1);
      assert.ok(r.out[0].startsWith(`${f}: offset ${c.offset}: error: `), r.out[0]);
      assert.ok(r.out[0].endsWith(`[${c.code}]`), r.out[0]);
    }
  });

  test('validate --json and lenient flags', () => {
    const f = p('V9-56-csf.trailing-bytes.csfbin');
    const j = JSON.parse(run('validate', f, '--json').out.join('\n'));
    assert.equal(j.valid, false);
    assert.deepEqual([j.issues[0].code, j.issues[0].rule, j.issues[0].offset, j.issues[0].length], ['csf.trailing-bytes', 'V9', 56, 4]);
    assert.deepEqual(j.header, { order: 2, shape: [2, 3], nnz: 3, fibers: 2, density: 0.5 });
    const lenient = run('validate', f, '--allow-trailing');
    assert.equal(lenient.code, 0);
    assert.match(lenient.out[0], /offset 56: warning: /);
    const order = run('validate', p('A.csfbin'), '--max-order', '1');
    assert.equal(order.code, 1);
    assert.match(order.out[0], /offset 0: error: order must be at most 1 .* found 2 \[csf\.order-too-large\]/);
  });

  test('show: header, byte sections and fibers', () => {
    const r = run('show', p('B.csfbin'));
    assert.equal(r.code, 0);
    assert.deepEqual(r.out, [
      `${p('B.csfbin')}: 48 bytes, valid`,
      '  order 2, shape 2×3, nnz 2, 2 fibers, density 33.3%',
      '  bytes: header 0..15, entries 16..31, pointer count 32..35, pointers 36..47',
      '  fiber 0 x[0, :]  empty',
      '  fiber 1 x[1, :]  2 entries (0..1): 0: 4, 2: 0.5',
    ]);
    const j = JSON.parse(run('show', p('order3.csfbin'), '--json', '--fibers', '2').out.join('\n'));
    assert.equal(j.valid, true);
    assert.deepEqual(j.fibersShown, [
      { fiber: 0, coord: [0, 0], start: 0, end: 1, entries: [[0, 1]] },
      { fiber: 1, coord: [0, 1], start: 1, end: 1, entries: [] },
    ]);
    const more = run('show', p('order3.csfbin'), '--fibers', '1');
    assert.match(more.out.at(-1)!, /… 3 more fibers/);
  });

  test('show: invalid files exit 1 (structural: errors only; entries: listing plus errors)', () => {
    const s = run('show', p('V12-52-csf.non-monotone-pointers.csfbin'));
    assert.equal(s.code, 1);
    assert.match(s.out[0], /: offset 52: error: pointers must not decrease/);
    const e = run('show', p('V15-32-csf.unsorted-index.csfbin'));
    assert.equal(e.code, 1);
    assert.match(e.out[1], /INVALID|order 2/);
    assert.match(e.out.at(-1)!, /offset 32: error: entry 2 \(fiber 1, x\[1, :\]\) has index 0 after index 2/);
  });

  test("contract: A·Bᵀ writes the simulator's file and reports the placement", () => {
    const r = run('contract', p('A.csfbin'), p('B.csfbin'), p('C.csfbin'));
    assert.equal(r.code, 0, r.out.join('\n'));
    assert.equal(toHex(readFileSync(p('C.csfbin'))), oracles.valid.C_AxBt.hex);
    assert.deepEqual(r.out, [
      `lhs ${p('A.csfbin')}: order 2, shape 2×3, nnz 3: metadata 0..5 (t = 0), main 0..2`,
      `rhs ${p('B.csfbin')}: order 2, shape 2×3, nnz 2: metadata 6..11 (t = 6), main 3..4`,
      'result: order 2, shape 2×2, dense (4 entries): metadata 12..17 (t = 12), main 5..8; 3 multiply-adds',
      `${p('C.csfbin')}: wrote 64 bytes`,
    ]);
    const j = JSON.parse(run('contract', p('A.csfbin'), p('B.csfbin'), p('C2.csfbin'), '--json').out.join('\n'));
    assert.deepEqual(j.result.meta, [12, 17]);
    assert.deepEqual(j.result.main, [5, 8]);
  });

  test('contract: bad operands and limits exit 1', () => {
    const bad = run('contract', p('A.csfbin'), p('V14-32-csf.index-out-of-range.csfbin'), p('X.csfbin'));
    assert.equal(bad.code, 1);
    assert.match(bad.out[0], /V14-32-csf\.index-out-of-range\.csfbin: offset 32: error: /);
    const mismatch = run('contract', p('A.csfbin'), p('order3.csfbin'), p('X.csfbin'));
    assert.equal(mismatch.code, 0, 'final extents 3 and 3 match');
    writeFileSync(p('v4.csfbin'), hex('010000000400000000000000020000000000000000000000'));
    const m2 = run('contract', p('A.csfbin'), p('v4.csfbin'), p('X.csfbin'));
    assert.equal(m2.code, 1);
    assert.match(m2.out[0], /error: the final extents must be equal: lhs shape 2×3 ends in 3, rhs shape 4 ends in 4 \[csf\.contract-extent-mismatch\]/);
    const cap = run('contract', p('A.csfbin'), p('B.csfbin'), p('X.csfbin'), '--meta-capacity', '17');
    assert.equal(cap.code, 1);
    assert.match(cap.out[0], /\[csf\.meta-capacity\]/);
  });

  test('from-npy / to-npy round trip; bad .npy exits 1 with its offset', () => {
    writeFileSync(p('a.npy'), writeNpy([2, 3], new Float32Array([0, 1.5, 0, -2, 0, 3.25])));
    const f = run('from-npy', p('a.npy'), p('a.csfbin'));
    assert.equal(f.code, 0);
    assert.equal(toHex(readFileSync(p('a.csfbin'))), oracles.valid.A.hex);
    const t = run('to-npy', p('a.csfbin'), p('b.npy'));
    assert.equal(t.code, 0);
    assert.deepEqual(readFileSync(p('b.npy')), readFileSync(p('a.npy')));
    const big = writeNpy([2], new Float32Array([1, 2]));
    big[0x15] = '>'.charCodeAt(0); // "'descr': '<f4'" → '>f4'
    writeFileSync(p('be.npy'), big);
    const be = run('from-npy', p('be.npy'), p('x.csfbin'));
    assert.equal(be.code, 1);
    assert.match(be.out[0], /be\.npy: offset 10: error: expected dtype '<f4' \(little-endian float32\), found '>f4' \(big-endian float32\)/);
    const bad = run('to-npy', p('V10-44-csf.first-pointer-nonzero.csfbin'), p('x.npy'));
    assert.equal(bad.code, 1);
    assert.match(bad.out[0], /offset 44: error: ptr\[0\] must be 0/);
  });

  test('bad usage throws UsageError (exit 2 in the dispatcher)', () => {
    assert.throws(() => run(), UsageError);
    assert.throws(() => run('frobnicate'), UsageError);
    assert.throws(() => run('validate'), UsageError);
    assert.throws(() => run('validate', p('A.csfbin'), '--bogus'), UsageError);
    assert.throws(() => run('show', p('missing.csfbin')), /no such file/);
    assert.throws(() => run('contract', p('A.csfbin'), p('B.csfbin')), UsageError);
    assert.throws(() => run('contract', p('A.csfbin'), p('B.csfbin'), p('C.csfbin'), '--meta-capacity', 'lots'), UsageError);
    assert.equal(run('help').code, 0);
  });
});
