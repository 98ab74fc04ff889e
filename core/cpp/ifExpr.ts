/**
 * Evaluation of a `#if` expression already macro-expanded, over tokens, as the host preprocessor
 * does it: values are JavaScript numbers wider than C's 32-bit `int` (`1 << 40` is 2^40, `+ - *` do
 * not wrap, `>>` divides by a power of two), both sides of `&&`, `||` and `?:` are evaluated (a
 * division by zero anywhere is an error), and problems throw through `fail`.
 *
 * PCORE evaluates `#if` differently, on purpose: its expression goes through the PCORE parser and
 * core/pcore/evaluate.ts (the operators of core/cexpr/operators.ts in their 'int-or-float' domain, with
 * C's short circuit), and anything that is not a constant makes the one diagnostic "invalid `#if`
 * expression". The precedence table is the one of core/cexpr/operators.ts for both.
 */
import { BINARY_PRECEDENCE, binaryOp } from '../cexpr/operators';

export interface IfExprInput<T> {
  text(t: T): string;
  /** Value of an operand token (a number, a character, a name left after expansion); may call `fail`. */
  operand(t: T): number;
  /** Throws the diagnostic; `t` undefined means the `#if` line itself. */
  fail(message: string, t?: T): never;
}

/** Value of the whole token list (non-zero: the branch is taken). */
export function evaluateIfExpression<T>(toks: readonly T[], input: IfExprInput<T>): number {
  const ev = new WideIfEvaluator(toks, input);
  return ev.run();
}

class WideIfEvaluator<T> {
  private i = 0;
  constructor(
    private readonly toks: readonly T[],
    private readonly input: IfExprInput<T>,
  ) {}

  run(): number {
    const v = this.cond();
    if (this.i < this.toks.length) this.input.fail(`unexpected '${this.input.text(this.toks[this.i])}' in #if expression`, this.toks[this.i]);
    return v;
  }

  private peek(): string | undefined {
    const t = this.toks[this.i];
    return t === undefined ? undefined : this.input.text(t);
  }

  private cond(): number {
    const c = this.bin(0);
    if (this.peek() === '?') {
      this.i++;
      const a = this.cond();
      if (this.peek() !== ':') this.input.fail("expected ':' in #if expression", this.toks[this.i]);
      this.i++;
      const b = this.cond();
      return c ? a : b;
    }
    return c;
  }

  private bin(min: number): number {
    let l = this.unary();
    for (;;) {
      const op = this.peek();
      const p = op !== undefined ? BINARY_PRECEDENCE[op] : undefined;
      if (op === undefined || p === undefined || p <= min) return l;
      this.i++;
      const r = this.bin(p);
      if ((op === '/' || op === '%') && r === 0) this.input.fail('division by zero in #if expression');
      l = wideBinary(op, l, r);
    }
  }

  private unary(): number {
    const t = this.toks[this.i];
    if (t === undefined) return this.input.fail('incomplete #if expression');
    this.i++;
    switch (this.input.text(t)) {
      case '-':
        return -this.unary();
      case '+':
        return this.unary();
      case '!':
        return this.unary() ? 0 : 1;
      case '~':
        return ~this.unary();
      case '(': {
        const v = this.cond();
        if (this.peek() !== ')') this.input.fail("expected ')' in #if expression", this.toks[this.i]);
        this.i++;
        return v;
      }
    }
    return this.input.operand(t);
  }
}

/**
 * A binary operator on wide values (see the file comment); `r` is not 0 for `/` and `%`. Comparisons,
 * logical and bitwise operators give what they give on C `int`s (bitwise ones work on 32 bits in both).
 */
function wideBinary(op: string, l: number, r: number): number {
  switch (op) {
    case '<<':
      return l * 2 ** r;
    case '>>':
      return Math.floor(l / 2 ** r);
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      return Math.trunc(l / r);
    case '%':
      return l % r;
  }
  return binaryOp(op, l, r, 'int') ?? l;
}
