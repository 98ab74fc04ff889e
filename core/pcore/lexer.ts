/**
 * Tokenizer for PCORE (`.p`) programs.
 *
 * Produces C tokens with source offsets. Comments are skipped; a `#` that starts a line
 * yields one `directive` token holding the tokens of the (logical) directive line, which the
 * preprocessor (`preprocessor.ts`) interprets. Scoped identifiers `class::name` (a letter or `_`
 * followed by letters/digits/`_`, `::`, the same again) are single identifier tokens, as in the
 * real compiler's lexer.
 */
import type { DiagnosticSink, OffsetDiagnostic } from './diagnostics';

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'directive' | 'pragma' | 'eof';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  /** Value of number and character-constant tokens. */
  value?: number;
  /** Floating-point constant. */
  isFloat?: boolean;
  /** Character constant (`'a'`). */
  isChar?: boolean;
  /** First token of its source line. */
  bol?: boolean;
  /** White space or a comment precedes the token. */
  space?: boolean;
  /** Outermost macro whose expansion produced the token (start/end are then the invocation's range). */
  macro?: string;
  /** Macros that must not be expanded again on this token (C "hide set"). */
  hide?: readonly string[];
  /** Directive tokens only. */
  directive?: DirectiveInfo;
}

export interface DirectiveInfo {
  /** Directive name (`define`, `include`, ...); `''` for a null directive, `line` for `# 12 "f"`. */
  name: string;
  nameStart: number;
  nameEnd: number;
  /** Tokens after the name on the logical line. */
  tokens: Token[];
  /** Offset just after the name (start of the directive's operand text). */
  restStart: number;
  /** End of the logical line. */
  lineEnd: number;
}

/** Creates a token (all fields present, so every token has the same shape: keeps property access fast). */
export function makeToken(kind: TokenKind, text: string, start: number, end: number, value?: number): Token {
  return {
    kind,
    text,
    start,
    end,
    value,
    isFloat: undefined,
    isChar: undefined,
    bol: undefined,
    space: undefined,
    macro: undefined,
    hide: undefined,
    directive: undefined,
  };
}

/** Copies a token with a new range. */
export function cloneToken(b: Token, start: number, end: number): Token {
  return {
    kind: b.kind,
    text: b.text,
    start,
    end,
    value: b.value,
    isFloat: b.isFloat,
    isChar: b.isChar,
    bol: b.bol,
    space: b.space,
    macro: b.macro,
    hide: b.hide,
    directive: undefined,
  };
}

