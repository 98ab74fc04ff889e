/**
 * Lexer and parser of `.tlayout` files (grammar in docs/tlayout.md). Statements end at a newline or
 * `;` outside brackets, so pasted multi-line Python calls work. Every error is recorded with its
 * exact span and parsing resumes at the next argument, list item or statement; it never throws.
 */
import type {
  Arg,
  CallValue,
  Comment,
  DimItem,
  Ident,
  LayoutFile,
  ListValue,
  NameValue,
  ProbeStmt,
  Span,
  Stmt,
  SyntaxError,
  TargetStmt,
  TensorStmt,
  UnitSel,
  Value,
} from './ast';
import { STATEMENT_KEYWORDS } from './ast';

export type TokKind = 'ident' | 'number' | 'dims' | 'string' | 'punct' | 'newline' | 'eof' | 'bad';

export interface Token {
  kind: TokKind;
  text: string;
  start: number;
  end: number;
  /** First token on its line. */
  bol: boolean;
  value?: number;
  dims?: number[];
  /** Lexical problem (bad number, unterminated string, stray character). */
  problem?: string;
}

const UNITS: Record<string, number> = Object.setPrototypeOf(
  { B: 1, K: 1024, KB: 1000, KiB: 1024, M: 2 ** 20, MB: 1e6, MiB: 2 ** 20, G: 2 ** 30, GB: 1e9, GiB: 2 ** 30, T: 2 ** 40, TB: 1e12, TiB: 2 ** 40 },
  null,
);
const PUNCT = '[](){},:=+-.@;*';

const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isIdChar = (c: string) => isIdStart(c) || isDigit(c);

/** Tokens (comments collected separately). */
export function lex(text: string): { tokens: Token[]; comments: Comment[] } {
  const lexer = new Lexer(text);
  const tokens: Token[] = [];
  for (let t = lexer.next(); ; t = lexer.next()) {
    tokens.push(t);
    if (t.kind === 'eof') break;
  }
  return { tokens, comments: lexer.comments };
}

/**
 * Tokens one at a time, from `from` to `to` (offsets are the text's): the parser keeps only the few
 * it looks at, so its memory follows the statements it builds, not the number of tokens.
 */
export class Lexer {
  readonly comments: Comment[] = [];
  private i: number;
  private bol = true;
  private readonly n: number;

  constructor(
    private readonly text: string,
    from = 0,
    to = text.length,
  ) {
    this.i = from;
    this.n = to;
  }

