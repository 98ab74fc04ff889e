/**
 * Constant folding of PCORE/C expressions with C `int` semantics (32-bit, truncating division).
 */
import type { Expr } from './ast';

export type NameResolver = (name: string) => number | undefined;

function toInt32(v: number): number {
  return v | 0;
}

/**
 * Value of a constant expression, or undefined when it is not constant (unknown identifier,
 * division by zero, unsupported construct). `names` may resolve identifiers (e.g. `#if` evaluation).
 */
export function evaluateConstant(e: Expr, names?: NameResolver, depth = 0): number | undefined {
  if (depth > 400) return undefined;
  const d = depth + 1;
  switch (e.kind) {
    case 'NumberLiteral':
      return e.value;
    case 'Identifier':
      return names ? names(e.name) : undefined;
    case 'Unary': {
      if (e.op === '&' || e.op === '*') return undefined;
      const v = evaluateConstant(e.argument, names, d);
      if (v === undefined) return undefined;
      switch (e.op) {
        case '-': return Number.isInteger(v) ? toInt32(-v) : -v;
        case '+': return v;
        case '!': return v === 0 ? 1 : 0;
        case '~': return ~toInt32(v);
      }
      return undefined;
    }
    case 'Binary': {
      const l = evaluateConstant(e.left, names, d);
      if (l === undefined) return undefined;
      const r = evaluateConstant(e.right, names, d);
      if (r === undefined) return undefined;
      const isInt = Number.isInteger(l) && Number.isInteger(r);
      switch (e.op) {
        case '+': return isInt ? toInt32(l + r) : l + r;
        case '-': return isInt ? toInt32(l - r) : l - r;
        case '*': return isInt ? Math.imul(l, r) : l * r;
        case '/':
          if (r === 0) return undefined;
          return isInt ? toInt32(Math.trunc(l / r)) : l / r;
        case '%':
          if (r === 0 || !isInt) return undefined;
          return toInt32(l % r);
        case '<<': return isInt ? toInt32(l << (r & 31)) : undefined;
        case '>>': return isInt ? toInt32(l >> (r & 31)) : undefined;
        case '&': return isInt ? l & r : undefined;
        case '|': return isInt ? l | r : undefined;
        case '^': return isInt ? l ^ r : undefined;
        case '==': return l === r ? 1 : 0;
        case '!=': return l !== r ? 1 : 0;
        case '<': return l < r ? 1 : 0;
        case '<=': return l <= r ? 1 : 0;
        case '>': return l > r ? 1 : 0;
        case '>=': return l >= r ? 1 : 0;
      }
      return undefined;
    }
    case 'Logical': {
      const l = evaluateConstant(e.left, names, d);
      if (l === undefined) return undefined;
      if (e.op === '&&' && l === 0) return 0;
      if (e.op === '||' && l !== 0) return 1;
      const r = evaluateConstant(e.right, names, d);
      if (r === undefined) return undefined;
      return r !== 0 ? 1 : 0;
    }
    case 'Conditional': {
      const t = evaluateConstant(e.test, names, d);
      if (t === undefined) return undefined;
      return evaluateConstant(t !== 0 ? e.consequent : e.alternate, names, d);
    }
    case 'Cast': {
      const v = evaluateConstant(e.argument, names, d);
      if (v === undefined || e.pointer > 0) return undefined;
      const n = e.type.name;
      if (n === 'int' || n === 'unsigned int' || n === 'int16' || n === 'int32') return Math.trunc(v);
      return undefined;
    }
    case 'Sequence': {
      let last: number | undefined;
      for (const x of e.expressions) {
        last = evaluateConstant(x, names, d);
        if (last === undefined) return undefined;
      }
      return last;
    }
    default:
      return undefined;
  }
}
