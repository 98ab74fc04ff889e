/**
 * Error-tolerant recursive-descent parser for PCORE programs (C subset + PCORE extensions).
 *
 * Input: preprocessed tokens (`preprocessor.ts`), with `#pragma` lines as `pragma` tokens.
 * Output: an AST (`ast.ts`) of the whole file. Syntax errors are reported to the sink; the parser
 * recovers at `;` / `}` (and at the start of a line that begins a new statement), so one error does
 * not hide the next. Never throws.
 */
import type * as A from './ast';
import { BINARY_PRECEDENCE } from '../cexpr/operators';
import { NOT_TYPE_WORDS, NT_WORDS, SPECIFIER_WORDS, STATEMENT_KEYWORDS, TYPE_WORDS, PCORE_TYPE_LIST } from './constants';
import type { DiagnosticSink } from './diagnostics';
import type { Token } from './lexer';

const MAX_DEPTH = 200;
/** Maximum depth of an expression tree (keeps every consumer's recursion bounded). */
export const MAX_EXPR_DEPTH = 500;

const ASSIGN_OPS: ReadonlySet<string> = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=']);

const TAG_WORDS: ReadonlySet<string> = new Set(['struct', 'union', 'enum']);

/** Words that cannot be used as identifiers. */
export function isKeyword(text: string): boolean {
  return STATEMENT_KEYWORDS.has(text) || TYPE_WORDS.has(text) || SPECIFIER_WORDS.has(text) || NT_WORDS.has(text);
}

const TOP_LEVEL_STARTERS: ReadonlySet<string> = new Set(['_kernel_', '_share', 'extern', 'static', 'const', 'typedef']);
const STATEMENT_STARTERS: ReadonlySet<string> = new Set(['if', 'for', 'while', 'do', 'switch', 'return', 'break', 'continue', 'case', 'default', 'goto']);

function describe(t: Token): string {
  if (t.kind === 'eof') return 'end of file';
  return `\`${t.text.length > 40 ? t.text.slice(0, 40) + '…' : t.text}\``;
}

export function canonicalType(words: readonly string[]): { name: string; valid: boolean } {
  const ws = words.filter((w) => w !== 'signed' || words.length === 1);
  const key = ws.join(' ');
  switch (key) {
    case 'int16':
    case 'vint16':
    case 'int32':
    case 'vint32':
    case 'int':
    case 'float2':
    case 'float4':
    case 'float16':
    case 'void':
      return { name: key, valid: true };
    case 'unsigned':
    case 'unsigned int':
    case 'int unsigned':
      return { name: 'unsigned int', valid: true };
    case 'signed':
      return { name: 'int', valid: true };
    default:
      return { name: words.join(' '), valid: false };
  }
}

class Parser {
  readonly toks: Token[];
  /** Pragma tokens found just before token index i. */
  readonly pragmasBefore = new Map<number, Token[]>();
  readonly allPragmas: Token[] = [];
  readonly usedPragmas = new Set<Token>();
  i = 0;
  private depth = 0;
  private lastErrorAt = -1;
  private readonly depths = new Map<A.Expr, number>();
  private tooComplexReported = false;
  private linkageDepth = 0;

  constructor(
    tokens: readonly Token[],
    readonly sink: DiagnosticSink,
    textLength: number,
  ) {
    const toks: Token[] = [];
    let pending: Token[] = [];
    for (const t of tokens) {
      if (t.kind === 'pragma') {
        pending.push(t);
        this.allPragmas.push(t);
        continue;
      }
      if (t.kind === 'directive') continue;
      if (pending.length) {
        this.pragmasBefore.set(toks.length, pending);
        pending = [];
      }
      toks.push(t);
    }
    if (pending.length) this.pragmasBefore.set(toks.length, pending);
    const last = toks.length ? toks[toks.length - 1].end : Math.min(textLength, 0);
    toks.push({ kind: 'eof', text: '', start: last, end: last, bol: true });
    this.toks = toks;
  }

  // ------------------------------------------------------------ token helpers

  get cur(): Token {
    return this.toks[this.i];
  }