  next(): Token {
    const text = this.text;
    const n = this.n;
    const comments = this.comments;
    let i = this.i;
    const push = (t: Omit<Token, 'bol'>): Token => {
      this.i = i;
      const tok = t as Token;
      tok.bol = this.bol;
      this.bol = false;
      return tok;
    };
    while (i < n) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\f' || c === '\v' || c === '\u00a0' || c === '\ufeff') {
        i++;
        continue;
      }
      if (c === '\n' || c === '\r') {
        const s = i;
        i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
        const tok: Token = { kind: 'newline', text: text.slice(s, i), start: s, end: i, bol: this.bol };
        this.i = i;
        this.bol = true;
        return tok;
      }
      if (c === '#' || (c === '/' && text[i + 1] === '/')) {
        const s = i;
        while (i < n && text[i] !== '\n' && text[i] !== '\r') i++;
        comments.push({ span: { start: s, end: i }, text: text.slice(s, i) });
        continue;
      }
      if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
        const s = i;
        let problem: string | undefined;
        let value: number;
        let dims: number[] | undefined;
        if (c === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X') && /[0-9a-fA-F]/.test(text[i + 2] ?? '')) {
          i += 2;
          while (i < n && /[0-9a-fA-F_]/.test(text[i])) i++;
          value = parseInt(text.slice(s + 2, i).replace(/_/g, ''), 16);
        } else if (c === '0' && (text[i + 1] === 'b' || text[i + 1] === 'B') && /[01]/.test(text[i + 2] ?? '')) {
          i += 2;
          while (i < n && /[01_]/.test(text[i])) i++;
          value = parseInt(text.slice(s + 2, i).replace(/_/g, ''), 2);
        } else {
          while (i < n && (isDigit(text[i]) || text[i] === '_')) i++;
          if (text[i] === '.' && isDigit(text[i + 1] ?? '')) {
            i++;
            while (i < n && isDigit(text[i])) i++;
          }
          if (
            (text[i] === 'e' || text[i] === 'E') &&
            (isDigit(text[i + 1] ?? '') || ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text[i + 2] ?? '')))
          ) {
            i += 2;
            while (i < n && isDigit(text[i])) i++;
          }
          value = Number(text.slice(s, i).replace(/_/g, ''));
          // NxM dims
          if ((text[i] === 'x' || text[i] === 'X') && isDigit(text[i + 1] ?? '') && Number.isInteger(value)) {
            dims = [value];
            while ((text[i] === 'x' || text[i] === 'X') && isDigit(text[i + 1] ?? '')) {
              i++;
              const d0 = i;
              while (i < n && isDigit(text[i])) i++;
              dims.push(Number(text.slice(d0, i)));
            }
          }
        }
        if (!dims && isIdStart(text[i] ?? '')) {
          const u0 = i;
          while (i < n && isIdChar(text[i])) i++;
          const u = text.slice(u0, i);
          if (UNITS[u] !== undefined) value *= UNITS[u];
          else problem = `unexpected '${u}' after the number ${text.slice(s, u0)} (sizes take B, KiB, MiB, GiB, KB, MB, GB)`;
        }
        if (!dims && !problem && !Number.isInteger(value)) problem = `${text.slice(s, i)} is not a whole number`;
        if (dims) return push({ kind: 'dims', text: text.slice(s, i), start: s, end: i, dims, value: dims[0] });
        return push({ kind: 'number', text: text.slice(s, i), start: s, end: i, value, problem });
      }
      if (isIdStart(c)) {
        const s = i;
        while (i < n && isIdChar(text[i])) i++;
        return push({ kind: 'ident', text: text.slice(s, i), start: s, end: i });
      }
      if (c === '"' || c === "'") {
        const s = i;
        i++;
        while (i < n && text[i] !== c && text[i] !== '\n' && text[i] !== '\r') i += text[i] === '\\' ? 2 : 1;
        const closed = text[i] === c;
        if (closed) i++;
        return push({
          kind: 'string',
          text: text.slice(s, Math.min(i, n)),
          start: s,
          end: Math.min(i, n),
          problem: closed ? undefined : 'unterminated string',
        });
      }
      if (PUNCT.includes(c)) {
        i++;
        return push({ kind: 'punct', text: c, start: i - 1, end: i });
      }
      const cp = text.codePointAt(i)!;
      const len = cp > 0xffff ? 2 : 1;
      i += len;
      return push({ kind: 'bad', text: text.slice(i - len, i), start: i - len, end: i, problem: `unexpected character '${text.slice(i - len, i)}'` });
    }
    this.i = i;
    return { kind: 'eof', text: '', start: n, end: n, bol: this.bol };
  }
}

const CLOSE: Record<string, string> = { '[': ']', '(': ')', '{': '}' };
/** Values nested deeper than this are skipped with an error (the parser recurses once per level). */
const MAX_NEST = 256;
/**
 * Items a bracketed list (a shape, a list value, a call's arguments) may hold: far above any real
 * rank, shape or argument list. Later items are parsed but not kept, and reported once: a
 * 10-million-item list took gigabytes of syntax tree.
 */
export const MAX_LIST_ITEMS = 1024;

