/**
 * The language server survives garbage: binary bytes, a 100,000-character line, 10,000 nested
 * brackets, a 5 MB document, random edits and requests at random positions. After each document it
 * must publish diagnostics inside the document, answer a hover, and keep running; at the end a real
 * request on an example still gets its real answer and the server shuts down cleanly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  InlayHintRequest,
  ReferencesRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type Position,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { TransferPreviewRequest } from '../../core/protocol/lspExt';
import { LspClient, PCORE, posOf, ROOT, TPROG, uriOf } from './lspClient';
import { mulberry32 as rng } from '../helpers/rng';

const TEST_M = readFileSync(`${ROOT}/examples/test/test.m`, 'utf8');
const MISTAKES_M = readFileSync(`${ROOT}/examples/mistakes/mistakes.m`, 'utf8');

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.length);
}

function assertDiagnosticsInside(p: PublishDiagnosticsParams, text: string): void {
  const lens = lineLengths(text);
  for (const d of p.diagnostics) {
    for (const q of [d.range.start, d.range.end]) {
      assert.ok(
        q.line < lens.length && q.character <= lens[q.line],
        `diagnostic ${d.code} at ${q.line}:${q.character} is outside the document (${lens.length} lines)`,
      );
    }
  }
}

const fill = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length));

function binary(seed: number, n: number): string {
  const r = rng(seed);
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(Math.floor(r() * 256));
  return s;
}

describe('language server robustness', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await LspClient.start();
  });
  after(async () => {
    if (!lsp) return;
    if (lsp.alive) assert.equal(await lsp.shutdown(), 0, lsp.stderr);
  });

  /** Opens `text`, waits for its diagnostics and asks hovers at the start, middle and end. */
  async function survive(name: string, text: string, languageId = TPROG, timeoutMs = 30_000): Promise<void> {
    const path = `test/fixtures/lsp/generated/${name}.${languageId === PCORE ? 'p' : 'm'}`;
    const uri = await lsp.open(path, languageId, text);
    const p = await lsp.diagnostics(uri, undefined, timeoutMs);
    assertDiagnosticsInside(p, text);
    const lens = lineLengths(text);
    const mid = Math.floor(lens.length / 2);
    const positions: Position[] = [
      { line: 0, character: 0 },
      { line: mid, character: Math.floor(lens[mid] / 2) },
      { line: lens.length - 1, character: lens[lens.length - 1] },
    ];
    for (const position of positions)
      await withTimeout(
        lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position }),
        timeoutMs,
        `hover at ${position.line}:${position.character} of ${name}`,
      );
    assert.ok(lsp.alive, `the server exited after ${name}\nstderr:\n${lsp.stderr}`);
    await lsp.close(uri);
  }

  it('binary bytes (every byte value, NUL and CR included) as a tensor program', () => survive('binary', binary(1, 65_536)));
  it('binary bytes as a PCORE program', () => survive('binary', binary(2, 65_536), PCORE));
  it('lone surrogates and control characters', () => survive('surrogates', TEST_M.replace(/_A/g, '\ud800_A').replace(/;/g, ';\u0000\u2028\ufeff')));
  it('a 100,000-character statement line', () => survive('long-statement', `void f(int p) {\n   > DTYPE(INT16)MEM(p)[0:1] <= ${fill('1+', 100_000)}1;\n}\n`));
  it('a 100,000-character C line', () => survive('long-c', `${TEST_M}\nint q = ${fill('q', 100_000)};\n`));
  it('a 100,000-character line of statements', () =>
    survive('long-statements', `void f(int p) {\n   > ${fill('DTYPE(INT16)MEM(p)[0:7] <= INT16(0);', 100_000)}\n}\n`));
  it('10,000 nested [ ] in a statement', () =>
    survive('nested-square', `void f(int p) {\n   > DTYPE(INT16)MEM(p)${'['.repeat(10_000)}0${']'.repeat(10_000)} <= INT16(0);\n}\n`));
  it('10,000 nested ( ) in a statement', () =>
    survive('nested-paren', `void f(int p) {\n   > DTYPE(INT16)MEM(p,${'('.repeat(10_000)}8${')'.repeat(10_000)})[0] <= INT16(0);\n}\n`));
  it('10,000 unclosed ( and [ in a statement', () =>
    survive('unclosed', `void f(int p) {\n   > DTYPE(INT16)MEM(p,${'('.repeat(10_000)}${'['.repeat(10_000)} <= INT16(0);\n}\n`));
  it('10,000 nested { } in C', () => survive('nested-brace', `void f(int p) {${'{'.repeat(10_000)}\n   > BARRIER;\n${'}'.repeat(10_000)}}\n`));
  it('10,000 nested ( ) in a PCORE program', () =>
    survive('nested-pcore', `_kernel_ void a::k() { int x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}; }\n`, PCORE));
  it('a 5 MB document (C and tensor statements)', () => {
    const body = fill(
      '   acc += buf[n] * 3 + (acc >> 2);\n'.repeat(50) +
        '   > DTYPE(INT16)PCORE(NUM_PCORE)[0:NUM_PCORE-1].THREAD[0:15].test::_A[0:7] <= DTYPE(INT16)MEM(n)[0:1023];\n',
      5_000_000,
    );
    return survive('five-mb', `${TEST_M}\nvoid big(int *buf, int n) {\n   int acc = 0;\n${body}}\n`, TPROG, 60_000);
  });

  it('random edits and requests at random positions on mistakes.m', async () => {
    const r = rng(42);
    const uri = await lsp.open('test/fixtures/lsp/generated/edited.m', TPROG, MISTAKES_M);
    let text = MISTAKES_M;
    const pieces = [
      '>',
      '<=',
      '[',
      ']',
      '(',
      ')',
      '::',
      '$',
      ';',
      '\n',
      '\r\n',
      '\\\n',
      'DTYPE(INT16)',
      'PCORE(8)',
      'MEM(p)',
      'FOR(I=0:7)',
      'EXE_LOCKSTEP(',
      'calc::in',
      '{',
      '}',
      '/*',
      '"',
      '\u0000',
      '😀',
      '',
    ];
    const randPos = (): Position => {
      const lens = lineLengths(text);
      const line = Math.floor(r() * (lens.length + 2)); // sometimes past the end
      return { line, character: Math.floor(r() * ((lens[line] ?? 10) + 3)) };
    };
    // offset of a position with the LSP line-break rule (\n, \r\n, \r), clamped like the server's TextDocument
    const offsetOf = (p: Position) => {
      const starts = [0];
      for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index! + m[0].length);
      if (p.line >= starts.length) return text.length;
      const end = p.line + 1 < starts.length ? starts[p.line + 1] : text.length;
      const eol = text.slice(starts[p.line], end).match(/(\r\n|\r|\n)$/)?.[0].length ?? 0;
      return Math.min(starts[p.line] + p.character, end - eol);
    };
    for (let step = 0; step < 150; step++) {
      // an edit (positions may lie past the end: the server clamps them like VS Code)
      let a = randPos();
      let b = randPos();
      if (offsetOf(b) < offsetOf(a)) [a, b] = [b, a];
      const ins = Array.from({ length: Math.floor(r() * 4) }, () => pieces[Math.floor(r() * pieces.length)]).join('');
      text = text.slice(0, offsetOf(a)) + ins + text.slice(offsetOf(b));
      await lsp.change(uri, [{ range: { start: a, end: b }, text: ins }]);
      // now and then a full-text sync
      if (step % 25 === 24) await lsp.change(uri, [{ text }]);
      const position = randPos();
      const td = { textDocument: { uri }, position };
      const what = `step ${step} at ${position.line}:${position.character}`;
      await withTimeout(
        Promise.all([
          lsp.conn.sendRequest(HoverRequest.type, td),
          lsp.conn.sendRequest(CompletionRequest.type, td),
          lsp.conn.sendRequest(SignatureHelpRequest.type, td),
          lsp.conn.sendRequest(DefinitionRequest.type, td),
          lsp.conn.sendRequest(ReferencesRequest.type, { ...td, context: { includeDeclaration: true } }),
          lsp.conn.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: position } }),
          step % 5 === 0 ? lsp.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } }) : null,
          step % 5 === 1 ? lsp.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }) : null,
          step % 5 === 2
            ? lsp.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: [] } })
            : null,
          step % 5 === 3 ? lsp.conn.sendRequest(TransferPreviewRequest, { uri }) : null,
        ]),
        10_000,
        what,
      );
      assert.ok(lsp.alive, `server exited at ${what}\nstderr:\n${lsp.stderr}`);
    }
    await lsp.change(uri, [{ text }]);
    const p = await lsp.diagnostics(uri, undefined, 10_000);
    assertDiagnosticsInside(p, text);
    await lsp.close(uri);
  });

  it('requests on unknown documents and positions far outside the document', async () => {
    const unknown = uriOf('test/fixtures/lsp/generated/never-opened.m');
    assert.equal(await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri: unknown }, position: { line: 0, character: 0 } }), null);
    assert.deepEqual(await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: unknown }, position: { line: 0, character: 0 } }), []);
    const uri = await lsp.open('test/fixtures/lsp/generated/far.m', TPROG, TEST_M);
    for (const position of [
      { line: 1e9, character: 1e9 },
      { line: 18, character: 1e9 },
      { line: 2 ** 31 - 1, character: 0 },
    ]) {
      await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
      await lsp.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
      await lsp.conn.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } });
    }
    await lsp.close(uri);
    assert.ok(lsp.alive);
  });

  it('is still healthy: real answers on test.m and no internal errors logged', async () => {
    const uri = await lsp.open('examples/test/test.m', TPROG);
    const h = await lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(TEST_M, 18, '<=') });
    assert.match((h?.contents as { value: string }).value, /1024 elements/);
    const p = await lsp.diagnostics(uri);
    assert.deepEqual(
      p.diagnostics.filter((d) => d.severity === 1),
      [],
    );
    const errors = lsp.logs.filter((l) => /\[error\]|\[uncaught\]/.test(l));
    assert.deepEqual(errors, [], 'internal errors logged by the server');
  });
});

// A realistic large program: 2.5 MB of functions with local variables and statements (test.m
// repeated, ~80,000 lines). The checker was once quadratic in it (each name looked up over every C
// variable of the document: 5 MB took 80 s); locals are now indexed per function.
describe('large programs of many functions', () => {
  it('a 2.5 MB program of many functions is answered within 10 s', async () => {
    const lsp = await LspClient.start();
    try {
      const text = fill(TEST_M, 2_500_000);
      const uri = await lsp.open('test/fixtures/lsp/generated/many-functions.m', TPROG, text);
      await withTimeout(
        lsp.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: posOf(TEST_M, 18, '<=') }),
        10_000,
        'hover on a 2.5 MB program of many functions',
      );
    } finally {
      lsp.kill();
    }
  });
});
