import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  CsfValidator,
  csfIssueToDiagnostic,
  denseToCsf,
  encodeCsf,
  openCsf,
  parseCsf,
  validateCsf,
  validateCsfChunks,
  type CsfValidation,
} from '../../core/csf/index';

const FIXTURES = fileURLToPath(new URL('../fixtures/csf/', import.meta.url));
const oracles = JSON.parse(readFileSync(FIXTURES + 'oracles.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const A = hex(oracles.valid.A.hex);

/** Little-endian words → bytes. */
const words = (...ws: number[]) => {
  const b = new Uint8Array(4 * ws.length);
  const dv = new DataView(b.buffer);
  ws.forEach((w, k) => dv.setUint32(4 * k, w >>> 0, true));
  return b;
};
const f32 = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0];
const first = (v: CsfValidation) => (v.issues[0] ? { code: v.issues[0].code, rule: v.issues[0].rule, offset: v.issues[0].offset } : undefined);

/** A plain whole-buffer reading of formats.md §A.4, written independently of the streaming validator. */
function reference(b: Uint8Array, maxOrder = 10): { code: string; offset: number } | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const len = b.length;
  const u = (o: number) => dv.getUint32(o, true);
  if (len < 4) return { code: 'csf.truncated-header', offset: 0 };
  const n = u(0);
  if (n === 0) return { code: 'csf.bad-order', offset: 0 };
  if (n > maxOrder) return { code: 'csf.order-too-large', offset: 0 };
  if (len < 4 + 4 * n) return { code: 'csf.truncated-header', offset: 4 };
  const shape = Array.from({ length: n }, (_, k) => u(4 + 4 * k));
  const F = shape.slice(0, -1).reduce((a, s) => a * BigInt(s), 1n);
  if (F + 1n > 0xffffffffn) return { code: 'csf.count-overflow', offset: 4 };
  if (len < 8 + 4 * n) return { code: 'csf.truncated-header', offset: 4 + 4 * n };
  const nnz = u(4 + 4 * n);
  const eo = 8 + 4 * n;
  if (len - eo < 8 * nnz + 4) return { code: 'csf.truncated-entries', offset: eo };
  const po = eo + 8 * nnz;
  const P = u(po);
  if (BigInt(P) !== F + 1n) return { code: 'csf.pointer-count-mismatch', offset: po };
  if (len - po - 4 < 4 * P) return { code: 'csf.truncated-pointers', offset: po + 4 };
  const end = po + 4 + 4 * P;
  if (len > end) return { code: 'csf.trailing-bytes', offset: end };
  const ptr = Array.from({ length: P }, (_, i) => u(po + 4 + 4 * i));
  const nf = P - 1;
  if (ptr[0] !== 0) return { code: 'csf.first-pointer-nonzero', offset: po + 4 };
  if (ptr[nf] !== nnz) return { code: 'csf.last-pointer-mismatch', offset: po + 4 + 4 * nf };
  for (let i = 0; i < nf; i++) if (ptr[i + 1] < ptr[i]) return { code: 'csf.non-monotone-pointers', offset: po + 8 + 4 * i };
  for (let f = 0; f < nf; f++) {
    let prev = -1;
    for (let e = ptr[f]; e < ptr[f + 1]; e++) {
      const idx = u(eo + 8 * e);
      if (idx === 0xffffffff) return { code: 'csf.empty-sentinel', offset: eo + 8 * e };
      if (idx >= shape[n - 1]) return { code: 'csf.index-out-of-range', offset: eo + 8 * e };
      if (idx === prev) return { code: 'csf.duplicate-index', offset: eo + 8 * e };
      if (idx < prev) return { code: 'csf.unsorted-index', offset: eo + 8 * e };
      prev = idx;
    }
  }
  return undefined;
}

/** Splits bytes at the given cut points. */
function chunks(b: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (b.length + 1)))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let p = 0;
  for (const c of [...at, b.length]) {
    out.push(b.subarray(p, c));
    p = c;
  }
  return out;
}

