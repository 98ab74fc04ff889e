/**
 * Constant folding of PCORE/C syntax trees (array dimensions, `#if`): C `int` semantics (32-bit,
 * truncating division) for integers, floating values for float literals. The operators are those of
 * core/cexpr/operators.ts, shared with the `>`-statement evaluator; this file walks the tree
 * (short-circuit `&&`/`||`, `?:`, casts, commas).
 */
import { binaryOp, unaryOp } from '../cexpr/operators';
import type { Expr } from './ast';

export type NameResolver = (name: string) => number | undefined;

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
      return v === undefined ? undefined : unaryOp(e.op, v, 'int-or-float');
    }
    case 'Binary': {
      const l = evaluateConstant(e.left, names, d);
      if (l === undefined) return undefined;
      const r = evaluateConstant(e.right, names, d);
      if (r === undefined) return undefined;
      return binaryOp(e.op, l, r, 'int-or-float');
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
