/**
 * Issue #17 item 3: what `tensor-lens check --ranges` and `tensor-lens run` print is what the `$tensor-lens`
 * problem matcher of package.json reads — every diagnostic line is matched, with its file, whole range,
 * severity, message and code; the default output (without --ranges) stays `file:line:col: …`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { main } from '../../cli/main';

const REPO = resolve(__dirname, '..', '..');
const MISTAKES = join(REPO, 'examples', 'mistakes', 'mistakes.m');
// the CLI names a file under the current folder by its relative path
const SHOWN = MISTAKES.startsWith(process.cwd() + '/') ? relative(process.cwd(), MISTAKES) : MISTAKES;

async function tl(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(...s.replace(/\n$/, '').split('\n')), err: (s) => err.push(...s.replace(/\n$/, '').split('\n')) });
  return { code, out, err };
}

const matcher = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).contributes.problemMatchers.find(
  (m: { name: string }) => m.name === 'tensor-lens',
);
const pattern = matcher.pattern;
const re = new RegExp(pattern.regexp);

/** What VS Code takes from a line: the groups the pattern names (undefined when the line does not match). */
function read(line: string) {
  const m = re.exec(line);
  if (!m) return undefined;
  const g = (k: string) => (pattern[k] ? m[pattern[k]] : undefined);
  return {
    file: g('file'),
    line: g('line'),
    column: g('column'),
    endLine: g('endLine'),
    endColumn: g('endColumn'),
    severity: g('severity'),
    message: g('message'),
    code: g('code'),
  };
}

test('check --ranges: every line is matched with the whole range, and the range covers the token at fault', async () => {
  const r = await tl('check', '--ranges', MISTAKES);
  assert.equal(r.code, 1);
  assert.equal(r.out.length, 17, r.out.join('\n'));
  for (const l of r.out) assert.ok(read(l), `not matched: ${l}`);
  const text = readFileSync(MISTAKES, 'utf8').split('\n');
  // [line, code, the text the range covers]: read off mistakes.m by hand
  for (const [line, code, token] of [
    [10, 'tprog.no-dtype', 'MEM'],
    [15, 'tprog.unknown-member', 'calc::inn'],
    [27, 'tprog.unknown-kernel', 'calc::runn'],
    [32, 'tprog.guide-ddr', 'DDR'],
  ] as const) {
    const d = r.out.map(read).find((x) => x!.code === code && Number(x!.line) === line)!;
    assert.ok(d, `no ${code} on line ${line}`);
    assert.equal(d.file, SHOWN);
    assert.equal(d.severity, 'error');
    assert.equal(d.endLine, String(line));
    // 1-based columns, the end exclusive (as VS Code's problem matcher takes them)
    assert.equal(text[line - 1].slice(Number(d.column) - 1, Number(d.endColumn) - 1), token);
  }
  const kernel = r.out.map(read).find((x) => x!.code === 'tprog.unknown-kernel')!;
  assert.equal(kernel.message, 'Undefined function name: calc::runn is not a kernel of mistakes.p; did you mean calc::run?');
  // the message keeps its own brackets and backticks; only the trailing [code] is the code
  const noDtype = read(r.out[0])!;
  assert.equal(noDtype.message, 'DTYPE is not defined: MEM terms need `DTYPE(INT16)`, `DTYPE(INT8)` or `DTYPE(UINT8)`');
});

test('check without --ranges prints file:line:col as before, which the matcher also reads (no end)', async () => {
  const r = await tl('check', MISTAKES);
  const first = read(r.out[0])!;
  assert.equal(r.out[0].startsWith(`${SHOWN}:10:59: error: DTYPE is not defined`), true, r.out[0]);
  assert.deepEqual([first.line, first.column, first.endLine, first.endColumn, first.code], ['10', '59', undefined, undefined, 'tprog.no-dtype']);
});

test('run: the error line is matched at its place; the call stack under it is not taken for problems', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tl-matcher-'));
  try {
    const prog = join(dir, 'e.m');
    writeFileSync(prog, 'void f(int x) {\n   mystery_call(x);\n}\nvoid main(void) {\n   int x = 1;\n   f(x);\n}\n');
    const r = await tl('run', prog);
    assert.equal(r.code, 1);
    const matched = r.err.map(read).filter((x) => x);
    assert.equal(matched.length, 1, r.err.join('\n'));
    assert.deepEqual(matched[0], {
      file: prog,
      line: '2',
      column: '4',
      endLine: undefined,
      endColumn: undefined,
      severity: 'error',
      message: 'not simulated: call to mystery_call',
      code: undefined,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the matcher reads a Windows path, note and hint severities, and leaves other lines alone', () => {
  assert.deepEqual(read('C:\\work\\k.m:3:7-3:9: note: called from here [x.y]'), {
    file: 'C:\\work\\k.m',
    line: '3',
    column: '7',
    endLine: '3',
    endColumn: '9',
    severity: 'note',
    message: 'called from here',
    code: 'x.y',
  });
  assert.equal(read('k.m:3:7: hint: write MEM [tprog.guide-ddr]')!.severity, 'hint');
  for (const l of ['main: 0 tensor statements, 5 steps', '    at f (/tmp/e.m:2:4)', '3 files checked: 1 error, 0 warnings', 'k.m:3: error: no column'])
    assert.equal(read(l), undefined, l);
});
