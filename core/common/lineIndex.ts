import type { Position, Range } from './diagnostic';

/** Converts between string offsets and 0-based line/character positions. */
export class LineIndex {
  /** Offset of the first character of every line. */
  readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      // the common case: a native search per line instead of a loop over every character
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
    }
    this.starts = starts;
  }

  /**
   * The index of `text` whose line starts are already known (the text of an edit that adds or
   * removes no line break, for instance); `starts` is used as is, not copied.
   */
  static withStarts(text: string, starts: number[]): LineIndex {
    const li: LineIndex = Object.create(LineIndex.prototype);
    return Object.assign(li, { text, starts });
  }

  get lineCount(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  offset(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const lineEnd = this.lineEnd(pos.line);
    return Math.min(this.starts[pos.line] + Math.max(0, pos.character), lineEnd);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  /** Offset just past the last character of the line (before its line break). */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    let e = next;
    if (e > this.starts[line] && this.text.charCodeAt(e - 1) === 10) e--;
    if (e > this.starts[line] && this.text.charCodeAt(e - 1) === 13) e--;
    return e;
  }

  lineText(line: number): string {
    return this.text.slice(this.starts[line], this.lineEnd(line));
  }
}

/**
 * `text` with every lone `\r` (an old Mac line end) made `\n`; `\r\n` stays. The length and every
 * offset are unchanged and `LineIndex` counts the same lines, so scanners that split at `\n` see
 * the lines the editor shows. The same string when there is no lone `\r`.
 */
export function lfLineEnds(text: string): string {
  for (let r = text.indexOf('\r'); r >= 0; r = text.indexOf('\r', r + 2)) if (text.charCodeAt(r + 1) !== 10) return text.replace(/\r(?!\n)/g, '\n');
  return text;
}
