/**
 * Markdown built from program text (hovers, completion and signature documentation, transfer previews).
 * VS Code renders MarkupContent as Markdown, so text taken from a program — `y*VECTOR_WIDTH`, `x*y-1`,
 * `req->input`, `_A_` — must not become emphasis, links or HTML: every such piece goes through mdText,
 * and code goes through mdCode / mdBlock, whose fences outgrow any backticks inside.
 */

/**
 * Characters that start inline Markdown or HTML (CommonMark lets any of them be backslash-escaped); a `]`
 * only where a link or a reference would follow it — `(`, `[`, `:` — since hovers define no references.
 */
const INLINE = /[\\`*_<>&~|#]|\](?=[([:])/g;

const WORD = /[A-Za-z0-9]/;

/**
 * Program text as literal Markdown text: emphasis, links, HTML, tables, headings and list markers escaped
 * (an `_` between two letters or digits, as in `in_ptr`, cannot start or end emphasis and stays as it is;
 * so do brackets like `[0]`, which make no link).
 */
export function mdText(s: string): string {
  return (
    s
      .replace(INLINE, (c, at: number) => (c === '_' && WORD.test(s[at - 1] ?? '') && WORD.test(s[at + 1] ?? '') ? c : '\\' + c))
      // a line that starts like a list item or a setext underline
      .replace(/^([ \t]*)([-+=]|\d+(?=[.)]))/gm, (_m, sp: string, mark: string) => (/\d/.test(mark) ? `${sp}${mark}\\` : `${sp}\\${mark}`))
  );
}

/** The longest run of backticks in `s`. */
function longestTicks(s: string): number {
  let best = 0;
  for (const m of s.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}

/** An inline code span showing `s` exactly (a longer fence when `s` holds backticks; line breaks become spaces, as in any code span). */
export function mdCode(s: string): string {
  const one = s.replace(/\r\n|\r|\n/g, ' ');
  const fence = '`'.repeat(longestTicks(one) + 1);
  const pad = one.startsWith('`') || one.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/** A fenced code block showing `s` exactly. */
export function mdBlock(s: string): string {
  const fence = '`'.repeat(Math.max(3, longestTicks(s) + 1));
  return `${fence}\n${s}\n${fence}`;
}
