/**
 * Physical layer of tensor programs: which lines are `>` lines, how consecutive `>` lines are
 * glued into one statement buffer (no separator, as the ztachip compiler does), and the map from
 * buffer offsets back to document offsets.
 */

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
  tensorLines: Set<number>;
}

const NAME = /[A-Za-z0-9_.$:]/;

/** Maps a buffer offset (end offsets allowed) to a document offset. */
export function bufToDoc(buf: StatementBuffer, off: number): number {
  const segs = buf.segments;
  if (segs.length === 0) return buf.markerOffset;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid].bufStart <= off) lo = mid;
    else hi = mid - 1;
  }
  const s = segs[lo];
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
  const statements: StatementBuffer[] = [];
  const problems: LineProblem[] = [];
  const tensorLines = new Set<number>();
  let pending: StatementBuffer | undefined;
  /** The last piece appended to `pending` (its last character ends the buffer). */
  let lastPiece = '';
  let depth = 0;
  let minDepth = 0;
  let inBlockComment = false;
  let line = 0;
  let pos = 0;
  const n = text.length;
  // brace positions come from native searches (a per-character loop dominated the scan)
  let open = text.indexOf('{');
  let close = text.indexOf('}');
  if (open < 0) open = Infinity;
  if (close < 0) close = Infinity;
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
      const slash = text.indexOf('/', pieceStart);
      if (slash < 0 || slash >= lineEnd) {
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
        if (!pending) {
          pending = { text: '', segments: [], firstLine: line, lastLine: line, markerOffset: i, depth, minDepthBefore: minDepth, unterminated: false };
          minDepth = depth;
        } else if (NAME.test(lastPiece[lastPiece.length - 1]) && NAME.test(piece[0])) {
          const last = pending.segments[pending.segments.length - 1];
          problems.push({ kind: 'glued-names', docStart: last.docStart + last.length - 1, docEnd: pieceStart + a + 1 });
        }
        pending.segments.push({ bufStart: pending.text.length, docStart: pieceStart + a, length: piece.length, line });
        pending.text = pending.text.length === 0 ? piece : pending.text + piece;
        pending.lastLine = line;
        lastPiece = piece;
        if (piece.charCodeAt(piece.length - 1) === 59 /* ; */) {
          statements.push(pending);
          pending = undefined;
        }
      }
    } else {
      inBlockComment = updateCState(text, i, lineEnd, inBlockComment);
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
    if (end >= n) break;
    pos = end + 1;
    line++;
  }
  if (pending) {
    pending.unterminated = true;
    statements.push(pending);
  }
  return { statements, problems, tensorLines };
}

/** What `/\s/` matches in the ASCII range, plus the Unicode spaces (rare in source text). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

/** Tracks whether a C line leaves us inside a block comment (strings respected). */
function updateCState(text: string, from: number, to: number, inComment: boolean): boolean {
  let k = from;
  while (k < to) {
    if (inComment) {
      const e = text.indexOf('*/', k);
      if (e < 0 || e >= to) return true;
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