class Parser {
  private i = 0;
  private depth = 0;
  /** Values being parsed, one inside the other. */
  private nest = 0;
  readonly errors: SyntaxError[] = [];
  private lastEnd = 0;
  /** Tokens from index `base` on that the lexer has given (the ones before `i` are dropped now and then). */
  private toks: Token[] = [];
  private base = 0;
  private eof?: Token;

  constructor(
    private readonly lexer: Lexer,
    private readonly text: string,
  ) {}

  private raw(k: number): Token {
    const toks = this.toks;
    while (k - this.base >= toks.length) {
      if (this.eof) return this.eof;
      const t = this.lexer.next();
      if (t.kind === 'eof') this.eof = t;
      toks.push(t);
    }
    return toks[k - this.base];
  }

  /** Forgets the tokens before the current one (they are never looked at again). */
  private compact(): void {
    this.toks = this.toks.slice(this.i - this.base);
    this.base = this.i;
  }

  /** Next significant token (newlines are insignificant inside brackets). */
  peek(ahead = 0): Token {
    let k = this.i;
    for (;;) {
      const t = this.raw(k);
      if (t.kind === 'newline' && this.depth > 0) {
        k++;
        continue;
      }
      if (ahead === 0) return t;
      ahead--;
      k++;
    }
  }

  next(): Token {
    for (;;) {
      const t = this.raw(this.i);
      if (t.kind === 'eof') return t;
      this.i++;
      if (this.i - this.base >= 4096) this.compact();
      if (t.kind === 'newline' && this.depth > 0) continue;
      if (t.kind !== 'newline') this.lastEnd = t.end;
      if (t.problem) this.error(t, t.problem);
      return t;
    }
  }

  private error(span: Span, message: string, fix?: SyntaxError['fix']): void {
    const last = this.errors[this.errors.length - 1];
    if (last && last.span.start === span.start && last.span.end === span.end) return;
    this.errors.push({ span: { start: span.start, end: span.end }, message, fix });
  }

  private isPunct(t: Token, p: string): boolean {
    return t.kind === 'punct' && t.text === p;
  }

  private atStmtEnd(t = this.peek()): boolean {
    return t.kind === 'newline' || t.kind === 'eof' || this.isPunct(t, ';');
  }

  /**
   * A statement at the start of a line: a statement keyword, or two words in a row (`tensr b: …`,
   * never valid inside brackets). A missing closing bracket must not swallow it.
   */
  private atNewStatement(t = this.peek()): boolean {
    if (!t.bol || t.kind !== 'ident') return false;
    if ((STATEMENT_KEYWORDS as readonly string[]).includes(t.text)) return true;
    let k = this.i;
    while (this.raw(k) !== t && this.raw(k).kind !== 'eof') k++;
    if (this.raw(k) !== t) return false;
    return this.raw(k + 1).kind === 'ident';
  }

  private describe(t: Token): string {
    if (t.kind === 'eof') return 'the end of the file';
    if (t.kind === 'newline') return 'the end of the line';
    return `'${t.text}'`;
  }

  private ident(): Ident {
    const t = this.next();
    return { text: t.text, span: { start: t.start, end: t.end } };
  }

  // ---- values

  parseValue(): Value {
    if (this.nest >= MAX_NEST) return this.skipTooDeep();
    this.nest++;
    try {
      return this.parseValue1();
    } finally {
      this.nest--;
    }
  }

  /** Skips a value nested too deeply, up to the next comma or close bracket of its level. */
  private skipTooDeep(): Value {
    const t = this.peek();
    this.error(t, `values are nested more than ${MAX_NEST} deep`);
    let d = 0;
    for (let x = this.peek(); x.kind !== 'eof' && !this.atNewStatement(x); x = this.peek()) {
      if (x.kind === 'punct' && CLOSE[x.text]) d++;
      else if (x.kind === 'punct' && ')]}'.includes(x.text)) {
        if (d === 0) break;
        d--;
      } else if (d === 0 && (this.isPunct(x, ',') || this.atStmtEnd(x))) break;
      this.next();
    }
    return { kind: 'error', span: { start: t.start, end: Math.max(t.start, this.lastEnd) } };
  }

