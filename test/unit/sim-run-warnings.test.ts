/**
 * Run warnings on their way to the user: the server turns a run's error and warnings into Problems
 * (server/src/runDiagnostics.ts: Warning severity at each warning's place, in every file it names),
 * and the CLI, the output channel and the Debug Console print them as `file:line:col: warning: …`.
 * The results are built by hand: the simulator's own warnings are tested where they are raised.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDiagnosticsOf } from '../../server/src/runDiagnostics';
import { pathToUri } from '../../server/src/uri';
import { errorText, warningText } from '../../core/sim/runWarning';

const M = '/w/prog/kernel.m';
const H = '/w/include/zta.h';

test('warnings become Warning diagnostics at their place, beside the error, in every file they name', () => {
  const lines: Record<string, number[]> = { [pathToUri(M)]: [10, 40, 30], [pathToUri(H)]: [22] };
  const byUri = runDiagnosticsOf(
    {
      error: { file: M, line: 3, column: 5, message: 'byte address 0x10 is outside MEM', kind: 'fault', stack: ['kernel_x (kernel.m:3:5)'] },
      warnings: [
        { file: M, line: 2, column: 4, message: 'free() is not simulated: the memory stays allocated', count: 3 },
        { file: H, line: 1, column: 1, message: "ztaInitPcore: the image is not this program's", count: 1 },
      ],
    },
    (uri, line) => lines[uri]?.[line],
  );
  const m = byUri.get(pathToUri(M))!;
  assert.deepEqual(
    m.map((d) => [d.severity, d.code, d.range.start.line, d.range.start.character, d.range.end.character, d.message]),
    [
      ['error', 'run.fault', 2, 4, 30, 'Run: byte address 0x10 is outside MEM\n  at kernel_x (kernel.m:3:5)'],
      ['warning', 'run.warning', 1, 3, 40, 'Run: free() is not simulated: the memory stays allocated (3 times)'],
    ],
  );
  const h = byUri.get(pathToUri(H))!;
  assert.deepEqual(
    h.map((d) => [d.severity, d.range.start.line, d.range.end.character, d.message]),
    [['warning', 0, 22, "Run: ztaInitPcore: the image is not this program's"]],
  );
});

test('a cancelled run leaves nothing; a file that is not open gets at least one character', () => {
  assert.equal(
    runDiagnosticsOf({ error: null, warnings: [{ file: M, line: 1, column: 1, message: 'w', count: 1 }], cancelled: true }, () => undefined).size,
    0,
  );
  const [d] = runDiagnosticsOf({ error: null, warnings: [{ file: M, line: 7, column: 9, message: 'w', count: 1 }] }, () => undefined).get(pathToUri(M))!;
  assert.deepEqual(d.range, { start: { line: 6, character: 8 }, end: { line: 6, character: 9 } });
});

test('warnings print as the CLI prints them', () => {
  assert.equal(
    warningText({ line: 2, column: 4, message: 'free() is not simulated', count: 3 }, 'prog/kernel.m'),
    'prog/kernel.m:2:4: warning: free() is not simulated (3 times)',
  );
  assert.equal(warningText({ line: 1, column: 1, message: 'once', count: 1 }, 'k.m'), 'k.m:1:1: warning: once');
});

test('a run error prints as file:line:col: error: message, the file as given (the output channel gives an absolute path)', () => {
  assert.equal(
    errorText({ line: 25, column: 13, message: 'kernel_x() takes 2 argument(s), 0 given' }, '/work/apps/k/k.h'),
    '/work/apps/k/k.h:25:13: error: kernel_x() takes 2 argument(s), 0 given',
  );
});
