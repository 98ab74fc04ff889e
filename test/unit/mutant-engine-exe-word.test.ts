/**
 * The DP_EXE_CMD word that EXE_LOCKSTEP and ztalib's command builder write (core/sim/engine/execute.ts), which
 * mutation testing (npm run mutate -- engine) found no unit test reaching: bit positions worked out by hand from the
 * layout 4 + func<<7 + (np−1)<<18 + lockstep<<23 + (nt−1)<<26, and the decoder reading back what was encoded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeExeWord, encodeExeWord } from '../../core/sim/engine/execute';

test('encodeExeWord puts func, np−1, the lockstep bit and nt−1 at their bits', () => {
  // 4 + 5·2^7 + 7·2^18 + 2^23 + 15·2^26 = 4 + 640 + 1835008 + 8388608 + 1006632960
  assert.equal(encodeExeWord(5, 8, 16), 1016857220);
  // one PCORE, one thread: only the command, func and lockstep bits
  assert.equal(encodeExeWord(0, 1, 1), 8388612);
  assert.equal(encodeExeWord(0x7ff, 1, 1), 4 + 0x7ff * 128 + 8388608);
  // func has 11 bits: 0x800 wraps to 0
  assert.equal(encodeExeWord(0x800, 1, 1), 8388612);
  assert.equal(encodeExeWord(1, 2, 2), 4 + 128 + 262144 + 8388608 + 67108864);
});

test('decodeExeWord reads back func, np and nt', () => {
  assert.deepEqual(decodeExeWord(1016857220), { func: 5, np: 8, nt: 16 });
  assert.deepEqual(decodeExeWord(8388612), { func: 0, np: 1, nt: 1 });
  for (const [func, np, nt] of [
    [0, 1, 1],
    [2047, 8, 16],
    [300, 3, 5],
    [1, 32, 16],
  ])
    assert.deepEqual(decodeExeWord(encodeExeWord(func, np, nt)), { func, np, nt });
});