  private parseValue1(): Value {
    const t = this.peek();
    if (this.isPunct(t, '-') && (this.peek(1).kind === 'number' || this.peek(1).kind === 'dims')) {
      this.next();
      const num = this.next();
      return { kind: 'num', value: -(num.value ?? 0), raw: this.text.slice(t.start, num.end), span: { start: t.start, end: num.end } };
    }
    if (t.kind === 'number') {
      this.next();
      return { kind: 'num', value: t.value ?? NaN, raw: t.text, span: { start: t.start, end: t.end } };
    }
    if (t.kind === 'dims') {
      this.next();
      return { kind: 'dims', values: t.dims!, raw: t.text, span: { start: t.start, end: t.end } };
    }
    if (t.kind === 'string') {
      this.next();
      const body = t.text.length >= 2 && t.text[t.text.length - 1] === t.text[0] ? t.text.slice(1, -1) : t.text.slice(1);
      return { kind: 'str', value: body.replace(/\\(.)/g, '$1'), span: { start: t.start, end: t.end } };
    }
    if (t.kind === 'ident') {
      const name = this.parseName();
      if (this.isPunct(this.peek(), '(')) return this.maybeRange(this.parseCall(name));
      return name;
    }
    if (t.kind === 'punct' && CLOSE[t.text]) return this.maybeRange(this.parseList());
    this.error(t, `expected a value, found ${this.describe(t)}`);
    if (!this.atStmtEnd(t) && !(t.kind === 'punct' && ')]},'.includes(t.text)) && !this.atNewStatement(t)) this.next();
    return { kind: 'error', span: { start: t.start, end: t.end } };
  }

  private maybeRange(v: Value): Value {
    const t = this.peek();
    if (this.isPunct(t, '-') && (this.isPunct(this.peek(1), '(') || this.peek(1).kind === 'ident')) {
      this.next();
      const to = this.parseValue();
      return { kind: 'range', from: v, to, span: { start: v.span.start, end: to.span.end } };
    }
    return v;
  }

  private parseName(): NameValue {
    const parts: Ident[] = [this.ident()];
    while (this.isPunct(this.peek(), '.') && this.peek(1).kind === 'ident') {
      this.next();
      parts.push(this.ident());
    }
    if (this.isPunct(this.peek(), '.')) {
      const dot = this.next();
      this.error(dot, `expected a name after '.'`);
    }
    const span = { start: parts[0].span.start, end: parts[parts.length - 1].span.end };
    return { kind: 'name', parts, text: parts.map((p) => p.text).join('.'), span };
  }

  /** Items up to the matching close bracket; `item` parses one and returns undefined when nothing was consumed. */
  private bracketed<T>(item: () => T, open: Token): { items: T[]; end: number } {
    const close = CLOSE[open.text];
    const items: T[] = [];
    let tooMany = false;
    this.depth++;
    let end = open.end;
    for (;;) {
      const t = this.peek();
      if (this.isPunct(t, close)) {
        this.next();
        end = t.end;
        break;
      }
      if (t.kind === 'eof' || this.atNewStatement(t) || (this.depth === 1 && this.isPunct(t, ';'))) {
        this.error({ start: open.start, end: open.end }, `'${open.text}' is not closed: expected '${close}'`, {
          title: `Insert '${close}'`,
          span: { start: this.lastEnd, end: this.lastEnd },
          newText: close,
        });
        end = this.lastEnd;
        break;
      }
      if (t.kind === 'punct' && ')]}'.includes(t.text)) {
        this.error(t, `expected '${close}', found '${t.text}'`);
        this.next();
        end = t.end;
        break;
      }
      const before = this.i;
      const it = item();
      if (items.length < MAX_LIST_ITEMS) items.push(it);
      else if (!tooMany) {
        tooMany = true;
        const sp = (it as { span?: Span }).span ?? t;
        this.error({ start: sp.start, end: sp.end }, `more than ${MAX_LIST_ITEMS} items in one list; the rest are not read`);
      }
      const s = this.peek();
      if (this.isPunct(s, ',')) {
        this.next();
        continue;
      }
      if (this.isPunct(s, close)) continue;
      if (s.kind === 'eof' || this.atNewStatement(s)) continue;
      this.error(s, `expected ',' or '${close}', found ${this.describe(s)}`);
      // resynchronise at the next comma or close bracket of this level
      let d = 0;
      while (this.peek().kind !== 'eof' && !this.atNewStatement()) {
        const x = this.peek();
        if (x.kind === 'punct' && CLOSE[x.text]) d++;
        else if (x.kind === 'punct' && ')]}'.includes(x.text)) {
          if (d === 0) break;
          d--;
        } else if (d === 0 && this.isPunct(x, ',')) break;
        this.next();
      }
      if (this.isPunct(this.peek(), ',')) this.next();
      if (this.i === before) this.next();
    }
    this.depth--;
    return { items, end };
  }

