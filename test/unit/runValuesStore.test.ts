/**
 * The language server's run values (server/src/runValues.ts): the last run's records and a debugger stop's,
 * which wins while it lasts, the labels that mark them, and what a document's edit does to the label.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StatementRun } from '../../core/protocol/trace';
import { RunValuesStore } from '../../server/src/runValues';

const rec = (file: string, line: number, runs: number): StatementRun => ({
  file,
  line,
  column: 4,
  endLine: line,
  text: 'MEM(a)[0:n-1] <= MEM(b)[0:n-1]',
  kind: 'transfer',
  runs,
  step: runs - 1,
  process: 0,
  elements: 8,
  padded: 0,
  skipped: 0,
});

const URI = 'file:///w/a.m';
const A = '/w/a.m';

test('the last run: labelled "last run", "before your edits" once the document changed; other files have none', () => {
  const store = new RunValuesStore();
  let changes = 0;
  store.onChange = () => changes++;
  assert.equal(store.valuesFor(URI, A, 1), undefined);
  store.setRun([rec(A, 3, 5), rec('/w/k.m', 9, 1)], new Map([[URI, 1]]));
  assert.equal(changes, 1);
  const v = store.valuesFor(URI, A, 1)!;
  assert.deepEqual([v.label, v.tag], ['last run', 'run']);
  assert.equal(v.at(A, 3, 4)?.runs, 5);
  assert.equal(v.at(A, 3, 5), undefined); // another column: another statement
  const edited = store.valuesFor(URI, A, 2)!;
  assert.deepEqual([edited.label, edited.tag], ['last run, before your edits', 'run, before edits']);
  // a file the run read from disk (not open then): no version to compare, its values are plain "last run"
  assert.equal(store.valuesFor('file:///w/k.m', '/w/k.m', 7)?.label, 'last run');
  assert.equal(store.valuesFor('file:///w/other.m', '/w/other.m', 1), undefined);
});

test('a stop wins while it lasts; only its own session ends it; the versions are those of its first stop', () => {
  const store = new RunValuesStore();
  store.setRun([rec(A, 3, 5)], new Map([[URI, 1]]));
  let read = 0;
  const versions = (v: number) => () => (read++, new Map([[URI, v]]));
  store.setStop('s1', [rec(A, 3, 2)], versions(1));
  let v = store.valuesFor(URI, A, 1)!;
  assert.deepEqual([v.label, v.at(A, 3, 4)?.runs], ['at this stop', 2]);
  // the next stop of the session keeps the versions of the first (the session read its program at launch)
  store.setStop('s1', [rec(A, 3, 3)], versions(2));
  assert.equal(read, 1);
  v = store.valuesFor(URI, A, 2)!;
  assert.deepEqual([v.label, v.at(A, 3, 4)?.runs], ['at this stop, before your edits', 3]);
  // another session's "running again" does not clear this one's stop
  store.setStop('s2', undefined, versions(1));
  assert.equal(store.valuesFor(URI, A, 1)?.label, 'at this stop');
  store.setStop('s1', undefined, versions(1));
  assert.equal(store.valuesFor(URI, A, 1)?.label, 'last run');
});

test('a stop covers only the files its program ran: another file keeps the last run', () => {
  const store = new RunValuesStore();
  store.setRun([rec(A, 3, 5)], new Map());
  store.setStop('s1', [rec('/w/b.m', 1, 1)], () => new Map());
  assert.equal(store.valuesFor(URI, A, 1)?.label, 'last run');
  assert.equal(store.valuesFor('file:///w/b.m', '/w/b.m', 1)?.label, 'at this stop');
});
