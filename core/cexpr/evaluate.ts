/**
 * Evaluation of C integer constant expressions as they appear inside `>` statements
 * (dimensions, indices, PAD values...). Values are 32-bit signed C `int`s.
 * Anything that is not a compile-time constant (a call, a field, an unknown name) makes
 * the result `undefined` — the checker then simply does not know the value.
 */
import { BINARY_PRECEDENCE, binaryOp, unaryOp } from './operators';

export type Resolver = (name: string) => number | undefined;

type Tok = { k: 'num'; v: number } | { k: 'id'; v: string } | { k: 'op'; v: string };

const OPS = ['<<=', '>>=', '->', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '++', '--', '::'];

function tokenize(src: string): Tok[] | undefined {
  const out: Tok[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c >= '0' && c <= '9') {
      const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)([uUlL]*)/.exec(src.slice(i, i + 40));
      if (!m) return undefined;
      const lit = m[1];
      let v: number;
      if (/^0[xX]/.test(lit)) v = parseInt(lit.slice(2), 16);
      else if (/^0[bB]/.test(lit)) v = parseInt(lit.slice(2), 2);
      else if (lit.length > 1 && lit[0] === '0') v = parseInt(lit, 8);
      else v = parseInt(lit, 10);
      if (!Number.isFinite(v)) return undefined;
      out.push({ k: 'num', v });
      i += m[0].length;
      if (/[.eE]/.test(src[i] ?? '')) return undefined; // floating point
      continue;
    }
    if (c === "'") {
      const m = /^'(\\.|[^\\'])'/.exec(src.slice(i, i + 4));
      if (!m) return undefined;
      const body = m[1];
      const esc: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, '\\': 92, "'": 39 };
      out.push({ k: 'num', v: body.length === 2 ? (esc[body[1]] ?? body.charCodeAt(1)) : body.charCodeAt(0) });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(src[j])) j++;
      out.push({ k: 'id', v: src.slice(i, j) });
      i = j;
      continue;
    }
    const three = src.slice(i, i + 3);
    const two = src.slice(i, i + 2);
    const op = OPS.find((o) => o === three || o === two);
    if (op) {
      out.push({ k: 'op', v: op });
      i += op.length;
      continue;
    }
    if ('+-*/%()<>!~&|^?:,[].'.includes(c)) {
      out.push({ k: 'op', v: c });
      i++;
      continue;
    }
    return undefined;
  }
  return out;
}

const C_TYPES = new Set([
  'int',
  'unsigned',
  'signed',
  'char',
  'short',
  'long',
  'bool',
  'void',
  'int8_t',
  'int16_t',
  'int32_t',
  'int64_t',
  'uint8_t',
  'uint16_t',
  'uint32_t',
  'uint64_t',
  'size_t',
  'uintptr_t',
]);

class Evaluator {
  private p = 0;
  constructor(
    private readonly t: Tok[],
    private readonly resolve: Resolver,
  ) {}

  run(): number | undefined {
    const v = this.ternary();
    return this.p === this.t.length ? v : undefined;
  }

  private peek(): Tok | undefined {
    return this.t[this.p];
  }

  private isOp(v: string): boolean {
    const t = this.t[this.p];
    return !!t && t.k === 'op' && t.v === v;
  }

  private ternary(): number | undefined {
    const c = this.binary(1);
    if (this.isOp('?')) {
      this.p++;
      const a = this.ternary();
      if (!this.isOp(':')) throw new Error('bad ternary');
      this.p++;
      const b = this.ternary();
      return c === undefined ? undefined : c ? a : b;
    }
    return c;
  }

  private binary(minPrec: number): number | undefined {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (!t || t.k !== 'op') return left;
      const prec = BINARY_PRECEDENCE[t.v];
      if (prec === undefined || prec < minPrec) return left;
      this.p++;
      const right = this.binary(prec + 1);
      left = left === undefined || right === undefined ? undefined : binaryOp(t.v, left, right, 'int');
    }
  }

  private unary(): number | undefined {
    const t = this.peek();
    if (!t) throw new Error('unexpected end');
    if (t.k === 'op') {
      if (t.v === '-' || t.v === '+' || t.v === '!' || t.v === '~') {
        this.p++;
        const v = this.unary();
        if (v === undefined) return undefined;
        return unaryOp(t.v, v, 'int');
      }
      if (t.v === '(') {
        // cast?
        const next = this.t[this.p + 1];
        if (next && next.k === 'id' && C_TYPES.has(next.v)) {
          let q = this.p + 1;
          while (q < this.t.length && ((this.t[q].k === 'id' && C_TYPES.has(this.t[q].v as string)) || (this.t[q].k === 'op' && this.t[q].v === '*'))) q++;
          if (this.t[q] && this.t[q].k === 'op' && this.t[q].v === ')') {
            this.p = q + 1;
            return this.unary();
          }
        }
        this.p++;
        const v = this.ternary();
        if (!this.isOp(')')) throw new Error('missing )');
        this.p++;
        return this.postfix(v);
      }
      throw new Error('unexpected ' + t.v);
    }
    this.p++;
    if (t.k === 'num') return this.postfix(t.v | 0);
    if (t.v === 'sizeof') {
      this.skipOperand();
      return undefined;
    }
    if (t.v === 'true') return 1;
    if (t.v === 'false') return 0;
    return this.postfix(this.resolve(t.v));
  }

  /** Member access, calls and indexing make a value unknown but must still parse. */
  private postfix(v: number | undefined): number | undefined {
    for (;;) {
      if (this.isOp('.') || this.isOp('->')) {
        this.p += 2;
        v = undefined;
      } else if (this.isOp('(') || this.isOp('[')) {
        this.skipGroup();
        v = undefined;
      } else return v;
    }
  }

  private skipGroup(): void {
    let depth = 0;
    do {
      const t = this.t[this.p++];
      if (!t) throw new Error('unbalanced');
      if (t.k === 'op' && (t.v === '(' || t.v === '[')) depth++;
      else if (t.k === 'op' && (t.v === ')' || t.v === ']')) depth--;
    } while (depth > 0);
  }

  private skipOperand(): void {
    if (this.isOp('(')) this.skipGroup();
    else this.unary();
  }
}

/** Token lists of recently seen expression texts (programs repeat the same few expressions). */
const tokCache = new Map<string, Tok[] | undefined>();

function tokensOf(text: string): Tok[] | undefined {
  let t = tokCache.get(text);
  if (t === undefined && !tokCache.has(text)) {
    t = tokenize(text);
    if (tokCache.size > 20000) tokCache.clear();
    tokCache.set(text, t);
  }
  return t;
}

/** Evaluates `text` as a C integer constant expression; `undefined` when unknown or not an expression. */
export function evaluate(text: string, resolve: Resolver): number | undefined {
  const toks = tokensOf(text);
  if (!toks || toks.length === 0) return undefined;
  try {
    return new Evaluator(toks, resolve).run();
  } catch {
    return undefined;
  }
}

/** Identifiers (not after `.`/`->`) that an expression uses, in order, without duplicates. */
export function identifiers(text: string): string[] {
  const toks = tokensOf(text) ?? [];
  const out: string[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.k !== 'id') continue;
    const prev = toks[i - 1];
    if (prev && prev.k === 'op' && (prev.v === '.' || prev.v === '->')) continue;
    if (!out.includes(t.v)) out.push(t.v);
  }
  return out;
}