  private parseList(): ListValue {
    const open = this.next();
    const { items, end } = this.bracketed(() => this.parseValue(), open);
    return { kind: 'list', open: open.text as ListValue['open'], items, span: { start: open.start, end } };
  }

  private parseCall(callee: NameValue): CallValue {
    const open = this.next();
    const { items, end } = this.bracketed((): Arg => {
      const t = this.peek();
      if (t.kind === 'ident' && this.isPunct(this.peek(1), '=')) {
        const name = this.ident();
        this.next();
        const value = this.parseValue();
        return { name, value, span: { start: name.span.start, end: value.span.end } };
      }
      const value = this.parseValue();
      return { value, span: value.span };
    }, open);
    return { kind: 'call', callee, args: items, argsSpan: { start: open.start, end }, span: { start: callee.span.start, end } };
  }

  /** `num (('+'|'*') num)*` folded into one number. */
  private parseAddress(): Value {
    const first = this.parseValue();
    if (first.kind !== 'num') {
      if (first.kind !== 'error') this.error(first.span, 'expected an address (a number such as 0x1000)');
      return first;
    }
    let sum = 0;
    let term = first.value;
    let end = first.span.end;
    for (;;) {
      const t = this.peek();
      if (!this.isPunct(t, '+') && !this.isPunct(t, '*')) break;
      this.next();
      const v = this.parseValue();
      end = v.span.end;
      if (v.kind !== 'num') {
        this.error(v.span, 'expected a number');
        break;
      }
      if (t.text === '*') term *= v.value;
      else {
        sum += term;
        term = v.value;
      }
    }
    sum += term;
    return { kind: 'num', value: sum, raw: this.text.slice(first.span.start, end), span: { start: first.span.start, end } };
  }

  private parseDims(): { items: DimItem[]; span: Span } {
    const open = this.next();
    const { items, end } = this.bracketed((): DimItem => {
      const t = this.peek();
      if (t.kind === 'ident' && (this.isPunct(this.peek(1), '=') || this.isPunct(this.peek(1), ':'))) {
        const name = this.ident();
        this.next();
        const value = this.parseValue();
        return { name, value, span: { start: name.span.start, end: value.span.end } };
      }
      const value = this.parseValue();
      return { value, span: value.span };
    }, open);
    return { items, span: { start: open.start, end } };
  }

  // ---- statements

  private parseTarget(kw: Token): TargetStmt {
    const s: TargetStmt = { kind: 'target', keyword: { start: kw.start, end: kw.end }, span: { start: kw.start, end: kw.end } };
    const t = this.peek();
    if (t.kind !== 'ident') this.error(this.atStmtEnd(t) ? kw : t, 'expected a target: grayskull, wormhole_b0, blackhole, spyre, npu, host or custom(...)');
    else s.value = this.parseValue();
    return s;
  }

