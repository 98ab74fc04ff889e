/**
 * FOR prefixes, as mutation testing (npm run mutate -- check) found them unasserted: a FOR name declared twice (dropped
 * silently, or a compiler abort when a level is bound to no FOR), `FOR(I=$)` and stepped ranges written back in
 * messages as the user wrote them, the index reported when a FOR name is used twice (the second use, wherever it
 * stands), and an unused FOR between used ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../helpers/tprog';

const program = (body: string) => `#include <stdint.h>\nvoid f(uint32_t p, uint32_t q) {\n${body}\n}\n`;

/** [code, severity, start, end, message] of every diagnostic of a one-line statement (line 2). */
function found(body: string): [string, string, number, number, string][] {
  return analyze(program(body), undefined, 'ztachip').diagnostics.map((d) => {
    assert.equal(d.range.start.line, 2);
    return [d.code, d.severity, d.range.start.character, d.range.end.character, d.message];
  });
}

test('a FOR name declared twice: the second FOR is dropped, or the compiler aborts when a level has no FOR', () => {
  const dropped = '> FOR(I=0:3) FOR(I=0:1) DTYPE(INT16)MEM(p,4)[I] <= DTYPE(INT16)MEM(q)[0:3];';
  // the second FOR's name, at 17
  assert.deepEqual(found(dropped), [
    [
      'tprog.for-duplicate',
      'error',
      17,
      18,
      'FOR name I is declared twice in this term: every `[I]` takes the first FOR(I=0:3), so this FOR is never used: the compiler silently drops its ' +
        'range. Give this FOR its own name, e.g. `FOR(I2=0:1)`, and write `[I2]` at the index it should reorder',
    ],
  ]);
  const aborts = '> FOR(I=0:3) FOR(I=0:1) DTYPE(INT16)MEM(p,4,4)[I][0:1] <= DTYPE(INT16)MEM(q)[0:7];';
  const [d] = found(aborts);
  assert.deepEqual(d.slice(0, 4), ['tprog.for-duplicate', 'error', 17, 18]);
  assert.match(d[4], /so this FOR is never used and the ztachip compiler aborts on this term \(assertion `index < MAX_DP_STRIDE`/);
});

test('FOR ranges are written back as given: $ and begin:step:end', () => {
  const ph = '> FOR(I=$) DTYPE(INT16)MEM(p,4)[0:3] <= DTYPE(INT16)MEM(q)[0:3];';
  const [a] = found(ph);
  assert.deepEqual(a.slice(0, 4), ['tprog.for-unused', 'error', 2, 10]);
  assert.match(a[4], /^FOR\(I=\$\) is not used by any index of this term/);
  const stepped = '> FOR(I=0:3) FOR(J=0:2:7) DTYPE(INT16)MEM(p,4)[I] <= DTYPE(INT16)MEM(q)[0:3];';
  const [b] = found(stepped);
  assert.deepEqual(b.slice(0, 4), ['tprog.for-unused', 'warning', 13, 25]);
  assert.match(b[4], /^FOR\(J=0:2:7\) is not used by any index of this term; the ztachip compiler ignores it here/);
});

test('a FOR name used twice is reported at its second use, not at the index after the first', () => {
  const s = '> FOR(I=0:3) FOR(J=0:1) DTYPE(INT16)MEM(p,4,2,2)[I][J][I] <= DTYPE(INT16)MEM(q)[0:15];';
  // indices [I] at 48, [J] at 51, [I] at 54
  assert.deepEqual(found(s), [
    ['tprog.for-twice', 'error', 54, 57, 'FOR variable I is used by 2 indices of this term; the compiler silently programs wrong loops. Use it once.'],
  ]);
});

test('an unused FOR between used ones shifts a later level: the compiler aborts', () => {
  const s = '> FOR(I=0:3) FOR(J=0:1) FOR(K=0:1) DTYPE(INT16)MEM(p,4,2)[I][K] <= DTYPE(INT16)MEM(q)[0:7];';
  const [d] = found(s);
  assert.deepEqual(d.slice(0, 4), ['tprog.for-unused', 'error', 13, 23]);
  assert.match(d[4], /^FOR\(J=0:1\) is not used by any index of this term, and the ztachip compiler aborts/);
  // every FOR used: nothing to say
  assert.deepEqual(found('> FOR(I=0:3) FOR(J=0:1) FOR(K=0:1) DTYPE(INT16)MEM(p,4,2,2)[I][J][K] <= DTYPE(INT16)MEM(q)[0:15];'), []);
});
