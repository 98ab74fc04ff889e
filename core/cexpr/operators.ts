/**
 * C operators applied to constant operands: the one definition of what `+`, `/`, `<<`, `==`, `!`…
 * give, shared by the evaluator of `>`-statement expressions (evaluate.ts, text in, C `int` values) and
 * the PCORE constant folder (core/pcore/evaluate.ts, syntax tree in, also `#if`).
 *
 * The value domain is each side's difference:
 * - `'int'` (`>` statements): every value is a C `int` (32-bit, wrapping, division truncating toward
 *   zero); a non-integer value a name resolves to is converted where an operator needs an `int`.
 * - `'int-or-float'` (PCORE): integer operands as above; a non-integer operand (a float literal) is a C
 *   floating value: arithmetic and comparisons apply, bitwise operators, shifts and `%` have no constant
 *   value.
 * Division or remainder by zero has no value. `undefined` means "not a constant".
 */
export type CValueDomain = 'int' | 'int-or-float';

const toInt32 = (v: number): number => v | 0;

/** `op` applied to `l` and `r`; `&&` and `||` here are their values once both sides are known. */
export function binaryOp(op: string, l: number, r: number, domain: CValueDomain): number | undefined {
  const int = domain === 'int';
  const isInt = int || (Number.isInteger(l) && Number.isInteger(r));
  switch (op) {
    case '+':
      return isInt ? toInt32(l + r) : l + r;
    case '-':
      return isInt ? toInt32(l - r) : l - r;
    case '*':
      return isInt ? Math.imul(l, r) : l * r;
    case '/':
      if (r === 0) return undefined;
      return isInt ? toInt32(Math.trunc(l / r)) : l / r;
    case '%':
      if (r === 0 || !isInt) return undefined;
      return toInt32(l % r);
    case '<<':
      return isInt ? toInt32(l << (r & 31)) : undefined;
    case '>>':
      return isInt ? toInt32(l >> (r & 31)) : undefined;
    case '&':
      return isInt ? l & r : undefined;
    case '|':
      return isInt ? l | r : undefined;
    case '^':
      return isInt ? l ^ r : undefined;
    case '==':
      return l === r ? 1 : 0;
    case '!=':
      return l !== r ? 1 : 0;
    case '<':
      return l < r ? 1 : 0;
    case '<=':
      return l <= r ? 1 : 0;
    case '>':
      return l > r ? 1 : 0;
    case '>=':
      return l >= r ? 1 : 0;
    // 'int' keeps JavaScript truthiness (a NaN a name resolves to is false)
    case '&&':
      return (int ? l && r : l !== 0 && r !== 0) ? 1 : 0;
    case '||':
      return (int ? l || r : l !== 0 || r !== 0) ? 1 : 0;
  }
  return undefined;
}

/** Prefix `op` (`-`, `+`, `!`, `~`) applied to `v`. */
export function unaryOp(op: string, v: number, domain: CValueDomain): number | undefined {
  const int = domain === 'int';
  switch (op) {
    case '-':
      return int || Number.isInteger(v) ? toInt32(-v) : -v;
    case '+':
      return v;
    case '!':
      return (int ? !v : v === 0) ? 1 : 0;
    case '~':
      return ~toInt32(v);
  }
  return undefined;
}

/** Binding strength of each binary operator (higher binds tighter), as in C. */
export const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};