  private parseTensor(kw: Token): TensorStmt {
    const s: TensorStmt = { kind: 'tensor', keyword: { start: kw.start, end: kw.end }, layout: [], span: { start: kw.start, end: kw.end } };
    let t = this.peek();
    if (t.kind !== 'ident' || t.text === 'at') {
      this.error(this.atStmtEnd(t) ? kw : t, 'expected a tensor name: tensor NAME: DTYPE[SHAPE] LAYOUT');
      return s;
    }
    s.name = this.ident();
    t = this.peek();
    if (this.isPunct(t, ':')) {
      this.next();
      s.colon = { start: t.start, end: t.end };
    } else
      this.error(
        t.kind === 'ident' ? t : s.name.span,
        `expected ':' and a dtype after the tensor name`,
        t.kind === 'ident' ? { title: "Insert ':'", span: { start: s.name.span.end, end: s.name.span.end }, newText: ':' } : undefined,
      );
    t = this.peek();
    if (t.kind === 'ident') s.dtype = this.parseName();
    else {
      this.error(this.atStmtEnd(t) ? s.name.span : t, 'expected a dtype such as float16, bfloat16, int8');
      if (!this.isPunct(t, '[')) return s;
    }
    t = this.peek();
    if (this.isPunct(t, '[')) s.shape = this.parseDims();
    else {
      this.error(this.atStmtEnd(t) ? (s.dtype?.span ?? s.name.span) : t, 'expected the shape in brackets, e.g. [64, 64]');
      return s;
    }
    t = this.peek();
    if (this.isPunct(t, '=')) {
      this.next();
      s.eq = { start: t.start, end: t.end };
    }
    for (;;) {
      t = this.peek();
      if (this.atStmtEnd(t) || (t.kind === 'ident' && t.text === 'at') || (t.kind === 'punct' && ')]},'.includes(t.text))) break;
      const before = this.i;
      const v = this.parseValue();
      if (v.kind !== 'error') s.layout.push(v);
      if (this.i === before) break;
    }
    if (!s.layout.length && !this.errors.some((e) => e.span.start >= kw.start))
      this.error(s.shape.span, 'expected a layout after the shape, e.g. spyre(), tt(layout=tile), cells(), strided(), fibers(...)');
    t = this.peek();
    if (t.kind === 'ident' && t.text === 'at') {
      this.next();
      s.at = { keyword: { start: t.start, end: t.end } };
      if (this.atStmtEnd()) this.error(t, 'expected an address after at');
      else s.at.value = this.parseAddress();
    }
    return s;
  }

  private parseUnit(): UnitSel | undefined {
    const t = this.peek();
    if (t.kind === 'ident' && t.text === 'in') this.next();
    const u = this.peek();
    if (u.kind !== 'ident' || !['bank', 'core', 'main', 'meta'].includes(u.text)) {
      if (u.kind === 'ident' && t.text === 'in') this.error(u, 'expected bank N, core (x,y), main or meta');
      return undefined;
    }
    const keyword = this.ident();
    if (u.text === 'main' || u.text === 'meta') return { keyword };
    if (this.atStmtEnd()) {
      this.error(keyword.span, `expected the ${u.text} after '${u.text}'`);
      return { keyword };
    }
    return { keyword, value: this.parseValue() };
  }

