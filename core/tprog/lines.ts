/**
 * Physical layer of tensor programs: which lines are `>` lines, how consecutive `>` lines are
 * glued into one statement buffer (no separator, as the ztachip compiler does), and the map from
 * buffer offsets back to document offsets.
 */
import type { LineIndex } from '../common/lineIndex';

/** A piece of a statement buffer copied from one physical line. */
export interface Segment {
  /** Offset of the piece inside the buffer. */
  bufStart: number;
  /** Document offset of the piece's first character. */
  docStart: number;
  length: number;
  line: number;
}

export interface StatementBuffer {
  text: string;
  segments: Segment[];
  firstLine: number;
  lastLine: number;
  /** Document offset of the first `>` marker. */
  markerOffset: number;
  /** Brace depth of the C code at the statement's first line. */
  depth: number;
  /** Lowest brace depth reached since the previous statement (tensor-variable scopes close there). */
  minDepthBefore: number;
  /** True when the buffer was still pending at end of file (never terminated by `;`). */
  unterminated: boolean;
}

export interface LineProblem {
  kind: 'invalid-comment' | 'line-too-long' | 'glued-names' | 'in-block-comment';
  docStart: number;
  docEnd: number;
}

export interface TensorLineScan {
  statements: StatementBuffer[];
  problems: LineProblem[];
  /** Lines (0-based) whose first non-blank character is `>`. */
  tensorLines: LineSet;
}

/** Which lines (0-based) of a document are in the set: one bit per line. */
export interface LineSetView {
  has(line: number): boolean;
}

