/**
 * The `.csfbin` validator's entry rules (V13 sentinels, V14 index range, V15 order within a fiber) where mutation
 * testing (npm run mutate -- csf) found them held loosely: a descent is fine exactly when a fiber starts inside it —
 * including a fiber that starts right after a run of empty-slot sentinels — the issues come sorted by entry, errors and
 * warnings are capped separately, structural errors (not V9) hide the entry rules, and every way of feeding the bytes
 * (whole, aligned or not, split at any byte) gives the same verdict.
 *
 *   order 2, shape 4×8 (F = 4, last extent 8), nnz 11; entries at 16 + 8e; pointer count at 104, pointers at 108
 *   indices by entry: 2 5 | 1 7 | 4 S | 2 3 3 9 1   (S = 0xFFFFFFFF; "|" = fiber starts, pointers [0, 2, 4, 6, 11])
 *   e2 (1 after 5) and e6 (2 after 4, past the sentinel e5) start fibers: fine. Wrong: e5 sentinel (V13), e8 repeats 3
 *   (V15), e9 is 9 ≥ 8 (V14), e10 is 1 after 9 (V15).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCsf, validateCsfChunks, type ValidateOptions } from '../../core/csf/validate';

const S = 0xffffffff;

function file(pointers = [0, 2, 4, 6, 11], indices = [2, 5, 1, 7, 4, S, 2, 3, 3, 9, 1], trailing = 0): Uint8Array {
  const words = [2, 4, 8, indices.length];
  indices.forEach((i, e) => words.push(i, 0x3f800000 + e));
  words.push(pointers.length, ...pointers);
  const b = new Uint8Array(4 * words.length + trailing);
  const dv = new DataView(b.buffer);
  words.forEach((w, i) => dv.setUint32(4 * i, w >>> 0, true));
  return b;
}

const where = (e: number, f: number) => `entry ${e} (fiber ${f}, x[${f}, :])`;
const V13 = (e: number, f: number, severity = 'error', dropped = '') => ({
  code: 'csf.empty-sentinel',
  rule: 'V13',
  severity,
  offset: 16 + 8 * e,
  length: 8,
  message: `${where(e, f)} has index 0xFFFFFFFF, the simulator's marker of an unwritten slot: expected a real index below 8${dropped}`,
});
const V14 = (e: number, f: number, idx: number) => ({
  code: 'csf.index-out-of-range',
  rule: 'V14',
  severity: 'error',
  offset: 16 + 8 * e,
  length: 4,
  message: `${where(e, f)} has index ${idx}, expected an index below shape[1] = 8`,
});
const DUP = (e: number, f: number, idx: number) => ({
  code: 'csf.duplicate-index',
  rule: 'V15',
  severity: 'error',
  offset: 16 + 8 * e,
  length: 4,
  message: `${where(e, f)} repeats index ${idx}: expected an index greater than ${idx}, as indices within a fiber must strictly increase`,
});
const UNSORTED = (e: number, f: number, idx: number, prev: number) => ({
  code: 'csf.unsorted-index',
  rule: 'V15',
  severity: 'error',
  offset: 16 + 8 * e,
  length: 4,
  message: `${where(e, f)} has index ${idx} after index ${prev}: expected an index greater than ${prev}, as indices within a fiber must strictly increase`,
});

/** The issues, the same however the bytes come: whole, at an odd offset of their buffer, in two chunks split anywhere. */
function issues(bytes: Uint8Array, opts: ValidateOptions = {}) {
  const whole = validateCsf(bytes, opts);
  const odd = new Uint8Array(bytes.byteLength + 1);
  odd.set(bytes, 1);
  assert.deepEqual(validateCsf(odd.subarray(1), opts).issues, whole.issues, 'unaligned');
  for (let cut = 1; cut < bytes.byteLength; cut += 3)
    assert.deepEqual(validateCsfChunks([bytes.subarray(0, cut), bytes.subarray(cut)], opts).issues, whole.issues, `split at ${cut}`);
  return whole;
}

test('descents are fine exactly where a fiber starts, also right after a run of sentinels', () => {
  const r = issues(file(), { maxIssues: 10 });
  assert.equal(r.ok, false);
  assert.deepEqual(r.issues, [V13(5, 2), DUP(8, 3, 3), V14(9, 3, 9), UNSORTED(10, 3, 1, 9)]);
  // fiber 3 starting one entry later: the descent after the sentinel is now inside fiber 2
  const later = issues(file([0, 2, 4, 7, 11]), { maxIssues: 10 });
  assert.deepEqual(later.issues, [V13(5, 2), UNSORTED(6, 2, 2, 4), DUP(8, 3, 3), V14(9, 3, 9), UNSORTED(10, 3, 1, 9)]);
  // a fiber starting at the sentinel itself also covers the descent
  const atRun = issues(file([0, 2, 4, 5, 11]), { maxIssues: 10 });
  assert.deepEqual(atRun.issues, [V13(5, 3), DUP(8, 3, 3), V14(9, 3, 9), UNSORTED(10, 3, 1, 9)]);
  // two sentinels in a row are one run
  const run = issues(file([0, 2, 4, 7, 11], [2, 5, 1, 7, 4, S, S, 2, 3, 6, 7]), { maxIssues: 10 });
  assert.deepEqual(run.issues, [V13(5, 2), V13(6, 2)]);
});

test('errors are capped at maxIssues in entry order; warnings are capped on their own', () => {
  assert.deepEqual(issues(file(), { maxIssues: 2 }).issues, [V13(5, 2), DUP(8, 3, 3)]);
  assert.deepEqual(issues(file()).issues, [V13(5, 2)], 'one error by default');
  const dropped = issues(file(), { maxIssues: 2, dropEmptySentinel: true });
  assert.deepEqual(dropped.issues, [V13(5, 2, 'warning', ' (the entry is dropped)'), DUP(8, 3, 3), V14(9, 3, 9)]);
  // a clean file with sentinels dropped is ok, with its warnings
  const clean = issues(file([0, 2, 4, 6, 9], [2, 5, 1, 7, 4, S, 2, 3, 6]), { maxIssues: 1, dropEmptySentinel: true });
  assert.equal(clean.ok, true);
  assert.deepEqual(clean.issues, [V13(5, 2, 'warning', ' (the entry is dropped)')]);
});

test('trailing bytes (V9) do not hide the entry rules; a structural error does', () => {
  const t = issues(file(undefined, undefined, 3), { maxIssues: 10 });
  assert.deepEqual(
    t.issues.map((i) => [i.rule, i.severity, i.offset]),
    [
      ['V9', 'error', 128],
      ['V13', 'error', 56],
      ['V15', 'error', 80],
      ['V14', 'error', 88],
      ['V15', 'error', 96],
    ],
  );
  const allowed = issues(file(undefined, undefined, 3), { maxIssues: 10, allowTrailing: true });
  assert.deepEqual(allowed.issues[0].severity, 'warning');
  assert.equal(allowed.issues.length, 5);
  const structural = issues(file([1, 2, 4, 6, 11]), { maxIssues: 10 });
  assert.deepEqual(
    structural.issues.map((i) => i.rule),
    ['V10'],
  );
});

test('keepPointers returns the pointers, only when asked', () => {
  const kept = validateCsf(file(), { keepPointers: true });
  assert.deepEqual([...kept.pointers!], [0, 2, 4, 6, 11]);
  assert.equal(validateCsf(file()).pointers, undefined);
});
