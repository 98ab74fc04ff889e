/** core/cexpr/operators: the C operators both constant evaluators (`>` statements, PCORE) apply. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { binaryOp, unaryOp } from '../../core/cexpr/operators';
import { evaluate } from '../../core/cexpr/evaluate';

const OPS = ['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^', '==', '!=', '<', '<=', '>', '>=', '&&', '||'];
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

test('on C ints both value domains give the same values, C int semantics', () => {
  fc.assert(
    fc.property(fc.constantFrom(...OPS), int32, int32, (op, l, r) => {
      assert.equal(binaryOp(op, l, r, 'int'), binaryOp(op, l, r, 'int-or-float'), `${l} ${op} ${r}`);
    }),
  );
  fc.assert(
    fc.property(fc.constantFrom('-', '+', '!', '~'), int32, (op, v) => {
      assert.equal(unaryOp(op, v, 'int'), unaryOp(op, v, 'int-or-float'));
    }),
  );
  assert.equal(binaryOp('/', -7, 2, 'int'), -3);
  assert.equal(binaryOp('%', -7, 2, 'int'), -1);
  assert.equal(binaryOp('+', 2 ** 31 - 1, 1, 'int'), -(2 ** 31));
  assert.equal(binaryOp('/', -(2 ** 31), -1, 'int'), -(2 ** 31));
  assert.equal(binaryOp('/', 1, 0, 'int'), undefined);
  assert.equal(binaryOp('%', 1, 0, 'int-or-float'), undefined);
  assert.equal(unaryOp('-', -(2 ** 31), 'int'), -(2 ** 31));
});

test('the domains differ on non-integers: int converts, int-or-float computes in floating point', () => {
  assert.equal(binaryOp('+', 2.5, 1, 'int'), 3);
  assert.equal(binaryOp('+', 2.5, 1, 'int-or-float'), 3.5);
  assert.equal(binaryOp('<<', 2.5, 1, 'int'), 4);
  assert.equal(binaryOp('<<', 2.5, 1, 'int-or-float'), undefined);
  assert.equal(binaryOp('%', 7.5, 2, 'int-or-float'), undefined);
  assert.equal(unaryOp('-', 0.5, 'int-or-float'), -0.5);
});

test('the > statement evaluator applies them with C precedence', () => {
  const none = () => undefined;
  assert.equal(evaluate('1 + 2 * 3 << 1', none), 14);
  assert.equal(evaluate('-7 / 2 + (3 > 2 && 4 != 4 ? 10 : 20)', none), 17);
  assert.equal(evaluate('0x7fffffff + 1', none), -(2 ** 31));
  assert.equal(evaluate('~0 & 0xff | 1 ^ 3', none), 0xff);
  assert.equal(
    evaluate('N * 2', (n) => (n === 'N' ? 2.5 : undefined)),
    4,
  ); // C int: N converted
});
