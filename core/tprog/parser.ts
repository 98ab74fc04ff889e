/**
 * Parser of `>` statement buffers. It mirrors the scanner of the ztachip compiler (names are runs of
 * `[A-Za-z0-9_.$:]`, keywords case-insensitive except `.THREAD`, `( )` and `[ ]` balanced separately)
 * and also accepts the programmer guide's dialect (`DDR`, `(fmt)` casts, `SCATTER(0)`, `PROC(n)`),
 * recording which constructs were used so the checker can apply the chosen dialect.
 */
import type { CText, Index, Prefix, RangeParts, Span, Spec, SpecItem, Stmt, SyntaxProblem, Term } from './ast';
import { isSpace } from './lines';

const NAME_CH = /[A-Za-z0-9_.$:]/;
/** `NAME_CH` by character code (the parser tests every character of a statement). */
const NAME_CODE = new Uint8Array(128);
for (let c = 0; c < 128; c++) NAME_CODE[c] = NAME_CH.test(String.fromCharCode(c)) ? 1 : 0;
const isNameCode = (c: number) => c < 128 && NAME_CODE[c] === 1;

export const SPACES = new Set(['PCORE', 'PCORES', 'MEM', 'MEMS', 'SCRATCH', 'SCRATCHS', 'SPU', 'PROG', 'DDR']);
const STMT_KEYWORDS = new Set(['NOP', 'EXPORT', 'EXE', 'EXE_LOCKSTEP', 'CALLBACK', 'PRINT', 'LOG_ON', 'LOG_OFF', 'BARRIER', 'VAR']);
const CONSTS = new Set(['INT16', 'INT8', 'HALF']);

class Fail extends Error {
  constructor(
    readonly span: Span,
    readonly code: string,
    message: string,
    readonly fix?: SyntaxProblem['fix'],
  ) {
    super(message);
  }
}

export interface ParseResult {
  stmts: Stmt[];
  problems: SyntaxProblem[];
  /** Which dialects' constructs the statements use (bits; filled by the analysis). */
  dialectUse?: number;
}

export function parseBuffer(text: string): ParseResult {
  return new BufferParser(text).run();
}

class BufferParser {
  private p = 0;
  private readonly problems: SyntaxProblem[] = [];
  private readonly stmts: Stmt[] = [];

  constructor(private readonly s: string) {}

  run(): ParseResult {
    const s = this.s;
    while (true) {
      this.blanks();
      if (this.p >= s.length) break;
      const start = this.p;
      try {
        const st = this.statement();
        this.stmts.push(st);
        this.blanks();
        const c = s[this.p];
        if (c !== ';' && c !== ',') {
          throw new Fail(
            { start: this.p, end: Math.min(s.length, this.p + 1) },
            c === undefined ? 'tprog.missing-semicolon' : 'tprog.syntax',
            c === undefined ? 'Syntax error: missing `;` at the end of the statement' : `Syntax error: expected \`;\` or \`,\` but found \`${c}\``,
          );
        }
        if (c === ',' && !['transfer', 'nop', 'barrier'].includes(st.kind)) {
          this.problems.push({
            span: st.span,
            code: 'tprog.concurrent-kind',
            severity: 'error',
            message: 'Only transfer commands can be concurrent: only transfers, NOP and BARRIER may be joined with `,`',
          });
        }
        this.p++;
      } catch (e) {
        if (!(e instanceof Fail)) throw e;
        this.problems.push({ span: e.span, code: e.code, message: e.message, severity: 'error', fix: e.fix });
        // recover: skip to the next top-level ; or ,
        this.p = Math.max(this.p, start + 1);
        this.skipToSeparator();
      }
    }
    return { stmts: this.stmts, problems: this.problems };
  }

  private skipToSeparator(): void {
    let par = 0;
    let br = 0;
    while (this.p < this.s.length) {
      const c = this.s[this.p++];
      if (c === '(') par++;
      else if (c === ')') par--;
      else if (c === '[') br++;
      else if (c === ']') br--;
      else if ((c === ';' || c === ',') && par <= 0 && br <= 0) return;
    }
  }

  private blanks(): void {
    while (this.p < this.s.length && isSpace(this.s.charCodeAt(this.p))) this.p++;
  }

  private peekName(): { text: string; span: Span } {
    this.blanks();
    let e = this.p;
    while (e < this.s.length && isNameCode(this.s.charCodeAt(e))) e++;
    return { text: this.s.slice(this.p, e), span: { start: this.p, end: e } };
  }

  private name(): { text: string; span: Span } {
    const n = this.peekName();
    this.p = n.span.end;
    return n;
  }