/** A set of line numbers as a bitmap (a `Set` of thousands of lines is thousands of hash entries). */
export class LineSet implements LineSetView {
  private bits = new Uint32Array(64);
  has(line: number): boolean {
    const w = line >>> 5;
    return line >= 0 && w < this.bits.length && (this.bits[w] & (1 << (line & 31))) !== 0;
  }
  add(line: number): void {
    const w = line >>> 5;
    if (w >= this.bits.length) {
      const grown = new Uint32Array(Math.max(w + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[w] |= 1 << (line & 31);
  }
}

const NAME = /[A-Za-z0-9_.$:]/;

/** The last index of `xs` (ascending by `key`) whose key is at most `v`; 0 when there is none. */
function lastAtMost<T>(xs: T[], key: (x: T) => number, v: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (key(xs[mid]) <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Maps a buffer offset (end offsets allowed) to a document offset. */
export function bufToDoc(buf: StatementBuffer, off: number): number {
  const segs = buf.segments;
  if (segs.length === 0) return buf.markerOffset;
  const s = segs[lastAtMost(segs, (g) => g.bufStart, off)];
  return s.docStart + Math.max(0, Math.min(off - s.bufStart, s.length));
}

/** Maps a document offset to a buffer offset, or -1 when it is not inside the statement text. */
export function docToBuf(buf: StatementBuffer, doc: number): number {
  for (const s of buf.segments) {
    if (doc >= s.docStart && doc <= s.docStart + s.length) return s.bufStart + (doc - s.docStart);
  }
  return -1;
}

/**
 * Scans a whole document. Comment removal is per physical `>` line (`/* *\/` pairs blanked,
 * then `//` to end of line cut); a `/*` without its `*\/` on the same line is reported.
 */
export function scanTensorLines(text: string): TensorLineScan {
  const scan: TensorLineScan = { statements: [], problems: [], tensorLines: new LineSet() };
  scanRange(text, scan, { pos: 0, line: 0, depth: 0, minDepth: 0 }, Infinity);
  return scan;
}

/**
 * The line loop of `scanTensorLines`, from the start of line `from.line` (at offset `from.pos`,
 * outside any statement and block comment, at brace depth `from.depth`) through line `lastLine`.
 * A statement still pending at the end is pushed as unterminated.
 */
function scanRange(text: string, out: TensorLineScan, from: { pos: number; line: number; depth: number; minDepth: number }, lastLine: number): void {
  const { statements, problems, tensorLines } = out;
  let pending: StatementBuffer | undefined;
  /** The last piece appended to `pending` (its last character ends the buffer). */
  let lastPiece = '';
  let { pos, line, depth, minDepth } = from;
  let inBlockComment = false;
  const n = text.length;
  // brace positions come from native searches (a per-character loop dominated the scan)
  let open = text.indexOf('{', pos);
  let close = text.indexOf('}', pos);
  if (open < 0) open = Infinity;
  if (close < 0) close = Infinity;
  // the next '/' at or after the current line, searched again only once passed (a search per
  // `>` line from its start ran to the end of a file without comments: quadratic)
  let nextSlash = -1;
  /** Where the block comment open at the current line ends (searched again only once passed). */
  const commentEnd = { at: -1 };
  while (pos <= n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    let lineEnd = end;
    if (lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    // first non-blank
    let i = pos;
    while (i < lineEnd && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    if (i < lineEnd && text.charCodeAt(i) === 62 /* > */) {
      tensorLines.add(line);
      if (inBlockComment) problems.push({ kind: 'in-block-comment', docStart: i, docEnd: lineEnd });
      if (lineEnd - pos >= 8000) problems.push({ kind: 'line-too-long', docStart: pos, docEnd: lineEnd });
      const pieceStart = i + 1;
      let piece: string;
      let a: number;
      if (nextSlash < pieceStart && nextSlash !== Infinity) {
        nextSlash = text.indexOf('/', pieceStart);
        if (nextSlash < 0) nextSlash = Infinity;
      }
      if (nextSlash >= lineEnd) {
        // no comment on the line: trim in the document text, one slice
        a = pieceStart;
        let b = lineEnd;
        while (a < b && isSpace(text.charCodeAt(a))) a++;
        while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
        piece = text.slice(a, b);
        a -= pieceStart;
      } else {
        let body = text.slice(pieceStart, lineEnd);
        // blank /* ... */ pairs on this line
        let c = body.indexOf('/*');
        while (c >= 0) {
          const close = body.indexOf('*/', c + 2);
          if (close < 0) {
            problems.push({ kind: 'invalid-comment', docStart: pieceStart + c, docEnd: lineEnd });
            body = body.slice(0, c);
            break;
          }
          body = body.slice(0, c) + ' '.repeat(close + 2 - c) + body.slice(close + 2);
          c = body.indexOf('/*', close + 2);
        }
        const sl = body.indexOf('//');
        if (sl >= 0) body = body.slice(0, sl);
        // trim
        a = 0;
        let b = body.length;
        while (a < b && isSpace(body.charCodeAt(a))) a++;
        while (b > a && isSpace(body.charCodeAt(b - 1))) b--;
        piece = body.slice(a, b);
      }
      if (piece.length > 0) {
        const segment: Segment = { bufStart: pending ? pending.text.length : 0, docStart: pieceStart + a, length: piece.length, line };
        if (!pending) {
          // a literal one-element array: most statements are one line, and an array grown by
          // push keeps spare capacity (one per statement of the document)
          pending = {
            text: piece,
            segments: [segment],
            firstLine: line,
            lastLine: line,
            markerOffset: i,
            depth,
            minDepthBefore: minDepth,
            unterminated: false,
          };
          minDepth = depth;
        } else {
          if (NAME.test(lastPiece[lastPiece.length - 1]) && NAME.test(piece[0])) {
            const last = pending.segments[pending.segments.length - 1];
            problems.push({ kind: 'glued-names', docStart: last.docStart + last.length - 1, docEnd: pieceStart + a + 1 });
          }
          pending.segments.push(segment);
          pending.text += piece;
        }
        pending.lastLine = line;
        lastPiece = piece;
        if (piece.charCodeAt(piece.length - 1) === 59 /* ; */) {
          statements.push(pending);
          pending = undefined;
        }
      }
    } else {
      inBlockComment = updateCState(text, i, lineEnd, inBlockComment, commentEnd);
    }
    // brace depth counts every line, textually (as the compiler does)
    while (open < lineEnd || close < lineEnd) {
      if (open < close) {
        depth++;
        open = text.indexOf('{', open + 1);
        if (open < 0) open = Infinity;
      } else {
        depth--;
        if (depth < minDepth) minDepth = depth;
        close = text.indexOf('}', close + 1);
        if (close < 0) close = Infinity;
      }
    }
    if (end >= n || line >= lastLine) break;
    pos = end + 1;
    line++;
  }
  if (pending) {
    pending.unterminated = true;
    statements.push(pending);
  }
}

/**
 * The scan of `text`, which differs from the document of `prev` by an edit at `at` inside `>` line
 * `line` that moves later text by `delta` and cannot change the C scan (see `confinedEdit`), when
 * the edit keeps the statement buffers as they were (only the edited statement's text changes):
 * that statement is re-scanned, the others are reused (shifted by `delta`). Undefined when the
 * grouping of lines or the problems around the edit could change: then scan the whole document.
 */
export function rescanConfined(prev: TensorLineScan, prevLines: LineIndex, text: string, line: number, delta: number): TensorLineScan | undefined {
  const sts = prev.statements;
  const lo = lastAtMost(sts, (b) => b.firstLine, line);
  const old = sts[lo];
  if (!old || old.firstLine > line || old.lastLine < line) return undefined;
  const rangeStart = prevLines.starts[old.firstLine];
  const rangeEnd = prevLines.lineEnd(old.lastLine);
  if (prev.problems.some((p) => p.docEnd >= rangeStart && p.docStart <= rangeEnd)) return undefined;
  const part: TensorLineScan = { statements: [], problems: [], tensorLines: new LineSet() };
  scanRange(text, part, { pos: rangeStart, line: old.firstLine, depth: old.depth, minDepth: old.minDepthBefore }, old.lastLine);
  const st = part.statements[0];
  if (
    part.statements.length !== 1 ||
    part.problems.length ||
    st.firstLine !== old.firstLine ||
    st.lastLine !== old.lastLine ||
    st.unterminated !== old.unterminated
  )
    return undefined;
  const statements = sts.slice();
  statements[lo] = st;
  if (delta === 0) return { statements, problems: prev.problems, tensorLines: prev.tensorLines };
  // written out (an object spread per statement was most of the cost of a keystroke here)
  for (let k = lo + 1; k < statements.length; k++) {
    const b = statements[k];
    const segs = b.segments;
    const moved: Segment[] = new Array(segs.length);
    for (let j = 0; j < segs.length; j++) {
      const g = segs[j];
      moved[j] = { bufStart: g.bufStart, docStart: g.docStart + delta, length: g.length, line: g.line };
    }
    statements[k] = {
      text: b.text,
      segments: moved,
      firstLine: b.firstLine,
      lastLine: b.lastLine,
      markerOffset: b.markerOffset + delta,
      depth: b.depth,
      minDepthBefore: b.minDepthBefore,
      unterminated: b.unterminated,
    };
  }
  const problems = prev.problems.map((p) => (p.docStart > rangeEnd ? { ...p, docStart: p.docStart + delta, docEnd: p.docEnd + delta } : p));
  return { statements, problems, tensorLines: prev.tensorLines };
}

/** What `/\s/` matches in the ASCII range, plus the Unicode spaces (rare in source text). */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

/**
 * Tracks whether a C line leaves us inside a block comment (strings respected). `end.at` is the
 * `*\/` found by the last search (Infinity: none after it), reused while it lies ahead: a comment
 * left open over many lines is searched once, not once per line.
 */
function updateCState(text: string, from: number, to: number, inComment: boolean, end: { at: number }): boolean {
  let k = from;
  while (k < to) {
    if (inComment) {
      if (end.at < k) {
        end.at = text.indexOf('*/', k);
        if (end.at < 0) end.at = Infinity;
      }
      const e = end.at;
      if (e >= to) return true;
      inComment = false;
      k = e + 2;
      continue;
    }
    const ch = text[k];
    if (ch === '"' || ch === "'") {
      k++;
      while (k < to && text[k] !== ch) k += text[k] === '\\' ? 2 : 1;
      k++;
    } else if (ch === '/' && text[k + 1] === '/') return false;
    else if (ch === '/' && text[k + 1] === '*') {
      inComment = true;
      k += 2;
    } else k++;
  }
  return inComment;
}
