/**
 * Create Run Configuration (core/sim/runConfigCreate.ts, entrySignature.ts): an entry's parameters read
 * from the program (pointers told apart), the configuration written for them, and its addition to a
 * tensorlens.run.json that keeps what it had.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { programEntries } from '../../core/sim/entrySignature';
import { addConfiguration, newConfiguration } from '../../core/sim/runConfigCreate';
import { checkRunConfigText } from '../../core/sim/runConfigCheck';
import { configurationFor, parseRunConfigFile } from '../../core/sim/runConfigFile';

const PROGRAM = `#include <stdint.h>
static int helper(int a) { return a + 1; }
void kernel_blur_exe(unsigned int req_id, uint8_t *input, int16_t out[], /* width */ int w,
                     int h) {
   > DTYPE(UINT8)MEM(input)[0:w-1] <= DTYPE(UINT8)MEM(input)[0:w-1];
   helper(w);
}
void selftest(void) { }
`;

test('the functions with their parameters; pointers and arrays are pointers; void is none', () => {
  const p = programEntries(PROGRAM);
  assert.deepEqual(
    p.functions.map((f) => [f.name, f.params.map((x) => `${x.name}${x.pointer ? '*' : ''}`)]),
    [
      ['helper', ['a']],
      ['kernel_blur_exe', ['req_id', 'input*', 'out*', 'w', 'h']],
      ['selftest', []],
    ],
  );
  assert.equal(p.defaultEntry, 'kernel_blur_exe');
  assert.deepEqual(p.entries, ['kernel_blur_exe', 'selftest']);
  const f = p.functions[1];
  assert.equal(PROGRAM.slice(f.nameStart, f.nameEnd), 'kernel_blur_exe');
});

test('a configuration with one argument per parameter: "@p" and a buffer to size for pointers, 0 for the others', () => {
  const c = newConfiguration('kernels/blur.m', programEntries(PROGRAM).functions[1]);
  assert.deepEqual(c, {
    name: 'kernel_blur_exe(req_id, input, out, w, h)',
    program: 'kernels/blur.m',
    entry: 'kernel_blur_exe',
    buffers: { input: { bytes: 0 }, out: { bytes: 0 } },
    args: [0, '@input', '@out', 0, 0],
  });
});

test('added to a new file, an empty list or after the last configuration, keeping the file as it was', () => {
  const c = newConfiguration('k.m', { name: 'kernel_k', params: [{ name: 'p', pointer: true }], nameStart: 0, nameEnd: 0 });
  const fresh = addConfiguration(undefined, c);
  assert.equal(fresh.kind, 'added');
  if (fresh.kind !== 'added') return;
  assert.deepEqual(JSON.parse(fresh.text), { configurations: [c] });
  assert.deepEqual(JSON.parse(fresh.text.slice(fresh.start, fresh.end)), c);

  const before = '{\n  // not JSON\n}';
  assert.deepEqual(addConfiguration(before, c), { kind: 'invalid', problem: 'tensorlens.run.json:2:3: expected a property name in double quotes' });

  const empty = '{ "configurations": [] }\n';
  const e = addConfiguration(empty, c);
  assert.equal(e.kind, 'added');
  if (e.kind !== 'added') return;
  assert.deepEqual(JSON.parse(e.text), { configurations: [c] });
  assert.deepEqual(JSON.parse(e.text.slice(e.start, e.end)), c);

  const other = '{\n\t"configurations": [\n\t\t{ "program": "other.m", "args": [1, 2] }\n\t],\n\t"$schema": "x"\n}\n';
  const o = addConfiguration(other, c);
  assert.equal(o.kind, 'added');
  if (o.kind !== 'added') return;
  // the first configuration's text is untouched, the new one follows with the same indentation
  assert.ok(o.text.startsWith('{\n\t"configurations": [\n\t\t{ "program": "other.m", "args": [1, 2] },\n\t\t{\n'), o.text);
  assert.deepEqual(JSON.parse(o.text), { configurations: [{ program: 'other.m', args: [1, 2] }, c], $schema: 'x' });
  assert.deepEqual(JSON.parse(o.text.slice(o.start, o.end)), c);
  // what was added asks for the buffer's size, at the 0
  const k = { name: 'kernel_k', params: [{ name: 'p', pointer: true }], nameStart: 0, nameEnd: 0 };
  const main = {
    name: 'main',
    params: [
      { name: 'a', pointer: false },
      { name: 'b', pointer: false },
    ],
    nameStart: 0,
    nameEnd: 0,
  };
  const problems = checkRunConfigText(o.text, (rel) =>
    rel === 'k.m' ? { functions: [k], entries: [] } : { functions: [main], defaultEntry: 'main', entries: [] },
  );
  assert.deepEqual(
    problems.map((p) => [p.path, p.message, o.text.slice(p.start, p.end)]),
    [['configurations[1].buffers.p.bytes', 'must be at least 1 (got 0)', '0']],
  );

  // a program that already has a configuration: that one (a run uses the first for a program)
  const has = addConfiguration(o.text, c);
  assert.deepEqual(has, { kind: 'exists', index: 1, start: o.start, end: o.end });
});

test('one configuration per entry of a program: ▶ Run on a function takes the one whose entry it is', () => {
  const k = newConfiguration('k.m', { name: 'kernel_k', params: [], nameStart: 0, nameEnd: 0 });
  const text = '{ "configurations": [{ "program": "k.m", "entry": "kernel_other" }] }';
  const r = addConfiguration(text, k);
  assert.equal(r.kind, 'added');
  if (r.kind !== 'added') return;
  const file = parseRunConfigFile(r.text);
  assert.equal(configurationFor(file, 'k.m', 'kernel_k').config?.entry, 'kernel_k');
  assert.equal(configurationFor(file, 'k.m', 'kernel_other').config?.entry, 'kernel_other');
  // without an entry (Run Program from the palette), or for an entry with none of its own: the first for the program
  assert.equal(configurationFor(file, 'k.m').config?.entry, 'kernel_other');
  assert.equal(configurationFor(file, 'k.m', 'main').config?.entry, 'kernel_other');
  // a configuration without entry runs the default entry: it is the one a run of that entry uses
  const plain = addConfiguration('{ "configurations": [{ "program": "k.m" }] }', k);
  assert.equal(plain.kind, 'exists');
});