describe('csf validator: corrupt-file oracles (§A.8.4)', () => {
  test('the good file passes', () => {
    const v = validateCsf(A);
    assert.equal(v.ok, true);
    assert.deepEqual(v.issues, []);
    assert.deepEqual(v.header, { order: 2, shape: [2, 3], nnz: 3, fibers: 2, density: 0.5 });
  });
  for (const c of oracles.corrupt) {
    test(`${c.name}: ${c.code} (${c.rule}) at offset ${c.offset}`, () => {
      const bytes = hex(c.hex);
      const v = validateCsf(bytes);
      assert.equal(v.ok, false);
      assert.equal(v.issues.length, 1);
      assert.deepEqual(first(v), { code: c.code, rule: c.rule, offset: c.offset });
      assert.deepEqual(reference(bytes), { code: c.code, offset: c.offset });
      // every split into two chunks, and one byte at a time, give the same verdict
      for (let cut = 0; cut <= bytes.length; cut++) assert.deepEqual(validateCsfChunks([bytes.subarray(0, cut), bytes.subarray(cut)]).issues, v.issues);
      assert.deepEqual(validateCsfChunks(Array.from(bytes, (_, k) => bytes.subarray(k, k + 1))).issues, v.issues);
    });
  }

  test('messages say what was expected and what was found', () => {
    const msg = (h: string) => validateCsf(hex(h)).issues[0].message;
    const c = Object.fromEntries(oracles.corrupt.map((x: { name: string; hex: string }) => [x.name, x.hex]));
    assert.match(msg(c['header cut']), /expected 8 bytes for the shape .* found 2 bytes/);
    assert.match(msg(c['last byte cut']), /expected 12 bytes for the 3 pointers .* at offset 44, found 11 bytes/);
    assert.match(msg(c['nnz overstated (4, body unchanged): P is read at 48 and is 1']), /expected the pointer count P = F \+ 1 = 3 .* found 1/);
    assert.match(msg(c['ptr = [1,1,3]']), /ptr\[0\] must be 0 .* found 1/);
    assert.match(msg(c['ptr = [0,1,2]']), /ptr\[2\] must equal nnz = 3, found 2/);
    assert.match(msg(c['ptr = [0,4,3]: reported at ptr[2], where the decrease is seen']), /expected ptr\[2\] ≥ ptr\[1\] = 4, found 3/);
    assert.match(msg(c['3rd entry index 3']), /entry 2 \(fiber 1, x\[1, :\]\) has index 3, expected an index below shape\[1\] = 3/);
    assert.match(msg(c['row 1 entries (2,…),(0,…)']), /has index 0 after index 2/);
    assert.match(msg(c['row 1 entries (0,…),(0,…)']), /repeats index 0/);
    assert.match(msg(c['3rd entry ffffffff / 0.0']), /0xFFFFFFFF/);
    assert.match(msg(c['+4 zero bytes']), /end after the last pointer at offset 56, found 4 more bytes/);
  });
});