  private here(len = 1): Span {
    return { start: this.p, end: Math.min(this.s.length, this.p + len) };
  }

  /** Reads a balanced group starting at `open`; returns the inner text span. */
  private group(open: '(' | '['): Span {
    const close = open === '(' ? ')' : ']';
    this.blanks();
    if (this.s[this.p] !== open) throw new Fail(this.here(), 'tprog.syntax', `Syntax error: expected \`${open}\``);
    const start = this.p;
    const otherOpen = open === '(' ? '[' : '(';
    const otherClose = open === '(' ? ']' : ')';
    let depth = 0;
    // the other kind of bracket inside: the compiler does not count it, but copies the text into C
    let other = 0;
    let otherLow = 0;
    for (let i = this.p; i < this.s.length; i++) {
      const c = this.s[i];
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) {
          this.p = i + 1;
          if (other !== 0 || otherLow < 0) this.unbalanced(start + 1, i, otherOpen, otherClose, close);
          return { start: start + 1, end: i };
        }
      } else if (c === otherOpen) other++;
      else if (c === otherClose && --other < otherLow) otherLow = other;
      else if (c === ';')
        this.problems.push({
          span: { start: i, end: i + 1 },
          code: 'tprog.syntax',
          severity: 'error',
          message:
            `Syntax error: a \`;\` inside \`${open} ${close}\` does not end the statement; the compiler copies it into the generated C, which then ` +
            `does not compile. Remove it (or close the \`${open}\` before it)`,
        });
    }
    throw new Fail({ start, end: this.s.length }, 'tprog.unbalanced', `Syntax error: \`${open}\` is never closed`);
  }

  /**
   * Reports the first `otherClose` without its `otherOpen` in `s[from, to)`, or else the last
   * `otherOpen` never closed there (`end` is the bracket that ends the group). Only called when the
   * counts do not match.
   */
  private unbalanced(from: number, to: number, otherOpen: string, otherClose: string, end: string): void {
    const s = this.s;
    const tail = 'the compiler copies this text into the generated C, which then does not compile';
    let d = 0;
    for (let i = from; i < to; i++) {
      if (s[i] === otherOpen) d++;
      else if (s[i] === otherClose && --d < 0) {
        this.problems.push({
          span: { start: i, end: i + 1 },
          code: 'tprog.unbalanced',
          severity: 'error',
          message:
            `Unbalanced brackets: this \`${otherClose}\` has no matching \`${otherOpen}\` before it (${tail}). Remove it or add the ` +
            `missing \`${otherOpen}\``,
        });
        return;
      }
    }
    d = 0;
    for (let i = to - 1; i >= from; i--) {
      if (s[i] === otherClose) d++;
      else if (s[i] === otherOpen && --d < 0) {
        this.problems.push({
          span: { start: i, end: i + 1 },
          code: 'tprog.unbalanced',
          severity: 'error',
          message:
            `Unbalanced brackets: this \`${otherOpen}\` is not closed before the \`${end}\` that ends the group (${tail}). Add its \`${otherClose}\` ` +
            'or remove it',
        });
        return;
      }
    }
  }

  private ctext(span: Span): CText {
    let { start, end } = span;
    while (start < end && isSpace(this.s.charCodeAt(start))) start++;
    while (end > start && isSpace(this.s.charCodeAt(end - 1))) end--;
    return { text: this.s.slice(start, end), span: { start, end } };
  }

  /** Splits `span` on `sep` at parenthesis depth 0 (brackets are not protected, as in the compiler). */
  private split(span: Span, sep: string): CText[] {
    const out: CText[] = [];
    let depth = 0;
    let from = span.start;
    for (let i = span.start; i < span.end; i++) {
      const c = this.s[i];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === sep && depth === 0) {
        out.push(this.ctext({ start: from, end: i }));
        from = i + 1;
      }
    }
    out.push(this.ctext({ start: from, end: span.end }));
    return out;
  }

  private args(): { items: CText[]; span: Span } {
    const inner = this.group('(');
    const items = this.split(inner, ',');
    if (items.length === 1 && items[0].text === '') return { items: [], span: inner };
    return { items, span: inner };
  }

  private statement(): Stmt {
    const start = this.p;
    const first = this.peekName();
    const kw = first.text.toUpperCase();
    if (STMT_KEYWORDS.has(kw)) {
      this.p = first.span.end;
      const keywordSpan = first.span;
      switch (kw) {
        case 'NOP':
          return { kind: 'nop', span: keywordSpan, keywordSpan };
        case 'BARRIER':
          return { kind: 'barrier', span: keywordSpan, keywordSpan };
        case 'LOG_ON':
          return { kind: 'log_on', span: keywordSpan, keywordSpan };
        case 'LOG_OFF':
          return { kind: 'log_off', span: keywordSpan, keywordSpan };
        case 'VAR': {
          const names: CText[] = [];
          do {
            const n = this.name();
            if (!n.text.startsWith('$') || n.text.length < 2)
              throw new Fail(
                n.span.end > n.span.start ? n.span : this.here(),
                'tprog.syntax',
                'Syntax error: VAR expects tensor variable names such as `$a, $b`',
              );
            names.push({ text: n.text, span: n.span });
            this.blanks();
          } while (this.s[this.p] === ',' && ++this.p);
          return { kind: 'vardecl', span: { start, end: this.p }, keywordSpan, names };
        }
        default: {
          this.blanks();
          if (this.s[this.p] !== '(') throw new Fail(this.here(), 'tprog.syntax', `Syntax error: ${kw} needs arguments in parentheses`);
          const { items, span } = this.args();
          const kind = kw === 'EXE' || kw === 'EXE_LOCKSTEP' ? 'exe' : (kw.toLowerCase() as Stmt['kind']);
          return { kind, span: { start, end: this.p }, keywordSpan, args: items, argsSpan: span };
        }
      }
    }
    // var definition or transfer
    const end = this.statementEnd();
    const has = (op: string) => {
      const at = this.s.indexOf(op, this.p);
      return at >= 0 && at < end;
    };
    if (has(':=')) {
      const n = this.name();
      if (!n.text.startsWith('$'))
        throw new Fail(
          n.span.end > n.span.start ? n.span : this.here(),
          'tprog.bad-variable',
          'Invalid MCORE variable: the name defined with `:=` must start with `$`',
        );
      this.blanks();
      if (this.s.slice(this.p, this.p + 2) !== ':=')
        throw new Fail(this.here(), 'tprog.bad-assignment', 'Invalid assignment statement: `:=` must follow the `$name` directly');
      const opSpan = { start: this.p, end: this.p + 2 };
      this.p += 2;
      const src = this.term(false);
      return { kind: 'vardef', span: { start, end: this.p }, names: [{ text: n.text, span: n.span }], src, opSpan };
    }
    if (has('<=')) {
      const dst = this.term(true);
      this.blanks();
      if (this.s.slice(this.p, this.p + 2) !== '<=') throw new Fail(this.here(), 'tprog.syntax', 'Syntax error: expected `<=` after the destination term');
      const opSpan = { start: this.p, end: this.p + 2 };
      this.p += 2;
      let src = this.term(false);
      let proc: Stmt['proc'];
      this.blanks();
      if (this.s.slice(this.p, this.p + 2) === '<=' && src.kind === 'space' && src.space === 'PROC') {
        // guide dialect: A <= PROC(n) <= B
        proc = { span: src.span, arg: src.spec?.items[0]?.expr };
        this.p += 2;
        src = this.term(false);
      }
      return { kind: 'transfer', span: { start, end: this.p }, dst, src, proc, opSpan };
    }
    throw new Fail(
      { start, end },
      'tprog.syntax',
      'Syntax error: not a tensor statement (expected a transfer `A <= B`, `$v := term`, EXE_LOCKSTEP, BARRIER, ...)',
    );
  }

  private statementEnd(): number {
    let depth = 0;
    for (let i = this.p; i < this.s.length; i++) {
      const c = this.s[i];
      if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if ((c === ';' || c === ',') && depth <= 0) return i;
    }
    return this.s.length;
  }

  private term(isDst: boolean): Term {
    this.blanks();
    const start = this.p;
    const prefixes: Prefix[] = [];
    for (;;) {
      this.blanks();
      if (this.s[this.p] === '(') {
        // guide dialect cast `(fmt)`
        const kwStart = this.p;
        const inner = this.group('(');
        prefixes.push({ kind: 'CAST', span: { start: kwStart, end: this.p }, keywordSpan: { start: kwStart, end: this.p }, arg: this.ctext(inner) });
        continue;
      }
      const n = this.peekName();
      const up = n.text.toUpperCase();
      if (up === 'FOR') {
        this.p = n.span.end;
        const inner = this.group('(');
        const body = this.s.slice(inner.start, inner.end);
        const eq = body.indexOf('=');
        if (eq < 0) throw new Fail(inner, 'tprog.syntax', 'Syntax error: FOR needs `name=begin:end`');
        const forName = this.ctext({ start: inner.start, end: inner.start + eq });
        const rangeSpan = { start: inner.start + eq + 1, end: inner.end };
        const rtext = this.s.slice(rangeSpan.start, rangeSpan.end).trim();
        const pre: Prefix = { kind: 'FOR', span: { start: n.span.start, end: this.p }, keywordSpan: n.span, forName };
        if (rtext.startsWith('$')) pre.forPlaceholder = true;
        else if (rtext.includes(':')) pre.forRange = this.rangeParts(rangeSpan);
        else throw new Fail(rangeSpan, 'tprog.syntax', 'Syntax error: FOR needs a range `begin:end` (or `begin:step:end`)');
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(forName.text))
          throw new Fail(forName.text ? forName.span : inner, 'tprog.syntax', 'Syntax error: FOR needs a loop name before `=`');
        prefixes.push(pre);
        continue;
      }
      if (up === 'DTYPE' || up === 'PAD' || up === 'REMAP' || up === 'SCATTER') {
        this.p = n.span.end;
        this.blanks();
        if (this.s[this.p] !== '(') {
          const msg =
            up === 'DTYPE'
              ? 'Invalid dtype syntax: write `DTYPE(INT16)`, `DTYPE(INT8)` or `DTYPE(UINT8)`'
              : up === 'PAD'
                ? 'Invalid SCATTER specifier: PAD needs a value in parentheses, e.g. `PAD(0)`'
                : up === 'REMAP'
                  ? 'Invalid REMAP specifier: write `REMAP(n)` with a stream number 0..3'
                  : 'Syntax error: SCATTER needs `(0)`';
          throw new Fail(n.span, up === 'DTYPE' ? 'tprog.bad-dtype' : 'tprog.syntax', msg);
        }
        const inner = this.group('(');
        const items = this.split(inner, ',');
        if (up === 'DTYPE' && (items.length !== 1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(items[0].text))) {
          throw new Fail(inner, 'tprog.bad-dtype', 'Invalid dtype syntax: DTYPE takes one name (INT16, INT8, UINT8 or a C variable holding one)');
        }
        if (up === 'REMAP' && items.length !== 1) throw new Fail(inner, 'tprog.syntax', 'Invalid REMAP specifier: REMAP takes exactly one stream number');
        prefixes.push({ kind: up as Prefix['kind'], span: { start: n.span.start, end: this.p }, keywordSpan: n.span, arg: this.ctext(inner) });
        continue;
      }
      if (up === 'CONCURRENT' || up === 'LATEST' || up === 'REPEAT') {
        this.p = n.span.end;
        prefixes.push({ kind: up, span: n.span, keywordSpan: n.span });
        continue;
      }
      break;
    }
    const n = this.name();
    if (!n.text) {
      const c = this.s[this.p];
      throw new Fail(
        this.here(),
        'tprog.syntax',
        c === undefined || c === ';'
          ? 'Syntax error: a term is missing here'
          : `Syntax error: unexpected \`${c}\` where a term (PCORE, MEM, SCRATCH, $var, INT16(v)...) was expected`,
      );
    }
    let text = n.text;
    let nameSpan = n.span;
    // `PCORE.cls::var` written without indices: split the dotted name.
    const dot = text.indexOf('.');
    if (dot > 0 && SPACES.has(text.slice(0, dot).toUpperCase())) {
      this.p = n.span.start + dot;
      text = text.slice(0, dot);
      nameSpan = { start: n.span.start, end: n.span.start + dot };
    }
    const up = text.toUpperCase();
    const term: Term = { kind: 'space', span: { start, end: start }, prefixes, indices: [] };
    if (text.startsWith('$')) {
      term.kind = 'var';
      term.name = { text, span: nameSpan };
      this.blanks();
      if (this.s[this.p] === '[') term.varIndex = this.index(new Set());
    } else if (CONSTS.has(up)) {
      term.kind = 'const';
      term.constType = up;
      term.spaceSpan = nameSpan;
      this.blanks();
      if (this.s[this.p] !== '(') throw new Fail(nameSpan, 'tprog.bad-const', `Invalid ALL syntax: write \`${up}(value)\``);
      const { items, span } = this.args();
      if (items.length !== 1) throw new Fail(span, 'tprog.bad-const', `Invalid ALL syntax: \`${up}(...)\` takes exactly one value`);
      term.constValue = items[0];
    } else if (SPACES.has(up) || up === 'PROC' || up === 'HSCRATCH') {
      term.space = up;
      term.spaceSpan = nameSpan;
      this.spaceTerm(term);
    } else if (text.includes('.') || text.includes('::')) {
      term.kind = 'global';
      term.name = { text, span: nameSpan };
    } else {
      term.space = up;
      term.spaceSpan = nameSpan;
      this.spaceTerm(term); // parsed so the checker can say "Unrecognized memory space"
    }
    term.span = { start, end: this.p };
    void isDst;
    return term;
  }

  private spaceTerm(term: Term): void {
    const forNames = new Set(term.prefixes.filter((p) => p.kind === 'FOR' && p.forName).map((p) => p.forName!.text));
    this.blanks();
    if (this.s[this.p] === '(') term.spec = this.spec();
    this.indices(term.indices, forNames);
    for (;;) {
      if (this.s[this.p] !== '.') break;
      if (this.s.slice(this.p, this.p + 7) === '.THREAD' && !NAME_CH.test(this.s[this.p + 7] ?? '')) {
        const tstart = this.p;
        this.p += 7;
        const thread: NonNullable<Term['thread']> = { span: { start: tstart, end: this.p }, indices: [] };
        this.blanks();
        if (this.s[this.p] === '(') thread.spec = this.spec();
        this.indices(thread.indices, forNames);
        thread.span.end = this.p;
        term.thread = thread;
        continue;
      }
      const mstart = this.p;
      this.p++;
      const n = this.name();
      if (!n.text) throw new Fail(this.here(), 'tprog.syntax', 'Syntax error: missing member name after `.` (expected `class::variable`)');
      const member: NonNullable<Term['member']> = { name: { text: n.text, span: n.span }, indices: [], span: { start: mstart, end: this.p } };
      this.blanks();
      if (this.s[this.p] === '(') member.spec = this.spec();
      this.indices(member.indices, forNames);
      member.span.end = this.p;
      term.member = member;
      break;
    }
  }

  private indices(out: Index[], forNames: Set<string>): void {
    for (;;) {
      this.blanks();
      if (this.s[this.p] !== '[') return;
      out.push(this.index(forNames));
    }
  }

  private index(forNames: Set<string>): Index {
    const start = this.p;
    const inner = this.group('[');
    const body = this.ctext(inner);
    const span = { start, end: this.p };
    const t = body.text;
    if (forNames.has(t)) return { kind: 'for', span, body, forName: t };
    if (t.startsWith('*')) return { kind: 'wildcard', span, body };
    if (t.startsWith('$')) return { kind: 'placeholder', span, body };
    if (t.includes(':')) {
      const r = this.rangeParts(inner);
      return { kind: 'range', span, body, range: r };
    }
    return { kind: 'single', span, body, single: body };
  }

  private rangeParts(span: Span): RangeParts {
    const parts = this.split(span, ':');
    if (parts.length > 3) throw new Fail(span, 'tprog.bad-range', 'Invalid range: a range has at most three parts `begin:step:end`');
    const opt = (c: CText | undefined) => (c && c.text !== '' ? c : undefined);
    if (parts.length === 2) return { begin: opt(parts[0]), end: opt(parts[1]) };
    return { begin: opt(parts[0]), step: opt(parts[1]), end: opt(parts[2]) };
  }

  private spec(): Spec {
    const start = this.p;
    const inner = this.group('(');
    return { span: { start, end: this.p }, items: this.specItems(inner) };
  }

  private specItems(inner: Span): SpecItem[] {
    const raw = this.split(inner, ',');
    if (raw.length === 1 && raw[0].text === '') return [];
    return raw.map((item) => this.specItem(item));
  }

  private specItem(item: CText): SpecItem {
    let text = item.text;
    let end = item.span.end;
    let plus = false;
    if (text.endsWith('+')) {
      plus = true;
      text = text.slice(0, -1).trimEnd();
      end = item.span.start + text.length;
    }
    // bounded group: a '(' at depth 0, not first, preceded by alnum/_/)
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '(') {
        if (depth === 0 && i > 0) {
          let k = i - 1;
          while (k >= 0 && isSpace(text.charCodeAt(k))) k--;
          if (k >= 0 && /[A-Za-z0-9_)]/.test(text[k])) {
            // find matching ')'
            let d = 0;
            let j = i;
            for (; j < text.length; j++) {
              if (text[j] === '(') d++;
              else if (text[j] === ')') {
                d--;
                if (d === 0) break;
              }
            }
            const abs = item.span.start + i;
            const groupInner = { start: abs + 1, end: item.span.start + j };
            return {
              expr: this.ctext({ start: item.span.start, end: abs }),
              plus,
              group: this.specItems(groupInner),
              groupSpan: { start: abs, end: item.span.start + j + 1 },
            };
          }
        }
        depth++;
      } else if (c === ')') depth--;
    }
    return { expr: { text, span: { start: item.span.start, end } }, plus };
  }
}
