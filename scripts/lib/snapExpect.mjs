// Hand-written scope expectations for the grammar snapshots.
//
// A snapshot (.snap) records whatever the grammar produced when it was last updated, so a wrong scope
// blessed by `--update-snapshots` would pass for ever. Each snapshot input X therefore has X.expect, written
// by hand from what the grammar is meant to produce, and every expectation is checked against X.snap:
//
//   <line> <text>[#n] <scope> [<scope> …] [!<scope> …]
//
// <line> is the 1-based source line, <text> the characters to look at (the n-th occurrence on that line,
// default the first; no spaces; a text that starts or ends with a letter, digit or _ only matches there as
// a whole word, so `at` is not found inside `float16`), then scopes every one of those characters must
// carry, and with ! scopes none of them may carry; a leading = matches the text anywhere (`=GiB` in
// `128GiB`). Lines starting with # are comments.

import { readFileSync } from 'node:fs';

/** Parses a vscode-tmgrammar-snap file into its source lines and, per line, each character's scopes. */
export function parseSnapshot(text) {
  const lines = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith('>')) {
      lines.push({ source: raw.slice(1), scopes: [] });
    } else if (raw.startsWith('#') && lines.length > 0) {
      const m = /^#( *)(\^+) (.*)$/.exec(raw);
      if (!m) throw new Error(`unreadable snapshot line: ${raw}`);
      const line = lines[lines.length - 1];
      const names = m[3].trim().split(/\s+/);
      for (let c = m[1].length; c < m[1].length + m[2].length; c++) line.scopes[c] = names;
    }
  }
  return lines;
}

const WORD = /\w/;

/** Column of the n-th occurrence of text in source (whole words where text starts or ends with one), or -1. */
function findOccurrence(source, text, n, wholeWord) {
  for (let col = source.indexOf(text); col >= 0; col = source.indexOf(text, col + 1)) {
    const before = wholeWord && WORD.test(text[0]) && WORD.test(source[col - 1] ?? '');
    const after = wholeWord && WORD.test(text[text.length - 1]) && WORD.test(source[col + text.length] ?? '');
    if (!before && !after && --n === 0) return col;
  }
  return -1;
}

/** Checks one .expect file against its .snap; returns the number of expectations and the problems found. */
export function checkExpectations(expectFile, snapFile) {
  const lines = parseSnapshot(readFileSync(snapFile, 'utf8'));
  const problems = [];
  let count = 0;
  readFileSync(expectFile, 'utf8')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const entry = raw.trim();
      if (entry === '' || entry.startsWith('#')) return;
      const where = `${expectFile}:${i + 1}`;
      const [lineText, target, ...scopes] = entry.split(/\s+/);
      const lineNo = Number(lineText);
      const line = lines[lineNo - 1];
      if (!Number.isInteger(lineNo) || !line || !target || scopes.length === 0) {
        problems.push(`${where}: expected "<line> <text>[#n] <scope> …", got "${entry}"`);
        return;
      }
      count++;
      const occ = /^(.+)#(\d+)$/.exec(target);
      const text = occ ? occ[1] : target;
      const shown = text.replace(/^=/, '');
      const col = findOccurrence(line.source, text.replace(/^=/, ''), occ ? Number(occ[2]) : 1, !text.startsWith('='));
      if (col < 0) {
        problems.push(`${where}: "${target}" is not on line ${lineNo}: ${line.source.trim()}`);
        return;
      }
      for (let c = col; c < col + shown.length; c++) {
        const have = line.scopes[c] ?? [];
        const missing = scopes.filter((s) => !s.startsWith('!') && !have.includes(s));
        const banned = scopes.filter((s) => s.startsWith('!') && have.includes(s.slice(1)));
        if (missing.length || banned.length) {
          const what = [...missing.map((s) => `lacks ${s}`), ...banned.map((s) => `has ${s.slice(1)}`)].join(', ');
          problems.push(`${where}: line ${lineNo} col ${c + 1} ("${line.source[c]}" of "${shown}") ${what}; it has: ${have.join(' ')}`);
          return;
        }
      }
    });
  if (count === 0) problems.push(`${expectFile}: no expectations`);
  return { count, problems };
}
