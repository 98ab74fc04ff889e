/**
 * The executor's stepped path (TensorExecutor.stepHook, what the debugger uses to step into a `>` transfer), driven
 * through runProgram with debug hooks: the hook is asked before every batch with the progress so far and the
 * statement's text and place, the statement's record shows the transfer in progress while paused, and the run ends
 * with the same memory, trace step and record as a run without the hook.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runFile, tempTree } from '../helpers/run';
import { bufProgram } from '../helpers/bufProgram';
import type { RunDebugHooks, RunResult } from '../../core/sim/run';
import type { SteppedTransfer } from '../../core/sim/engine/stepped';
import type { TensorExecutor, TransferStepHook } from '../../core/sim/engine/execute';

const STMT = '> DTYPE(INT16)MEM(p)[32:51] <= DTYPE(INT16)MEM(p)[0:19];';
const TEXT = bufProgram(['   int i;', '   for (i = 0; i < 64; i++) buf[i] = i * 3 - 20;', '   ' + STMT]);

interface Seen {
  done: number;
  total: number;
  lastFrom: number;
  line: number;
  column: number;
  text: string;
  process: number;
  progress?: string;
}

function port(): RunDebugHooks['port'] {
  return { hit: new Uint8Array(1 << 12), ctl: new Int32Array(4), pos: [new Int32Array(1 << 12), new Int32Array(1 << 12)], stop: () => {} };
}

/** Runs TEXT with a step hook answering `sizes` in turn (then Infinity); `enter` says whether to step. */
async function run(sizes: number[] | undefined): Promise<{ r: RunResult; seen: Seen[]; bufAt: number }> {
  const dir = tempTree({ 'st.m': TEXT });
  const seen: Seen[] = [];
  let ex: TensorExecutor | undefined;
  const hook: TransferStepHook = {
    enter: () => sizes !== undefined,
    between: (t: SteppedTransfer, at) => {
      const rec = ex!.statementRecords().find((s) => s.kind === 'transfer');
      seen.push({
        done: t.done,
        total: t.total,
        lastFrom: t.lastFrom,
        line: at.loc.line,
        column: at.loc.column,
        text: at.text,
        process: at.process,
        progress: rec?.running ? `${rec.running.done}/${rec.running.total} elements ${rec.elements} runs ${rec.runs}` : undefined,
      });
      return sizes!.shift() ?? Infinity;
    },
  };
  const debug: RunDebugHooks = {
    port: port(),
    attach: (parts) => {
      ex = parts.executor;
      ex.stepHook = hook;
    },
  };
  const r = await runFile(join(dir, 'st.m'), { debug });
  assert.equal(r.error, null, r.error?.message);
  // buf is where its first words are −20, −17, −14 (0xffec, 0xffef, 0xfff2)
  const mem = r.machine.mem;
  let bufAt = -1;
  for (let a = 0; a + 6 <= mem.length && bufAt < 0; a += 2)
    if (mem[a] === 0xec && mem[a + 1] === 0xff && mem[a + 2] === 0xef && mem[a + 3] === 0xff && mem[a + 4] === 0xf2 && mem[a + 5] === 0xff) bufAt = a;
  assert.ok(bufAt >= 0, 'buf found in MEM');
  return { r, seen, bufAt };
}

test('a stepped transfer asks before each batch with the progress so far, and ends as the plain run', async () => {
  const plain = await run(undefined);
  const st = await run([5, 0, 7]);
  // sizes 5, then 0 (taken as 1), then 7, then the rest: 5 + 1 + 7 + 7 = 20
  assert.deepEqual(
    st.seen.map((s) => [s.done, s.lastFrom]),
    [
      [0, 0],
      [5, 0],
      [6, 5],
      [13, 6],
    ],
  );
  for (const s of st.seen) {
    assert.equal(s.total, 20);
    assert.equal(s.line, 7);
    assert.equal(s.column, 6);
    // the statement without its `> ` and `;`
    assert.equal(s.text, STMT.slice(2, -1));
    assert.equal(s.process, 0);
    // elements so far, the execution in progress counted
    assert.equal(s.progress, `${s.done}/20 elements ${s.done} runs 1`);
  }
  assert.equal(plain.seen.length, 0);
  // the same memory: buf[32 + i] = 3i − 20
  const words = (r: RunResult, at: number) =>
    [...Array(64).keys()].map((i) => ((r.machine.mem[at + 2 * i] | (r.machine.mem[at + 2 * i + 1] << 8)) << 16) >> 16);
  const expected = [...Array(64).keys()].map((i) => (i >= 32 && i < 52 ? 3 * (i - 32) - 20 : 3 * i - 20));
  assert.deepEqual(words(plain.r, plain.bufAt), expected);
  assert.deepEqual(words(st.r, st.bufAt), expected);
  // one trace step of 20 elements, 40 bytes, in both
  const step = (r: RunResult) => r.trace.filter((s) => s.kind === 'transfer').map((s) => [s.elements, s.padded ?? 0, s.skipped ?? 0]);
  assert.deepEqual(step(st.r), [[20, 0, 0]]);
  assert.deepEqual(step(plain.r), step(st.r));
  assert.equal(st.r.summary.bytesMoved, 40);
  // the record after the run: one run, no progress left over
  const rec = st.r.statements().filter((s) => s.kind === 'transfer');
  assert.equal(rec.length, 1);
  assert.equal(rec[0].runs, 1);
  assert.equal(rec[0].elements, 20);
  assert.equal(rec[0].running, undefined);
  // the same record as the plain run (each run has its own temporary folder)
  const noFile = (r: { file: string }) => ({ ...r, file: '' });
  assert.deepEqual(
    rec.map(noFile),
    plain.r
      .statements()
      .filter((s) => s.kind === 'transfer')
      .map(noFile),
  );
});