  private parseProbe(kw: Token): ProbeStmt {
    const s: ProbeStmt = { kind: 'probe', keyword: { start: kw.start, end: kw.end }, span: { start: kw.start, end: kw.end } };
    let t = this.peek();
    const address = () => {
      const a = this.next();
      s.address = { keyword: { start: a.start, end: a.end } };
      if (this.atStmtEnd()) {
        this.error(a, 'expected an address after address');
        return;
      }
      s.address.value = this.parseAddress();
      s.address.unit = this.parseUnit();
    };
    if (t.kind === 'ident' && t.text === 'address' && !this.isPunct(this.peek(1), '[')) {
      address();
      return s;
    }
    if (t.kind !== 'ident') {
      this.error(this.atStmtEnd(t) ? kw : t, 'expected a tensor name: probe NAME[i, j, …], probe NAME address A, probe address A');
      return s;
    }
    s.tensor = this.ident();
    t = this.peek();
    if (t.kind === 'ident' && t.text === 'device' && this.isPunct(this.peek(1), '[')) {
      this.next();
      s.device = { start: t.start, end: t.end };
      t = this.peek();
    }
    if (this.isPunct(t, '[')) s.coords = this.parseDims();
    else if (t.kind === 'ident' && t.text === 'address' && !s.device) address();
    else this.error(this.atStmtEnd(t) ? s.tensor.span : t, `expected a coordinate such as ${s.tensor.text}[0, 1] or 'address A' after the tensor name`);
    return s;
  }

  parseFile(): LayoutFile {
    const stmts: Stmt[] = [];
    for (;;) {
      this.depth = 0;
      let t = this.peek();
      while (t.kind === 'newline' || this.isPunct(t, ';')) {
        this.next();
        t = this.peek();
      }
      if (t.kind === 'eof') break;
      const start = this.i;
      let stmt: Stmt | undefined;
      if (t.kind === 'ident' && t.text === 'target') stmt = this.parseTarget(this.next());
      else if (t.kind === 'ident' && t.text === 'tensor') stmt = this.parseTensor(this.next());
      else if (t.kind === 'ident' && t.text === 'probe') stmt = this.parseProbe(this.next());
      else {
        const guess = t.kind === 'ident' ? closest(t.text, STATEMENT_KEYWORDS) : undefined;
        if (t.problem) this.error(t, t.problem);
        else
          this.error(
            t,
            `expected a statement: target, tensor or probe${guess ? ` (did you mean '${guess}'?)` : ''}`,
            guess ? { title: `Change to '${guess}'`, span: { start: t.start, end: t.end }, newText: guess } : undefined,
          );
      }
      if (stmt) {
        stmt.span = { start: stmt.span.start, end: Math.max(stmt.span.end, this.lastEnd) };
        stmts.push(stmt);
      }
      this.depth = 0;
      t = this.peek();
      if (!this.atStmtEnd(t)) {
        if (stmt) this.error(t, `unexpected ${this.describe(t)}: expected the end of the statement`);
        this.skipStatement();
      }
      if (this.i === start) this.next();
    }
    return { stmts, comments: [], errors: this.errors };
  }

  /** Skip to the end of the statement: a newline outside brackets, or a statement keyword that starts a line. */
  private skipStatement(): void {
    let d = 0;
    for (;;) {
      const t = this.raw(this.i);
      if (t.kind === 'eof') return;
      if (t.kind === 'newline' && d <= 0) return;
      if (this.atNewStatement(t) && this.i > 0) return;
      if (t.kind === 'punct' && CLOSE[t.text]) d++;
      else if (t.kind === 'punct' && ')]}'.includes(t.text)) d--;
      else if (d <= 0 && this.isPunct(t, ';')) return;
      this.i++;
      if (this.i - this.base >= 4096) this.compact();
    }
  }
}

/** The candidate nearest to `word` by edit distance (at most 2, or a third of its length). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== undefined && bestD > 0 && bestD <= Math.max(2, Math.floor(w.length / 3))
    ? best
    : best !== undefined && bestD === 0 && best !== word
      ? best
      : undefined;
}

export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Math.abs(a.length - b.length);
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** Parses a `.tlayout` document. Never throws. */
export function parseLayout(text: string): LayoutFile {
  const lexer = new Lexer(text);
  const p = new Parser(lexer, text);
  const f = p.parseFile();
  f.comments = lexer.comments;
  return f;
}