describe('csf validator: every rule', () => {
  const cases: [string, Uint8Array, string, string, number][] = [
    ['empty file', new Uint8Array(0), 'csf.truncated-header', 'V1', 0],
    ['3 bytes', new Uint8Array([1, 0, 0]), 'csf.truncated-header', 'V1', 0],
    ['order 11', words(11), 'csf.order-too-large', 'V3', 0],
    ['order 0xFFFFFFFF (no allocation from the count)', words(0xffffffff), 'csf.order-too-large', 'V3', 0],
    ['F = 2^32 fibers', words(3, 65536, 65536, 1, 0), 'csf.count-overflow', 'V5', 4],
    ['F = 2^32 − 1 fibers (P would not fit)', words(3, 65535, 65537, 1, 0), 'csf.count-overflow', 'V5', 4],
    ['F = 2^32 − 2 fibers passes V5', words(3, 2, 2147483647, 1), 'csf.truncated-header', 'V6', 16],
    ['nnz missing', words(2, 2, 3), 'csf.truncated-header', 'V6', 12],
    ['nnz = 2^32 − 1 on a short file', words(2, 2, 3, 0xffffffff, 1, 2), 'csf.truncated-entries', 'V6', 16],
    ['pointer count missing after the entries', words(1, 4, 1, 2, f32(1)), 'csf.truncated-entries', 'V6', 12],
    ['pointers missing', words(1, 4, 1, 2, f32(1), 2), 'csf.truncated-pointers', 'V8', 24],
    ['P = 0', words(1, 4, 0, 0), 'csf.pointer-count-mismatch', 'V7', 12],
    ['last extent 0 with an entry', words(2, 1, 0, 1, 0, 0, 2, 0, 1), 'csf.index-out-of-range', 'V14', 16],
    ['sentinel is V13 even though it is also out of range', words(1, 4, 1, 0xffffffff, 0, 2, 0, 1), 'csf.empty-sentinel', 'V13', 12],
    ['trailing bytes are reported before bad pointers (V9 first)', new Uint8Array([...words(1, 4, 0, 2, 5, 0), 9]), 'csf.trailing-bytes', 'V9', 24],
    ['bad pointers are reported before bad entries', words(1, 4, 2, 9, 0, 9, 0, 2, 1, 2), 'csf.first-pointer-nonzero', 'V10', 32],
    [
      'the first entry error wins: out of range at entry 0 before the unsorted entries after it',
      words(1, 4, 3, 7, 0, 1, 0, 0, 0, 2, 0, 3),
      'csf.index-out-of-range',
      'V14',
      12,
    ],
  ];
  for (const [name, bytes, code, rule, offset] of cases)
    test(`${name}: ${code} (${rule}) at ${offset}`, () => {
      const v = validateCsf(bytes);
      assert.deepEqual(first(v), { code, rule, offset });
      assert.deepEqual(reference(bytes), { code, offset });
    });

  test('maxOrder is configurable', () => {
    const o11 = encodeCsf(denseToCsf(new Float32Array(1), new Array(11).fill(1), { maxOrder: 11 }), { maxOrder: 11 });
    assert.equal(first(validateCsf(o11))?.code, 'csf.order-too-large');
    assert.equal(validateCsf(o11, { maxOrder: 11 }).ok, true);
  });

  test('zero extents are degenerate but valid', () => {
    assert.equal(validateCsf(words(2, 0, 3, 0, 1, 0)).ok, true);
    assert.equal(validateCsf(words(2, 2, 0, 0, 3, 0, 0, 0)).ok, true);
    assert.equal(first(validateCsf(words(2, 0, 3, 0, 2, 0, 0)))?.code, 'csf.pointer-count-mismatch');
  });

  test('empty fibers between and around entries are fine (fiber starts reset the order)', () => {
    const v = validateCsf(words(2, 4, 3, 3, 2, 0, 0, 0, 1, 0, 5, 0, 0, 1, 1, 3));
    assert.equal(v.ok, true, JSON.stringify(v.issues));
  });

  test('allowTrailing turns V9 into a warning', () => {
    const bytes = hex(oracles.corrupt.find((c: { rule: string }) => c.rule === 'V9').hex);
    const v = validateCsf(bytes, { allowTrailing: true });
    assert.equal(v.ok, true);
    assert.equal(v.issues[0].severity, 'warning');
    assert.equal(openCsf(bytes, { allowTrailing: true }).ok, true);
    assert.equal(openCsf(bytes).ok, false);
  });

  test('dropEmptySentinel: a warning, the entry is skipped by V14/V15 and removed by parseCsf', () => {
    // fiber 0 = [5], fiber 1 = [sentinel, 3]: without the sentinel, 3 starts fiber 1
    const bytes = words(2, 2, 8, 3, 5, f32(1), 0xffffffff, 0, 3, f32(2), 3, 0, 1, 3);
    assert.equal(first(validateCsf(bytes))?.code, 'csf.empty-sentinel');
    const v = validateCsf(bytes, { dropEmptySentinel: true });
    assert.equal(v.ok, true, JSON.stringify(v.issues));
    assert.equal(v.issues[0].severity, 'warning');
    const r = parseCsf(bytes, { dropEmptySentinel: true });
    assert.ok(r.ok);
    assert.deepEqual(Array.from(r.tensor.ptr), [0, 1, 2]);
    assert.deepEqual(Array.from(r.tensor.indices), [5, 3]);
    assert.deepEqual(Array.from(r.tensor.values), [1, 2]);
    // within one fiber, the entries around a sentinel are still compared
    const bad = words(1, 8, 3, 4, 0, 0xffffffff, 0, 3, 0, 2, 0, 3);
    const e = validateCsf(bad, { dropEmptySentinel: true }).issues.find((x) => x.severity === 'error');
    assert.deepEqual([e?.code, e?.offset], ['csf.unsorted-index', 28]);
  });

  test('maxIssues lists later entry errors in file order', () => {
    const bytes = words(2, 2, 4, 4, 9, 0, 1, 0, 1, 0, 0, 0, 3, 0, 1, 4);
    const v = validateCsf(bytes, { maxIssues: 10 });
    assert.deepEqual(
      v.issues.map((x) => [x.code, x.offset]),
      [
        ['csf.index-out-of-range', 16],
        ['csf.duplicate-index', 32],
        ['csf.unsorted-index', 40],
      ],
    );
  });

  test('keepPointers returns the fiber index; structure-only mode skips the entries', () => {
    const v = validateCsf(hex(oracles.valid.order3.hex), { keepPointers: true });
    assert.deepEqual(Array.from(v.pointers!), [0, 1, 1, 2, 3]);
    const bad = hex(oracles.corrupt.find((c: { rule: string }) => c.rule === 'V14').hex);
    assert.equal(validateCsf(bad, { checkEntries: false }).ok, true);
    assert.equal(validateCsf(bad).ok, false);
  });

  test('issues become editor diagnostics over a 16-byte-per-line hex dump', () => {
    const v = validateCsf(hex(oracles.corrupt.find((c: { rule: string }) => c.rule === 'V14').hex));
    const d = csfIssueToDiagnostic(v.issues[0]);
    assert.deepEqual(d.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 4 } });
    assert.equal(d.code, 'csf.index-out-of-range');
  });

  test('V14 on the unaligned read path: a file that does not start on a 4-byte boundary of its buffer', () => {
    // shape [2, 3], fiber 0 = [0, 2], fiber 1 = [idx]; the entries start at byte 16, the third at byte 32.
    // A Uint8Array at an odd byteOffset makes the validator read the index words through DataView, not Uint32Array.
    const file = (idx: number) => words(2, 2, 3, 3, 0, f32(1), 2, f32(2), idx, f32(3), 3, 0, 2, 3);
    const at = (bytes: Uint8Array, shift: number) => {
      const buf = new Uint8Array(bytes.length + shift + 3);
      buf.set(bytes, shift);
      return buf.subarray(shift, shift + bytes.length);
    };
    for (const shift of [1, 2, 3]) {
      assert.equal(validateCsf(at(file(1), shift)).ok, true, `shift ${shift}: the good file`);
      // 3 = shape[1] is the first index out of range; 0x7fffffff is far out
      for (const idx of [3, 0x7fffffff]) {
        const bytes = at(file(idx), shift);
        assert.notEqual((bytes.byteOffset + 32) % 4, 0);
        const v = validateCsf(bytes);
        assert.equal(v.ok, false, `shift ${shift}, index ${idx}`);
        assert.deepEqual(
          v.issues.map((x) => [x.code, x.rule, x.offset, x.length]),
          [['csf.index-out-of-range', 'V14', 32, 4]],
        );
        assert.match(v.issues[0].message, new RegExp(`entry 2 .* has index ${idx}, expected an index below shape\\[1\\] = 3`));
        assert.deepEqual(reference(bytes), { code: 'csf.index-out-of-range', offset: 32 });
        // in two chunks, each cut leaving the entries in an unaligned chunk
        for (let cut = 1; cut < 32; cut++) assert.deepEqual(validateCsfChunks([bytes.subarray(0, cut), bytes.subarray(cut)]).issues, v.issues);
      }
    }
  });
});