const PUNCT3 = new Set(['...', '>>=', '<<=']);
const PUNCT2 = new Set(['+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '>>', '<<', '++', '--', '->', '&&', '||', '<=', '>=', '==', '!=', '##', '::']);
const PUNCT1 = [';', '{', '}', ',', ':', '=', '(', ')', '[', ']', '.', '&', '!', '~', '-', '+', '*', '/', '%', '<', '>', '^', '|', '?', '#'];
const PUNCT1_BY_CODE: (string | undefined)[] = [];
for (const p of PUNCT1) PUNCT1_BY_CODE[p.charCodeAt(0)] = p;
/** Characters that can be the second character of a multi-character punctuator. */
const PUNCT_SECOND = new Set([...PUNCT2, ...PUNCT3].map((p) => p.charCodeAt(1)));

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const RE_HEX = /^0[xX]([0-9a-fA-F]+)([uU]?[lL]{0,2}|[lL]{1,2}[uU])$/;
const RE_DEC = /^([0-9]+)([uU]?[lL]{0,2}|[lL]{1,2}[uU])$/;
const RE_FLOAT = /^(?:[0-9]*\.[0-9]+|[0-9]+\.?)(?:[eE][+-]?[0-9]+)?[fFlL]?$/;

/** Parses the text of a C numeric constant; `undefined` when malformed. */
export function parseNumber(text: string): { value: number; isFloat: boolean } | undefined {
  let m = RE_HEX.exec(text);
  if (m) return { value: parseInt(m[1], 16), isFloat: false };
  m = RE_DEC.exec(text);
  if (m) {
    const digits = m[1];
    if (digits.length > 1 && digits[0] === '0') {
      if (/[89]/.test(digits)) return undefined;
      return { value: parseInt(digits, 8), isFloat: false };
    }
    return { value: parseInt(digits, 10), isFloat: false };
  }
  if (RE_FLOAT.test(text) && (text.includes('.') || /[eE]/.test(text))) {
    return { value: parseFloat(text.replace(/[fFlL]$/, '')), isFloat: true };
  }
  return undefined;
}

const SIMPLE_ESCAPES: Record<string, number> = {
  n: 10,
  t: 9,
  r: 13,
  '0': 0,
  a: 7,
  b: 8,
  f: 12,
  v: 11,
  '\\': 92,
  "'": 39,
  '"': 34,
  '?': 63,
};

export class Scanner {
  pos = 0;
  private lastBad: OffsetDiagnostic | undefined;
  private lastBadEnd = -1;

  constructor(
    readonly text: string,
    readonly sink: DiagnosticSink | null,
  ) {}

  private report(start: number, end: number, message: string, severity: 'error' | 'warning' = 'error'): void {
    this.sink?.add(start, end, severity, 'pcore.lex', message);
  }

  /** Set by skipTrivia: a newline / any white space or comment was crossed. */
  sawNewline = false;
  sawSpace = false;

  /**
   * Skips white space and comments. In directive mode, stops before an (unescaped) newline.
   * Sets `sawNewline` / `sawSpace`.
   */
  skipTrivia(directive: boolean): void {
    const t = this.text;
    const n = t.length;
    let newline = false;
    let space = false;
    while (this.pos < n) {
      const c = t.charCodeAt(this.pos);
      if (c === 10 || c === 13) {
        if (directive) break;
        newline = true;
        space = true;
        this.pos++;
      } else if (c === 32 || c === 9 || c === 11 || c === 12) {
        space = true;
        this.pos++;
      } else if (c === 92 /* \ */ && (t.charCodeAt(this.pos + 1) === 10 || t.charCodeAt(this.pos + 1) === 13)) {
        // line continuation
        this.pos += t.charCodeAt(this.pos + 1) === 13 && t.charCodeAt(this.pos + 2) === 10 ? 3 : 2;
        space = true;
      } else if (c === 47 /* / */ && t.charCodeAt(this.pos + 1) === 47) {
        // line comment (a trailing backslash continues it, as in C)
        let p = this.pos + 2;
        while (p < n) {
          const d = t.charCodeAt(p);
          if (d === 10 || d === 13) {
            let q = p - 1;
            while (q > this.pos + 1 && (t.charCodeAt(q) === 32 || t.charCodeAt(q) === 9)) q--;
            if (t.charCodeAt(q) === 92) {
              p += d === 13 && t.charCodeAt(p + 1) === 10 ? 2 : 1;
              continue;
            }
            break;
          }
          p++;
        }
        this.pos = p;
        space = true;
      } else if (c === 47 && t.charCodeAt(this.pos + 1) === 42 /* * */) {
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) {
          this.report(this.pos, n, 'unterminated comment');
          if (t.slice(this.pos, n).includes('\n')) newline = true;
          this.pos = n;
        } else {
          for (let p = this.pos + 2; p < end; p++) {
            const d = t.charCodeAt(p);
            if (d === 10 || d === 13) {
              newline = true;
              break;
            }
          }
          this.pos = end + 2;
        }
        space = true;
      } else {
        break;
      }
    }
    this.sawNewline = newline;
    this.sawSpace = space;
  }

  /** Reads one token at `pos` (trivia already skipped). Returns undefined for a skipped bad character. */
  readToken(): Token | undefined {
    const t = this.text;
    const start = this.pos;
    const c = t.charCodeAt(start);
    if (isIdentStart(c)) {
      let p = start + 1;
      while (p < t.length && isIdentPart(t.charCodeAt(p))) p++;
      // character / string prefixes L'x', u"x", U"x", u8"x"
      const word = t.slice(start, p);
      const q = t.charCodeAt(p);
      if ((q === 39 || q === 34) && (word === 'L' || word === 'u' || word === 'U' || word === 'u8')) {
        this.pos = p;
        const tok = q === 39 ? this.readChar() : this.readString();
        tok.start = start;
        tok.text = t.slice(start, tok.end);
        return tok;
      }
      if (q === 58 && t.charCodeAt(p + 1) === 58 && isIdentStart(t.charCodeAt(p + 2))) {
        p += 3;
        while (p < t.length && isIdentPart(t.charCodeAt(p))) p++;
      }
      this.pos = p;
      return makeToken('ident', t.slice(start, p), start, p);
    }
    if (isDigit(c) || (c === 46 && isDigit(t.charCodeAt(start + 1)))) {
      let p = start + 1;
      while (p < t.length) {
        const d = t.charCodeAt(p);
        if (isIdentPart(d) || d === 46) {
          p++;
        } else if ((d === 43 || d === 45) && /[eEpP]/.test(t[p - 1]) && !/^0[xX][0-9a-fA-F]*$/.test(t.slice(start, p - 1))) {
          p++;
        } else if ((d === 43 || d === 45) && /[pP]/.test(t[p - 1])) {
          p++;
        } else break;
      }
      this.pos = p;
      const text = t.slice(start, p);
      const parsed = parseNumber(text);
      if (!parsed) {
        this.report(start, p, `invalid numeric constant \`${text}\``);
        return makeToken('number', text, start, p, 0);
      }
      const tok = makeToken('number', text, start, p, parsed.value);
      if (parsed.isFloat) tok.isFloat = true;
      return tok;
    }
    if (c === 39) return this.readChar();
    if (c === 34) return this.readString();
    const s1 = PUNCT1_BY_CODE[c];
    if (s1 !== undefined) {
      const c2 = t.charCodeAt(start + 1);
      if (PUNCT_SECOND.has(c2)) {
        const s3 = t.substr(start, 3);
        if (PUNCT3.has(s3)) {
          this.pos = start + 3;
          return makeToken('punct', s3, start, start + 3);
        }
        const s2 = s3.slice(0, 2);
        if (PUNCT2.has(s2)) {
          this.pos = start + 2;
          return makeToken('punct', s2, start, start + 2);
        }
      }
      this.pos = start + 1;
      return makeToken('punct', s1, start, start + 1);
    }
    // Bad character: the real lexer discards it silently; we warn (merging runs of bad characters).
    const cp = t.codePointAt(start) ?? c;
    this.pos = start + (cp > 0xffff ? 2 : 1);
    if (this.lastBad && this.lastBadEnd === start) {
      this.lastBad.end = this.pos;
      this.lastBad.message = 'unexpected characters (ignored by the PCORE compiler)';
    } else {
      this.lastBad = this.sink?.add(
        start,
        this.pos,
        'warning',
        'pcore.lex',
        `unexpected character \`${String.fromCodePoint(cp)}\` (ignored by the PCORE compiler)`,
      );
    }
    this.lastBadEnd = this.pos;
    return undefined;
  }

  private readEscape(p: number): { value: number; next: number } {
    const t = this.text;
    const e = t[p + 1];
    if (e === undefined) return { value: 92, next: p + 1 };
    if (e === 'x') {
      let q = p + 2;
      while (q < t.length && /[0-9a-fA-F]/.test(t[q])) q++;
      return { value: q > p + 2 ? parseInt(t.slice(p + 2, q), 16) : 0, next: q };
    }
    if (/[0-7]/.test(e)) {
      let q = p + 1;
      while (q < t.length && q < p + 4 && /[0-7]/.test(t[q])) q++;
      return { value: parseInt(t.slice(p + 1, q), 8), next: q };
    }
    return { value: SIMPLE_ESCAPES[e] ?? e.charCodeAt(0), next: p + 2 };
  }

  private readChar(): Token {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    let value = 0;
    let count = 0;
    while (p < t.length) {
      const d = t.charCodeAt(p);
      if (d === 39 || d === 10 || d === 13) break;
      if (d === 92) {
        // a backslash before a line end does not escape it: the constant is unterminated
        const e = t.charCodeAt(p + 1);
        if (e === 10 || e === 13 || Number.isNaN(e)) {
          p++;
          break;
        }
        const esc = this.readEscape(p);
        value = esc.value;
        p = esc.next;
      } else {
        value = d;
        p++;
      }
      count++;
    }
    if (t.charCodeAt(p) === 39) {
      p++;
      if (count === 0) this.report(start, p, 'empty character constant');
    } else {
      this.report(start, p, 'unterminated character constant');
    }
    this.pos = p;
    const tok = makeToken('number', t.slice(start, p), start, p, value);
    tok.isChar = true;
    return tok;
  }

  private readString(): Token {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    while (p < t.length) {
      const d = t.charCodeAt(p);
      if (d === 34 || d === 10 || d === 13) break;
      p += d === 92 ? 2 : 1;
    }
    if (p < t.length && t.charCodeAt(p) === 34) p++;
    else this.report(start, Math.min(p, t.length), 'unterminated string literal');
    p = Math.min(p, t.length);
    this.pos = p;
    return makeToken('string', t.slice(start, p), start, p);
  }

  /** Reads a directive line starting at `#` (at `pos`). */
  readDirective(): Token {
    const start = this.pos;
    this.pos++;
    const tokens: Token[] = [];
    let name = '';
    let nameStart = this.pos;
    let nameEnd = this.pos;
    let first = true;
    for (;;) {
      this.skipTrivia(true);
      const space = this.sawSpace;
      if (this.pos >= this.text.length) break;
      const c = this.text.charCodeAt(this.pos);
      if (c === 10 || c === 13) break;
      const tok = this.readToken();
      if (!tok) continue;
      if (space) tok.space = true;
      if (first) {
        first = false;
        if (tok.kind === 'ident') {
          name = tok.text;
          nameStart = tok.start;
          nameEnd = tok.end;
          continue;
        }
        if (tok.kind === 'number') {
          name = 'line';
          nameStart = tok.start;
          nameEnd = tok.start;
        } else {
          name = '?';
          nameStart = tok.start;
          nameEnd = tok.start;
        }
      }
      tokens.push(tok);
    }
    const lineEnd = this.pos;
    let end = tokens.length ? tokens[tokens.length - 1].end : nameEnd;
    if (end < nameEnd) end = nameEnd;
    if (end <= start) end = start + 1;
    const tok = makeToken('directive', '#' + name, start, end);
    tok.bol = true;
    tok.directive = { name, nameStart, nameEnd, tokens, restStart: nameEnd, lineEnd };
    return tok;
  }
}

/**
 * Tokenizes a whole file. Directive lines become single `directive` tokens (in order).
 * Never throws; problems are reported to `sink` (when given).
 */
export function lex(text: string, sink: DiagnosticSink | null): Token[] {
  const sc = new Scanner(text, sink);
  const out: Token[] = [];
  let bol = true;
  const n = text.length;
  while (sc.pos < n) {
    sc.skipTrivia(false);
    if (sc.sawNewline) bol = true;
    const space = sc.sawSpace;
    if (sc.pos >= n) break;
    if (bol && text.charCodeAt(sc.pos) === 35 /* # */) {
      out.push(sc.readDirective());
      bol = false;
      continue;
    }
    const tok = sc.readToken();
    if (!tok) continue;
    if (bol) tok.bol = true;
    if (space) tok.space = true;
    out.push(tok);
    bol = false;
  }
  return out;
}

/** Tokenizes a fragment (e.g. a macro body given as a string); directives are not recognised. */
export function lexFragment(text: string): Token[] {
  const sc = new Scanner(text, null);
  const out: Token[] = [];
  while (sc.pos < text.length) {
    sc.skipTrivia(false);
    const space = sc.sawSpace;
    if (sc.pos >= text.length) break;
    const tok = sc.readToken();
    if (!tok) continue;
    if (space) tok.space = true;
    out.push(tok);
  }
  return out;
}