  peek(k: number): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)];
  }

  get prev(): Token {
    return this.toks[Math.max(0, this.i - 1)];
  }

  get eof(): boolean {
    return this.cur.kind === 'eof';
  }

  next(): Token {
    const t = this.toks[this.i];
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }

  isPunct(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === text;
  }

  isWord(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'ident' && t.text === text;
  }

  accept(text: string): Token | undefined {
    const t = this.cur;
    if ((t.kind === 'punct' || t.kind === 'ident') && t.text === text) return this.next();
    return undefined;
  }

  error(start: number, end: number, message: string): void {
    if (this.lastErrorAt === this.i) return;
    this.lastErrorAt = this.i;
    this.sink.error(start, end, 'pcore.syntax', message);
  }

  errorAtCur(message: string): void {
    const t = this.cur;
    this.error(t.start, t.end, message);
  }

  expect(text: string, context: string): Token | undefined {
    const t = this.accept(text);
    if (t) return t;
    this.errorAtCur(`syntax error: expected \`${text}\` ${context}, found ${describe(this.cur)}`);
    return undefined;
  }

  /** Expects `;`. When missing and the next token starts a new line, recovers without skipping. */
  expectSemicolon(context: string, statementStart: number): void {
    if (this.accept(';')) return;
    const t = this.cur;
    const p = this.prev;
    if (t.bol || t.kind === 'eof' || (t.kind === 'punct' && t.text === '}')) {
      this.error(p.start, p.end, `syntax error: missing \`;\` ${context}`);
      return;
    }
    this.errorAtCur(`syntax error: expected \`;\` ${context}, found ${describe(t)}`);
    this.syncStatement(statementStart);
  }

  /** Skips to a statement boundary; consumes at least one token when no progress was made. */
  syncStatement(startIndex: number): void {
    if (this.i === startIndex && !this.eof && !this.isPunct('}')) this.next();
    let depth = 0;
    while (!this.eof) {
      const t = this.cur;
      if (t.kind === 'punct') {
        if (t.text === '(' || t.text === '[') depth++;
        else if ((t.text === ')' || t.text === ']') && depth > 0) depth--;
        else if (t.text === ';' && depth === 0) {
          this.next();
          return;
        } else if (t.text === '}' || t.text === '{') return;
      } else if (t.bol && t.kind === 'ident' && (STATEMENT_STARTERS.has(t.text) || TOP_LEVEL_STARTERS.has(t.text))) {
        return;
      }
      this.next();
    }
  }

  /** Skips to the end of a top-level item. */
  syncTopLevel(startIndex: number): void {
    if (this.i === startIndex && !this.eof) this.next();
    let depth = 0;
    while (!this.eof) {
      const t = this.cur;
      if (t.kind === 'punct') {
        if (t.text === '{') depth++;
        else if (t.text === '}') {
          if (depth === 0) return;
          depth--;
          if (depth === 0) {
            this.next();
            return;
          }
        } else if (t.text === ';' && depth === 0) {
          this.next();
          return;
        }
      } else if (depth === 0 && t.bol && t.kind === 'ident' && (TOP_LEVEL_STARTERS.has(t.text) || NT_WORDS.has(t.text))) {
        return;
      }
      this.next();
    }
  }

  /**
   * True at the start of a line that begins a file-level item: `_kernel_`, `_NTn_`, a `_share`
   * declaration of a scoped name, or a function definition `type cls::name(`.
   */
  looksLikeTopLevel(): boolean {
    const t = this.cur;
    if (!t.bol || t.kind !== 'ident') return false;
    if (t.text === '_kernel_' || NT_WORDS.has(t.text)) return true;
    if (!SPECIFIER_WORDS.has(t.text) && !TYPE_WORDS.has(t.text)) return false;
    const share = t.text === '_share';
    for (let k = 1; k < 6; k++) {
      const n = this.peek(k);
      if (n.kind === 'ident' && (SPECIFIER_WORDS.has(n.text) || TYPE_WORDS.has(n.text))) continue;
      if (n.kind === 'punct' && n.text === '*') continue;
      if (n.kind !== 'ident' || !n.text.includes('::')) return false;
      return share || this.isPunct('(', k + 1);
    }
    return false;
  }

  private enter(): boolean {
    this.depth++;
    return this.depth <= MAX_DEPTH;
  }

  private leave(): void {
    this.depth--;
  }

  /** Records the depth of a new expression node; too deep trees are cut (replaced by an error node). */
  private mk(node: A.Expr, ...children: (A.Expr | null | undefined)[]): A.Expr {
    let m = 0;
    for (const c of children) {
      if (!c) continue;
      const x = this.depths.get(c) ?? 1;
      if (x > m) m = x;
    }
    if (m + 1 > MAX_EXPR_DEPTH) {
      if (!this.tooComplexReported) {
        this.tooComplexReported = true;
        this.error(node.start, node.end, `syntax error: expression is too complex (more than ${MAX_EXPR_DEPTH} nested operations)`);
      }
      return { kind: 'ErrorExpr', start: node.start, end: node.end };
    }
    this.depths.set(node, m + 1);
    return node;
  }

  // ------------------------------------------------------------ program

  parseProgram(textLength: number): A.Program {
    const items: A.TopLevel[] = [];
    while (!this.eof) {
      const startI = this.i;
      const item = this.parseTopLevel();
      if (item) items.push(item);
      if (this.i === startI) this.next();
    }
    for (const p of this.allPragmas) {
      if (!this.usedPragmas.has(p) && pragmaWord(p.text) === 'unroll') {
        this.sink.warning(p.start, p.end, 'pcore.pragma', '`#pragma unroll` must be followed by a loop (`for`, `while` or `do`); it is ignored here');
      }
    }
    return { kind: 'Program', items, start: 0, end: textLength };
  }

  parseTopLevel(): A.TopLevel | undefined {
    const t = this.cur;
    const startI = this.i;
    if (t.kind === 'punct' && t.text === ';') {
      this.next();
      return undefined;
    }
    if (t.kind === 'punct' && t.text === '}') {
      this.next();
      if (this.linkageDepth > 0) {
        this.linkageDepth--;
        return undefined;
      }
      this.error(t.start, t.end, 'syntax error: unexpected `}` at file level');
      return undefined;
    }
    if (t.kind === 'ident' && NT_WORDS.has(t.text)) return this.parseClassDecl();
    if (t.kind === 'ident' && t.text === 'extern' && this.peek(1).kind === 'string') {
      this.next();
      this.next();
      if (this.accept('{')) this.linkageDepth++;
      return { kind: 'ExternDecl', start: t.start, end: this.prev.end };
    }
    const specs = this.parseDeclSpecifiers();
    if (specs.specifiers.some((s) => s.name === 'extern')) return this.skipExtern(t.start, startI);
    if (specs.specifiers.some((s) => s.name === 'typedef')) {
      this.syncTopLevel(startI);
      this.sink.warning(t.start, this.prev.end, 'pcore.ignored', '`typedef` is not supported by the PCORE compiler; declaration ignored');
      return { kind: 'IgnoredDecl', reason: 'typedef', start: t.start, end: this.prev.end };
    }
    let type = specs.type;
    if (!type) {
      if (specs.specifiers.length === 0) {
        this.errorAtCur(`syntax error: expected a declaration or a function definition, found ${describe(this.cur)}`);
        this.syncTopLevel(startI);
        return { kind: 'IgnoredDecl', reason: 'syntax error', start: t.start, end: Math.max(t.start, this.prev.end) };
      }
      this.errorAtCur(`syntax error: expected a type (one of ${PCORE_TYPE_LIST}, void), found ${describe(this.cur)}`);
      type = { kind: 'TypeSpec', name: '', words: [], valid: false, start: this.cur.start, end: this.cur.start };
    }
    if (this.isPunct(';')) {
      this.next();
      return { kind: 'IgnoredDecl', reason: 'declaration without a name', start: t.start, end: this.prev.end };
    }
    const d = this.parseDeclarator(false);
    if (!d.name) {
      this.syncTopLevel(startI);
      return { kind: 'IgnoredDecl', reason: 'syntax error', start: t.start, end: Math.max(t.start, this.prev.end) };
    }
    if (d.params && this.isPunct('{')) {
      const body = this.parseBlock();
      const fn: A.FunctionDef = {
        kind: 'FunctionDef',
        specifiers: specs.specifiers,
        returnType: type,
        declarator: d,
        name: d.name,
        nameStart: d.nameStart,
        nameEnd: d.nameEnd,
        params: d.params,
        body,
        isKernel: specs.specifiers.some((s) => s.name === '_kernel_'),
        start: t.start,
        end: body.end,
      };
      return fn;
    }
    if (d.params && this.isPunct(';')) {
      this.next();
      this.sink.warning(t.start, this.prev.end, 'pcore.ignored', 'function prototype ignored: the PCORE compiler only compiles function definitions');
      return { kind: 'IgnoredDecl', reason: 'prototype', start: t.start, end: this.prev.end };
    }
    const declarators = [d];
    this.parseInit(d);
    while (this.accept(',')) {
      const d2 = this.parseDeclarator(false);
      if (!d2.name) break;
      this.parseInit(d2);
      declarators.push(d2);
    }
    this.expectSemicolon('after the declaration', startI);
    return { kind: 'Declaration', specifiers: specs.specifiers, type, declarators, start: t.start, end: this.prev.end };
  }

  private skipExtern(start: number, startI: number): A.ExternDecl {
    let depth = 0;
    let name: string | undefined;
    while (!this.eof) {
      const t = this.cur;
      if (t.kind === 'ident' && depth === 0 && !name && !isKeyword(t.text) && this.isPunct('(', 1)) name = t.text;
      if (t.kind === 'punct') {
        if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
        else if (t.text === ')' || t.text === ']' || t.text === '}') {
          if (depth === 0) break;
          depth--;
          if (depth === 0 && t.text === '}') {
            this.next();
            if (this.isPunct(';')) this.next();
            break;
          }
        } else if (t.text === ';' && depth === 0) {
          this.next();
          break;
        }
      } else if (depth === 0 && t.bol && this.i > startI + 1 && t.kind === 'ident' && (t.text === '_kernel_' || t.text === '_share' || NT_WORDS.has(t.text))) {
        this.error(this.prev.start, this.prev.end, 'syntax error: missing `;` after the extern declaration');
        break;
      }
      this.next();
    }
    return { kind: 'ExternDecl', name, start, end: Math.max(start, this.prev.end) };
  }

  private parseClassDecl(): A.ClassDecl {
    const t = this.next();
    const startI = this.i - 1;
    const names: { name: string; start: number; end: number }[] = [];
    if (!this.accept('class')) this.errorAtCur(`syntax error: expected \`class\` after \`${t.text}\`, found ${describe(this.cur)}`);
    else {
      do {
        const n = this.cur;
        if (n.kind !== 'ident' || isKeyword(n.text)) {
          this.errorAtCur(`syntax error: expected a class name, found ${describe(n)}`);
          break;
        }
        this.next();
        names.push({ name: n.text, start: n.start, end: n.end });
      } while (this.accept(','));
    }
    this.expectSemicolon('after the class declaration', startI);
    return { kind: 'ClassDecl', threads: NT_WORDS.get(t.text) ?? 16, names, start: t.start, end: this.prev.end };
  }

  // ------------------------------------------------------------ declarations

  isDeclStart(): boolean {
    const t = this.cur;
    if (t.kind !== 'ident') return false;
    if (SPECIFIER_WORDS.has(t.text) || TYPE_WORDS.has(t.text) || TAG_WORDS.has(t.text)) return true;
    if (NOT_TYPE_WORDS.has(t.text)) {
      const n = this.peek(1);
      return (n.kind === 'ident' && !isKeyword(n.text)) || (n.kind === 'punct' && n.text === '*' && this.peek(2).kind === 'ident');
    }
    return false;
  }

  parseDeclSpecifiers(): { specifiers: A.Specifier[]; type: A.TypeSpec | null } {
    const specifiers: A.Specifier[] = [];
    const words: string[] = [];
    let typeStart = -1;
    let typeEnd = -1;
    for (;;) {
      const t = this.cur;
      if (t.kind !== 'ident') break;
      if (SPECIFIER_WORDS.has(t.text)) {
        specifiers.push({ kind: 'Specifier', name: t.text as A.SpecifierName, start: t.start, end: t.end });
        this.next();
        continue;
      }
      if (TYPE_WORDS.has(t.text)) {
        if (typeStart < 0) typeStart = t.start;
        typeEnd = t.end;
        words.push(t.text);
        this.next();
        continue;
      }
      if (words.length === 0 && NOT_TYPE_WORDS.has(t.text)) {
        const n = this.peek(1);
        if ((n.kind === 'ident' && !isKeyword(n.text)) || (n.kind === 'punct' && (n.text === '*' || n.text === ')'))) {
          typeStart = t.start;
          typeEnd = t.end;
          words.push(t.text);
          this.next();
          continue;
        }
        break;
      }
      if (TAG_WORDS.has(t.text)) {
        if (typeStart < 0) typeStart = t.start;
        this.next();
        let w = t.text;
        if (this.cur.kind === 'ident' && !isKeyword(this.cur.text)) w += ' ' + this.next().text;
        if (this.isPunct('{')) this.skipBalanced('{', '}');
        typeEnd = this.prev.end;
        words.push(w);
        continue;
      }
      if (words.length === 0 && specifiers.some((s) => s.name === 'extern') && !isKeyword(t.text)) {
        // typedef name in a C prototype (e.g. uint8_t); the whole extern declaration is skipped anyway
        typeStart = t.start;
        typeEnd = t.end;
        words.push(t.text);
        this.next();
        continue;
      }
      break;
    }
    if (!words.length) return { specifiers, type: null };
    const c = canonicalType(words);
    return { specifiers, type: { kind: 'TypeSpec', name: c.name, words, valid: c.valid, start: typeStart, end: typeEnd } };
  }

  private skipBalanced(open: string, close: string): void {
    let depth = 0;
    while (!this.eof) {
      const t = this.next();
      if (t.kind !== 'punct') continue;
      if (t.text === open) depth++;
      else if (t.text === close) {
        depth--;
        if (depth <= 0) return;
      }
    }
  }

  parseDeclarator(abstractOk: boolean): A.Declarator {
    const start = this.cur.start;
    let pointer = 0;
    while (this.accept('*')) {
      pointer++;
      while (this.isWord('const') || this.isWord('volatile') || this.isWord('restrict')) this.next();
    }
    let name = '';
    let nameStart = this.cur.start;
    let nameEnd = this.cur.start;
    const t = this.cur;
    if (t.kind === 'ident' && !isKeyword(t.text)) {
      this.next();
      name = t.text;
      nameStart = t.start;
      nameEnd = t.end;
    } else if (!abstractOk) {
      this.errorAtCur(`syntax error: expected a name in the declaration, found ${describe(t)}`);
    }
    const dims: (A.Expr | null)[] = [];
    let params: A.ParamDecl[] | undefined;
    for (;;) {
      if (this.isPunct('[')) {
        this.next();
        if (this.isPunct(']')) dims.push(null);
        else dims.push(this.parseAssign());
        this.expect(']', 'to close the array dimension');
      } else if (this.isPunct('(') && params === undefined && dims.length === 0 && (name || abstractOk)) {
        this.next();
        params = this.parseParamList();
        this.expect(')', 'to close the parameter list');
      } else break;
    }
    const end = Math.max(start, this.prev.end);
    return { kind: 'Declarator', name, nameStart, nameEnd, pointer, dims, params, init: null, start, end };
  }

  private parseParamList(): A.ParamDecl[] {
    const params: A.ParamDecl[] = [];
    if (this.isPunct(')')) return params;
    if (this.isWord('void') && this.isPunct(')', 1)) {
      this.next();
      return params;
    }
    for (;;) {
      const t = this.cur;
      const startI = this.i;
      if (this.accept('...')) {
        params.push({
          kind: 'ParamDecl',
          specifiers: [],
          ellipsis: true,
          declarator: null,
          start: t.start,
          end: t.end,
          type: { kind: 'TypeSpec', name: '...', words: [], valid: false, start: t.start, end: t.end },
        });
        break;
      }
      const specs = this.parseDeclSpecifiers();
      let type = specs.type;
      if (!type) {
        this.errorAtCur(`syntax error: expected a parameter type (one of ${PCORE_TYPE_LIST}), found ${describe(this.cur)}`);
        type = { kind: 'TypeSpec', name: '', words: [], valid: false, start: this.cur.start, end: this.cur.start };
      }
      const declarator = this.isPunct(',') || this.isPunct(')') ? null : this.parseDeclarator(true);
      if (this.i === startI) break;
      params.push({
        kind: 'ParamDecl',
        specifiers: specs.specifiers,
        type,
        declarator,
        start: t.start,
        end: Math.max(t.start, this.prev.end),
      });
      if (!this.accept(',')) break;
    }
    return params;
  }

  private parseInit(d: A.Declarator): void {
    if (!this.accept('=')) return;
    d.init = this.isPunct('{') ? this.parseInitList() : this.parseAssign();
    d.end = this.prev.end;
  }

  private parseInitList(): A.Expr {
    const open = this.next();
    if (!this.enter()) {
      this.leave();
      this.errorAtCur('syntax error: initializer nested too deeply');
      this.i--;
      this.skipBalanced('{', '}');
      return { kind: 'ErrorExpr', start: open.start, end: this.prev.end };
    }
    const elements: A.Expr[] = [];
    while (!this.eof && !this.isPunct('}')) {
      const startI = this.i;
      elements.push(this.isPunct('{') ? this.parseInitList() : this.parseAssign());
      if (!this.accept(',')) break;
      if (this.i === startI) break;
    }
    this.expect('}', 'to close the initializer list');
    this.leave();
    return this.mk({ kind: 'InitList', elements, start: open.start, end: this.prev.end }, ...elements);
  }

  private parseLocalDeclaration(): A.DeclStmt {
    const startI = this.i;
    const start = this.cur.start;
    const specs = this.parseDeclSpecifiers();
    let type = specs.type;
    if (!type) {
      this.errorAtCur(`syntax error: expected a type (one of ${PCORE_TYPE_LIST}), found ${describe(this.cur)}`);
      type = { kind: 'TypeSpec', name: '', words: [], valid: false, start: this.cur.start, end: this.cur.start };
    }
    const declarators: A.Declarator[] = [];
    if (!this.isPunct(';')) {
      do {
        const d = this.parseDeclarator(false);
        if (!d.name) break;
        if (d.params) this.error(d.start, d.end, 'syntax error: functions cannot be declared inside a function');
        this.parseInit(d);
        declarators.push(d);
      } while (this.accept(','));
    } else {
      this.errorAtCur('syntax error: expected a name in the declaration, found `;`');
    }
    this.expectSemicolon('after the declaration', startI);
    const declaration: A.Declaration = { kind: 'Declaration', specifiers: specs.specifiers, type, declarators, start, end: this.prev.end };
    return { kind: 'DeclStmt', declaration, start, end: this.prev.end };
  }

  // ------------------------------------------------------------ statements

  parseBlock(): A.Block {
    const open = this.cur;
    const body: A.Stmt[] = [];
    if (!this.accept('{')) {
      this.errorAtCur(`syntax error: expected \`{\`, found ${describe(open)}`);
      return { kind: 'Block', body, start: open.start, end: open.start };
    }
    while (!this.eof && !this.isPunct('}')) {
      // a new top-level item at the start of a line: the block was not closed
      if (this.looksLikeTopLevel()) break;
      const startI = this.i;
      body.push(this.parseStatement());
      if (this.i === startI) this.next();
    }
    if (!this.accept('}')) {
      this.sink.error(open.start, open.end, 'pcore.syntax', 'syntax error: missing `}` to close this block');
      return { kind: 'Block', body, start: open.start, end: Math.max(open.end, this.prev.end) };
    }
    return { kind: 'Block', body, start: open.start, end: this.prev.end };
  }

  private takePragmas(): Token[] {
    const ps = this.pragmasBefore.get(this.i);
    if (!ps) return [];
    this.pragmasBefore.delete(this.i);
    return ps;
  }

  parseStatement(): A.Stmt {
    if (!this.enter()) {
      this.leave();
      const t = this.cur;
      this.errorAtCur('syntax error: statements nested too deeply');
      this.skipNested();
      return { kind: 'ErrorStmt', start: t.start, end: Math.max(t.start, this.prev.end) };
    }
    try {
      const pragmas = this.takePragmas();
      const st = this.parseStatementInner();
      if (pragmas.length) {
        if (st.kind === 'For' || st.kind === 'While' || st.kind === 'DoWhile') {
          for (const p of pragmas) this.usedPragmas.add(p);
          st.pragmas = pragmas.map((p): A.Pragma => ({ kind: 'Pragma', text: p.text, start: p.start, end: p.end }));
          st.unroll = pragmas.some((p) => pragmaWord(p.text) === 'unroll');
        }
      }
      return st;
    } finally {
      this.leave();
    }
  }

  /** Skips a deeply nested region (used when the depth limit is hit). */
  private skipNested(): void {
    let depth = 0;
    const startI = this.i;
    while (!this.eof) {
      const t = this.cur;
      if (t.kind === 'punct') {
        if (t.text === '{' || t.text === '(' || t.text === '[') depth++;
        else if (t.text === '}' || t.text === ')' || t.text === ']') {
          if (depth === 0) break;
          depth--;
        } else if (t.text === ';' && depth === 0) {
          this.next();
          break;
        }
      }
      this.next();
    }
    if (this.i === startI && !this.eof) this.next();
  }

  private parseStatementInner(): A.Stmt {
    const t = this.cur;
    const startI = this.i;
    if (t.kind === 'punct') {
      if (t.text === '{') return this.parseBlock();
      if (t.text === ';') {
        this.next();
        return { kind: 'Empty', start: t.start, end: t.end };
      }
    }
    if (t.kind === 'ident') {
      switch (t.text) {
        case 'if': {
          this.next();
          this.expect('(', 'after `if`');
          const test = this.parseExpression();
          this.expect(')', 'after the `if` condition');
          const consequent = this.parseStatement();
          let alternate: A.Stmt | null = null;
          if (this.accept('else')) alternate = this.parseStatement();
          return { kind: 'If', test, consequent, alternate, start: t.start, end: this.prev.end };
        }
        case 'for': {
          this.next();
          this.expect('(', 'after `for`');
          let init: A.DeclStmt | A.Expr | null = null;
          if (this.isPunct(';')) this.next();
          else if (this.isDeclStart()) init = this.parseLocalDeclaration();
          else {
            init = this.parseExpression();
            this.expect(';', 'after the `for` initialization');
          }
          const test = this.isPunct(';') ? null : this.parseExpression();
          this.expect(';', 'after the `for` condition');
          const update = this.isPunct(')') ? null : this.parseExpression();
          this.expect(')', 'to close the `for` header');
          const body = this.parseStatement();
          return { kind: 'For', init, test, update, body, unroll: false, pragmas: [], start: t.start, end: this.prev.end };
        }
        case 'while': {
          this.next();
          this.expect('(', 'after `while`');
          const test = this.parseExpression();
          this.expect(')', 'after the `while` condition');
          const body = this.parseStatement();
          return { kind: 'While', test, body, unroll: false, pragmas: [], start: t.start, end: this.prev.end };
        }
        case 'do': {
          this.next();
          const body = this.parseStatement();
          let test: A.Expr;
          if (this.expect('while', 'after the body of `do`')) {
            this.expect('(', 'after `while`');
            test = this.parseExpression();
            this.expect(')', 'after the `while` condition');
            this.expectSemicolon('after `do ... while (...)`', startI);
          } else {
            test = { kind: 'ErrorExpr', start: this.cur.start, end: this.cur.start };
          }
          return { kind: 'DoWhile', body, test, unroll: false, pragmas: [], start: t.start, end: this.prev.end };
        }
        case 'switch':
          return this.parseSwitch();
        case 'case':
        case 'default': {
          this.next();
          if (t.text === 'case') this.parseConditional();
          this.accept(':');
          this.sink.error(t.start, t.end, 'pcore.syntax', `syntax error: \`${t.text}\` label must be directly inside the body of a \`switch\``);
          return { kind: 'ErrorStmt', start: t.start, end: this.prev.end };
        }
        case 'break':
          this.next();
          this.expectSemicolon('after `break`', startI);
          return { kind: 'Break', start: t.start, end: this.prev.end };
        case 'continue':
          this.next();
          this.expectSemicolon('after `continue`', startI);
          return { kind: 'Continue', start: t.start, end: this.prev.end };
        case 'return': {
          this.next();
          const argument = this.isPunct(';') ? null : this.parseExpression();
          this.expectSemicolon('after the `return` statement', startI);
          return { kind: 'Return', argument, start: t.start, end: this.prev.end };
        }
        case 'goto':
          this.errorAtCur('syntax error: `goto` is not supported by the PCORE compiler');
          this.syncStatement(startI);
          return { kind: 'ErrorStmt', start: t.start, end: this.prev.end };
        case 'else':
          this.errorAtCur('syntax error: `else` without a matching `if`');
          this.syncStatement(startI);
          return { kind: 'ErrorStmt', start: t.start, end: this.prev.end };
      }
      if (this.isDeclStart()) return this.parseLocalDeclaration();
    }
    const expression = this.parseExpression();
    if (expression.kind === 'ErrorExpr') {
      this.syncStatement(startI);
      return { kind: 'ErrorStmt', start: t.start, end: Math.max(t.start, this.prev.end) };
    }
    this.expectSemicolon('after the expression', startI);
    return { kind: 'ExprStmt', expression, start: t.start, end: this.prev.end };
  }

  private parseSwitch(): A.SwitchStmt {
    const t = this.next();
    this.expect('(', 'after `switch`');
    const discriminant = this.parseExpression();
    this.expect(')', 'after the `switch` value');
    const cases: A.SwitchCase[] = [];
    if (!this.isPunct('{')) {
      this.errorAtCur(`syntax error: expected \`{\` after \`switch (...)\`, found ${describe(this.cur)}`);
      return { kind: 'Switch', discriminant, cases, start: t.start, end: this.prev.end };
    }
    const open = this.next();
    let current: A.SwitchCase | null = null;
    while (!this.eof && !this.isPunct('}')) {
      const c = this.cur;
      const startI = this.i;
      if (c.kind === 'ident' && (c.text === 'case' || c.text === 'default')) {
        this.next();
        const test = c.text === 'case' ? this.parseConditional() : null;
        this.expect(':', `after the \`${c.text}\` label`);
        current = { kind: 'SwitchCase', test, consequent: [], start: c.start, end: this.prev.end };
        cases.push(current);
        continue;
      }
      if (this.looksLikeTopLevel()) break;
      const st = this.parseStatement();
      if (current) {
        current.consequent.push(st);
        current.end = st.end;
      } else {
        this.sink.warning(st.start, st.end, 'pcore.unreachable', 'statement before the first `case` label is never executed');
      }
      if (this.i === startI) this.next();
    }
    if (!this.accept('}')) this.sink.error(open.start, open.end, 'pcore.syntax', 'syntax error: missing `}` to close the `switch` body');
    return { kind: 'Switch', discriminant, cases, start: t.start, end: this.prev.end };
  }

  // ------------------------------------------------------------ expressions

  parseExpression(): A.Expr {
    const first = this.parseAssign();
    if (!this.isPunct(',')) return first;
    const expressions = [first];
    while (this.accept(',')) expressions.push(this.parseAssign());
    return this.mk({ kind: 'Sequence', expressions, start: A_outerStart(first), end: A_outerEnd(expressions[expressions.length - 1]) }, ...expressions);
  }

  parseAssign(): A.Expr {
    const left = this.parseConditional();
    const t = this.cur;
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text)) {
      this.next();
      const value = this.parseAssign();
      return this.mk(
        {
          kind: 'Assign',
          op: t.text as A.AssignOperator,
          target: left,
          value,
          opStart: t.start,
          start: A_outerStart(left),
          end: A_outerEnd(value),
        },
        left,
        value,
      );
    }
    return left;
  }

  parseConditional(): A.Expr {
    const test = this.parseBinary(1);
    if (!this.isPunct('?')) return test;
    this.next();
    const consequent = this.parseExpression();
    this.expect(':', 'in the conditional expression');
    const alternate = this.parseConditional();
    return this.mk({ kind: 'Conditional', test, consequent, alternate, start: A_outerStart(test), end: A_outerEnd(alternate) }, test, consequent, alternate);
  }

  private parseBinary(minPrec: number): A.Expr {
    let left = this.parseUnary();
    for (;;) {
      const t = this.cur;
      if (t.kind !== 'punct') break;
      const p = BINARY_PRECEDENCE[t.text];
      if (p === undefined || p < minPrec) break;
      this.next();
      const right = this.parseBinary(p + 1);
      const start = A_outerStart(left);
      const end = A_outerEnd(right);
      if (t.text === '&&' || t.text === '||') {
        left = this.mk({ kind: 'Logical', op: t.text, left, right, opStart: t.start, start, end }, left, right);
      } else {
        left = this.mk({ kind: 'Binary', op: t.text as A.BinaryOperator, left, right, opStart: t.start, start, end }, left, right);
      }
    }
    return left;
  }

  private parseUnary(): A.Expr {
    if (!this.enter()) {
      this.leave();
      const t = this.cur;
      this.errorAtCur('syntax error: expression nested too deeply');
      return { kind: 'ErrorExpr', start: t.start, end: t.start };
    }
    try {
      const t = this.cur;
      if (t.kind === 'punct') {
        switch (t.text) {
          case '++':
          case '--': {
            this.next();
            const argument = this.parseUnary();
            return this.mk({ kind: 'Update', op: t.text, prefix: true, argument, start: t.start, end: A_outerEnd(argument) }, argument);
          }
          case '-':
          case '+':
          case '!':
          case '~':
          case '&':
          case '*': {
            this.next();
            const argument = this.parseUnary();
            return this.mk({ kind: 'Unary', op: t.text as A.UnaryOperator, argument, start: t.start, end: A_outerEnd(argument) }, argument);
          }
          case '(': {
            const n = this.peek(1);
            if (
              n.kind === 'ident' &&
              (TYPE_WORDS.has(n.text) || TAG_WORDS.has(n.text) || (NOT_TYPE_WORDS.has(n.text) && (this.isPunct(')', 2) || this.isPunct('*', 2))))
            ) {
              this.next();
              const specs = this.parseDeclSpecifiers();
              let pointer = 0;
              while (this.accept('*')) pointer++;
              this.expect(')', 'to close the cast');
              const argument = this.parseUnary();
              const type = specs.type ?? { kind: 'TypeSpec', name: '', words: [], valid: false, start: n.start, end: n.start };
              return this.mk({ kind: 'Cast', type, pointer, argument, start: t.start, end: A_outerEnd(argument) }, argument);
            }
            break;
          }
        }
      } else if (t.kind === 'ident' && t.text === 'sizeof') {
        this.next();
        if (this.isPunct('(') && this.peek(1).kind === 'ident' && (TYPE_WORDS.has(this.peek(1).text) || NOT_TYPE_WORDS.has(this.peek(1).text))) {
          this.next();
          const specs = this.parseDeclSpecifiers();
          while (this.accept('*'));
          this.expect(')', 'to close `sizeof`');
          const type = specs.type ?? { kind: 'TypeSpec', name: '', words: [], valid: false, start: t.end, end: t.end };
          return { kind: 'Sizeof', argument: type, start: t.start, end: this.prev.end };
        }
        const argument = this.parseUnary();
        return this.mk({ kind: 'Sizeof', argument, start: t.start, end: A_outerEnd(argument) }, argument);
      }
      return this.parsePostfix();
    } finally {
      this.leave();
    }
  }

  private parsePostfix(): A.Expr {
    let e = this.parsePrimary();
    if (e.kind === 'ErrorExpr') return e;
    for (;;) {
      const t = this.cur;
      if (t.kind !== 'punct') break;
      if (t.text === '[') {
        this.next();
        const index = this.parseExpression();
        this.expect(']', 'to close the index');
        e = this.mk({ kind: 'Index', object: e, index, start: A_outerStart(e), end: this.prev.end }, e, index);
      } else if (t.text === '(') {
        this.next();
        const args: A.Expr[] = [];
        if (!this.isPunct(')')) {
          for (;;) {
            const startI = this.i;
            args.push(this.parseAssign());
            if (!this.accept(',') || this.i === startI) break;
          }
        }
        this.expect(')', 'to close the argument list');
        e = this.mk({ kind: 'Call', callee: e, args, start: A_outerStart(e), end: this.prev.end }, e, ...args);
      } else if (t.text === '.' || t.text === '->') {
        this.next();
        const p = this.cur;
        let property = '';
        if (p.kind === 'ident') {
          this.next();
          property = p.text;
        } else {
          this.errorAtCur(`syntax error: expected a member name after \`${t.text}\`, found ${describe(p)}`);
        }
        e = this.mk({ kind: 'Member', object: e, property, arrow: t.text === '->', start: A_outerStart(e), end: this.prev.end }, e);
      } else if (t.text === '++' || t.text === '--') {
        this.next();
        e = this.mk({ kind: 'Update', op: t.text, prefix: false, argument: e, start: A_outerStart(e), end: t.end }, e);
      } else break;
    }
    return e;
  }

  private parsePrimary(): A.Expr {
    const t = this.cur;
    switch (t.kind) {
      case 'ident': {
        if (isKeyword(t.text)) {
          this.errorAtCur(`syntax error: expected an expression, found ${describe(t)}`);
          return { kind: 'ErrorExpr', start: t.start, end: t.start };
        }
        this.next();
        const k = t.text.indexOf('::');
        const id: A.Identifier = {
          kind: 'Identifier',
          name: t.text,
          member: k >= 0 ? t.text.slice(k + 2) : t.text,
          start: t.start,
          end: t.end,
        };
        if (k >= 0) id.scope = t.text.slice(0, k);
        if (t.macro) id.macro = t.macro;
        return id;
      }
      case 'number': {
        this.next();
        const n: A.NumberLiteral = {
          kind: 'NumberLiteral',
          value: t.value ?? 0,
          raw: t.text,
          isFloat: !!t.isFloat,
          isChar: !!t.isChar,
          start: t.start,
          end: t.end,
        };
        if (t.macro) n.macro = t.macro;
        return n;
      }
      case 'string': {
        this.next();
        let raw = t.text;
        while (this.cur.kind === 'string') raw += ' ' + this.next().text;
        return { kind: 'StringLiteral', raw, start: t.start, end: this.prev.end };
      }
      case 'punct':
        if (t.text === '(') {
          this.next();
          const e = this.parseExpression();
          const close = this.expect(')', 'to close the parenthesis');
          if (e.kind !== 'ErrorExpr') {
            e.parenStart = t.start;
            e.parenEnd = close ? close.end : Math.max(t.end, this.prev.end);
          }
          return e;
        }
        break;
    }
    this.errorAtCur(`syntax error: expected an expression, found ${describe(t)}`);
    return { kind: 'ErrorExpr', start: t.start, end: t.start };
  }
}

function A_outerStart(e: A.Expr): number {
  return e.parenStart ?? e.start;
}

function A_outerEnd(e: A.Expr): number {
  return e.parenEnd ?? e.end;
}

export function pragmaWord(text: string): string {
  const m = /^\s*([A-Za-z_]\w*)/.exec(text);
  return m ? m[1] : '';
}

/** Parses preprocessed tokens into a Program. */
export function parseTokens(tokens: readonly Token[], textLength: number, sink: DiagnosticSink): A.Program {
  const p = new Parser(tokens, sink, textLength);
  return p.parseProgram(textLength);
}

/**
 * Parses a standalone expression (used for `#if`). Returns undefined when the tokens do not form
 * exactly one expression. Reports nothing.
 */
export function parseExpressionTokens(tokens: readonly Token[], sink: DiagnosticSink): A.Expr | undefined {
  const p = new Parser(tokens, sink, 0);
  const before = sink.items.length;
  const e = p.parseExpression();
  if (!p.eof || sink.items.length !== before || e.kind === 'ErrorExpr') return undefined;
  return e;
}
