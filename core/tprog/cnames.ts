/**
 * Which C names a `>` statement may use. The ztachip compiler copies the C text of a term (indices,
 * dimensions, FOR ranges, PAD, REMAP, EXE arguments) verbatim into the generated C, so a name that is
 * neither a FOR of the term (only as a whole index `[I]`) nor declared in C makes the generated C fail
 * to compile, while the compiler itself says nothing.
 *
 * The light C scan does not see every declaration (enum constants, names declared in headers other
 * than macros), so a name counts as declared when the scan knows it or when it occurs anywhere in the
 * document's C code (outside `>` lines and `//` comments) other than as a member (`req->in_p`) or a
 * field of a struct being defined: only names that appear nowhere else are reported.
 */
import type { LineIndex } from '../common/lineIndex';
import type { CContext } from './ccontext';
import type { TensorLineScan } from './lines';
import { MACHINE } from './machineConstants';
import type { ValueScope } from './values';

/**
 * What the answers read of a document's analysis (a `TprogAnalysis` is one): named here so that this
 * file, which the analysis result refers to, does not import analysis.ts back.
 */
export interface CNamesSource {
  file: string;
  text: string;
  lines: LineIndex;
  scan: TensorLineScan;
  c: CContext;
  values: ValueScope;
  /** Variables and functions declared by the included headers (see AnalyzeOptions.headerNames). */
  headerNames(): ReadonlySet<string>;
}

/** C keywords and built-in type words that can appear in an expression (casts, sizeof). */
const C_WORDS = new Set([
  'sizeof',
  'int',
  'unsigned',
  'signed',
  'short',
  'long',
  'char',
  'bool',
  'const',
  'volatile',
  'float',
  'double',
  'void',
  'struct',
  'union',
  'enum',
  'int8_t',
  'int16_t',
  'int32_t',
  'int64_t',
  'uint8_t',
  'uint16_t',
  'uint32_t',
  'uint64_t',
  'size_t',
  'intptr_t',
  'uintptr_t',
  'true',
  'false',
  'NULL',
]);

const isIdStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);

/**
 * Calls `each(start, end)` for every identifier of C text `s[from, to)` that names something by
 * itself: not a member after `.` or `->`, not part of a number, a literal, or a `$cls::kernel` /
 * `cls::kernel` reference (those are checked against the PCORE program).
 */
export function eachCName(s: string, from: number, to: number, each: (start: number, end: number) => void): void {
  let i = from;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 39) {
      // a string or character literal
      let k = i + 1;
      while (k < to && s.charCodeAt(k) !== c) k += s.charCodeAt(k) === 92 ? 2 : 1;
      i = k + 1;
      continue;
    }
    if (c >= 48 && c <= 57) {
      // a number with its suffix, exponent or hexadecimal digits
      let k = i + 1;
      while (k < to && (isIdPart(s.charCodeAt(k)) || s.charCodeAt(k) === 46)) k++;
      i = k;
      continue;
    }
    if (!isIdStart(c) && c !== 36) {
      i++;
      continue;
    }
    let k = i + 1;
    while (k < to && isIdPart(s.charCodeAt(k))) k++;
    if (c === 36 || (s.charCodeAt(k) === 58 && s.charCodeAt(k + 1) === 58)) {
      // `$name`, `cls::name` (and its member part): a kernel reference, not a C name
      while (k < to && (isIdPart(s.charCodeAt(k)) || s.charCodeAt(k) === 58 || s.charCodeAt(k) === 46)) k++;
      i = k;
      continue;
    }
    let b = i - 1;
    while (b >= from && (s.charCodeAt(b) === 32 || s.charCodeAt(b) === 9)) b--;
    const before = b >= from ? s.charCodeAt(b) : 0;
    const member = before === 46 || (before === 62 && b > from && s.charCodeAt(b - 1) === 45);
    if (!member) each(i, k);
    i = k;
  }
}

/** Answers of `declared` for one analysis (names found by searching the document are cached). */
export class CNames {
  private readonly found = new Map<string, boolean>();
  private functions?: Set<string>;
  private certain?: boolean;

  constructor(private readonly a: CNamesSource) {}

  /** Whether `name`, used at document offset `at`, is declared in C (or is a macro, machine constant or C word). */
  declared(name: string, at: number): boolean {
    const a = this.a;
    if (C_WORDS.has(name) || MACHINE[name] !== undefined || a.values.macro(name) || a.values.variableAt(name, at)) return true;
    this.functions ??= new Set(a.c.functions.map((f) => f.name));
    if (this.functions.has(name) || a.headerNames().has(name)) return true;
    let f = this.found.get(name);
    if (f === undefined) this.found.set(name, (f = this.inCCode(name)));
    return f;
  }

  /**
   * Whether every header the document includes was found (its macros are known): if one was not,
   * a name it declares looks undeclared, so the checker only warns.
   */
  headersKnown(): boolean {
    if (this.certain === undefined) {
      const files = new Set<string>();
      for (const m of this.a.values.allMacros()) if (m.file !== this.a.file) files.add(baseName(m.file));
      // `x.p.img` is written by the ztachip compiler (the PCORE image), it declares no name a statement uses
      this.certain = this.a.c.includes.every((i) => i.system || i.path.endsWith('.img') || files.has(baseName(i.path)));
    }
    return this.certain;
  }

  /** Whether `name` occurs as a whole word in the C code of the document (not on a `>` line, not after `//`). */
  private inCCode(name: string): boolean {
    const { text, lines, scan } = this.a;
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      const end = at + name.length;
      if ((at > 0 && isIdPart(text.charCodeAt(at - 1))) || (end < text.length && isIdPart(text.charCodeAt(end)))) continue;
      const line = lines.position(at).line;
      if (scan.tensorLines.has(line)) continue;
      const lineStart = lines.starts[line];
      const comment = text.indexOf('//', lineStart);
      if (comment >= 0 && comment < at) continue;
      // a member access (`req->in_p`, `s.x`) or a field of a struct being defined declares no variable
      if (afterMember(text, at) || this.a.c.recordBodies.some((b) => at > b.start && at < b.end)) continue;
      return true;
    }
    return false;
  }
}

/** Whether the identifier at `at` follows `.` or `->` (spaces between allowed). */
function afterMember(text: string, at: number): boolean {
  let b = at - 1;
  while (b >= 0 && (text.charCodeAt(b) === 32 || text.charCodeAt(b) === 9)) b--;
  return b >= 0 && (text.charCodeAt(b) === 46 || (text.charCodeAt(b) === 62 && b > 0 && text.charCodeAt(b - 1) === 45));
}

function baseName(f: string): string {
  const k = Math.max(f.lastIndexOf('/'), f.lastIndexOf('\\'));
  return k >= 0 ? f.slice(k + 1) : f;
}