describe('csf validator: never throws, chunking never matters (property)', () => {
  const validFile = fc
    .tuple(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 2 ** 31 }))
    .map(([shape, seed]) => {
      const n = shape.reduce((a, b) => a * b, 1);
      let s = seed;
      const data = new Float32Array(n).map(() => ((s = (s * 1103515245 + 12345) >>> 0) % 3 === 0 ? (s % 7) - 3 : 0));
      return encodeCsf(denseToCsf(data, shape));
    });
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('word' as const), at: fc.nat(), value: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constant(0xffffffff), fc.nat()) }),
    fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), value: fc.constant(0) }),
    fc.record({ kind: fc.constant('append' as const), at: fc.integer({ min: 1, max: 9 }), value: fc.constant(0) }),
  );
  const mutate = (b: Uint8Array, ms: { kind: string; at: number; value: number }[]) => {
    let out = b.slice();
    for (const m of ms) {
      if (out.length === 0) break;
      if (m.kind === 'word' && out.length >= 4) new DataView(out.buffer).setUint32(4 * (m.at % Math.floor(out.length / 4)), m.value >>> 0, true);
      else if (m.kind === 'byte') out[m.at % out.length] = m.value;
      else if (m.kind === 'cut') out = out.slice(0, m.at % out.length);
      else if (m.kind === 'append') out = new Uint8Array([...out, ...new Uint8Array(m.at)]);
    }
    return out;
  };

  test('valid files pass', () => {
    fc.assert(fc.property(validFile, (b) => assert.equal(validateCsf(b).ok, true)));
  });

  test('random bytes: no throw, same verdict as the plain reading and for any chunking', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.array(fc.nat(), { maxLength: 6 }), (b, cuts) => {
        const v = validateCsf(b);
        assert.deepEqual(v.issues[0] ? { code: v.issues[0].code, offset: v.issues[0].offset } : undefined, reference(b));
        assert.deepEqual(validateCsfChunks(chunks(b, cuts)), v);
      }),
      { numRuns: 500 },
    );
  });

  test('mutated valid files: no throw, same first error as the plain reading, any chunking, openCsf agrees on structure', () => {
    fc.assert(
      fc.property(validFile, fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 5 }), (good, ms, cuts) => {
        const b = mutate(good, ms);
        const v = validateCsf(b);
        assert.deepEqual(v.issues[0] ? { code: v.issues[0].code, offset: v.issues[0].offset } : undefined, reference(b));
        const many = validateCsf(b, { maxIssues: 50 });
        assert.deepEqual(many.issues[0], v.issues[0]);
        assert.deepEqual(validateCsfChunks(chunks(b, cuts)), v);
        const o = openCsf(b);
        const structural = v.issues[0] && !['V13', 'V14', 'V15'].includes(v.issues[0].rule ?? '');
        if (structural) assert.deepEqual(!o.ok && o.issues, v.issues);
        else assert.equal(o.ok, true);
        if (v.ok && v.header!.shape[v.header!.order - 1] <= 2 ** 31) {
          // what reads back is written back byte for byte (writers refuse last extents above 2^31)
          const p = parseCsf(b);
          assert.ok(p.ok);
          assert.deepEqual(encodeCsf(p.tensor), b);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('a validator can be reused for nothing after finish, and push after an error is ignored', () => {
    const v = new CsfValidator();
    v.push(words(0));
    v.push(new Uint8Array(1000));
    assert.equal(v.finish().issues[0].code, 'csf.bad-order');
  });
});
