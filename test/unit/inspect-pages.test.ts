/** The inspector's page versions (media/src/inspector/pages.ts): which step's contents a cached page stands for. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PageCache } from '../../media/src/inspector/pages';
import type { TraceStep } from '../../core/protocol/trace';

const rec = (step: number, changed: Record<string, number[]>, hostChanged?: Record<string, number[]>): TraceStep => ({
  step,
  kind: 'transfer',
  file: 'f',
  line: 1,
  column: 1,
  endLine: 1,
  text: '',
  process: 0,
  elements: 0,
  padded: 0,
  skipped: 0,
  changed,
  ...(hostChanged ? { hostChanged } : {}),
});

test('page versions follow the steps that changed a page, including host C writes between steps', () => {
  const c = new PageCache(undefined as never, () => undefined);
  // before indexing every step is its own version; a space without history has one version
  assert.equal(c.version('MEM', 1, 5, true), 5);
  assert.equal(c.version('MEM', 1, 5, false), 0);
  // page 1: host C wrote it before step 0 (inbuf = i - 1000), step 2 wrote it; page 2: only step 1
  c.index([rec(0, {}, { MEM: [1] }), rec(1, { MEM: [2] }), rec(2, { MEM: [1] }), rec(3, {})]);
  assert.deepEqual(
    [-1, 0, 1, 2, 3].map((s) => c.version('MEM', 1, s, true)),
    [-1, -0.5, -0.5, 2, 2],
  );
  assert.deepEqual(
    [-1, 0, 1, 2, 3].map((s) => c.version('MEM', 2, s, true)),
    [-1, -1, 1, 1, 1],
  );
  assert.equal(c.version('MEM', 7, 3, true), -1, 'a page no step changed');
  assert.equal(c.version('SCRATCH', 1, 3, true), -1);
});
