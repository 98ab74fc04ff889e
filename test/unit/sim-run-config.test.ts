/**
 * One source for the run configuration (core/sim/runConfig.ts): schemas/run-config.schema.json and the
 * debugger's launch attributes in package.json are what it generates (`UPDATE_SCHEMAS=1` rewrites
 * both), and tensorlens.run.json is validated at run time with located problems.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DIALECTS, isAbsolutePath, launchAttributes, runConfigFileSchema, type FileRunConfig, type RunConfig } from '../../core/sim/runConfig';
import { configurationFor, formatProblem, parseRunConfigFile } from '../../core/sim/runConfigFile';
import { toDumpConfig, toLoadConfig } from '../../core/sim/runConfigText';
import type { LaunchArgs } from '../../debug/protocol';
import type { RunParams } from '../../core/protocol/lspExt';

const ROOT = resolve(__dirname, '..', '..');
const SCHEMA = resolve(ROOT, 'schemas/run-config.schema.json');
const PACKAGE = resolve(ROOT, 'package.json');

test('schemas/run-config.schema.json and the launch attributes in package.json are generated from runConfig.ts', () => {
  const pkgText = readFileSync(PACKAGE, 'utf8');
  const pkg = JSON.parse(pkgText);
  const debuggerOf = (p: typeof pkg) => p.contributes.debuggers.find((d: { type: string }) => d.type === 'tensor-lens');
  if (process.env.UPDATE_SCHEMAS) {
    writeFileSync(SCHEMA, JSON.stringify(runConfigFileSchema(), null, 2) + '\n');
    debuggerOf(pkg).configurationAttributes.launch = launchAttributes();
    writeFileSync(PACKAGE, JSON.stringify(pkg, null, 2) + (pkgText.endsWith('\n') ? '\n' : ''));
  }
  const hint = '(UPDATE_SCHEMAS=1 node --import tsx --test test/unit/sim-run-config.test.ts regenerates it)';
  assert.deepEqual(JSON.parse(readFileSync(SCHEMA, 'utf8')), runConfigFileSchema(), `schemas/run-config.schema.json is out of date ${hint}`);
  assert.deepEqual(
    debuggerOf(JSON.parse(readFileSync(PACKAGE, 'utf8'))).configurationAttributes.launch,
    launchAttributes(),
    `package.json's tensor-lens launch attributes are out of date ${hint}`,
  );
  // the settings the editor fills a run from have the same values
  assert.deepEqual(pkg.contributes.configuration.properties['tensorLens.dialect'].enum, [...DIALECTS]);
});

test('the TypeScript types carry the same properties as the schemas', () => {
  // compile-time: each key of the type is a property of the schema and the other way round
  const fileKeys = { name: 1, program: 1, entry: 1, args: 1, buffers: 1, load: 1, dump: 1, views: 1, memBytes: 1, stepBudget: 1 } satisfies Record<
    keyof FileRunConfig,
    1
  >;
  const runKeys = {
    program: 1,
    entry: 1,
    args: 1,
    buffers: 1,
    load: 1,
    dump: 1,
    views: 1,
    memBytes: 1,
    stepBudget: 1,
    includePaths: 1,
    dialect: 1,
    pcore: 1,
  } satisfies Record<keyof RunConfig, 1>;
  const launchKeys = { ...runKeys, stopOnEntry: 1, trace: 1, cwd: 1 } satisfies Record<Exclude<keyof LaunchArgs, 'overlay'>, 1>;
  const paramsKeys = { ...runKeys, uri: 1, program: undefined } satisfies Record<keyof RunParams | 'program', 1 | undefined>;
  const items = runConfigFileSchema().properties!.configurations.items!;
  assert.deepEqual(Object.keys(items.properties!).sort(), Object.keys(fileKeys).sort());
  assert.deepEqual(Object.keys(launchAttributes().properties!).sort(), Object.keys(launchKeys).sort());
  assert.ok(paramsKeys.uri);
  // a valid configuration is typed as what the schema accepts
  const c: RunConfig = {
    program: 'a.m',
    load: [{ where: 'inbuf', file: 'in.bin' }],
    dump: [{ space: 'PCORE@1', where: '0.0.t::x', count: 2, dtype: 'word12' }],
    dialect: 'guide',
  };
  assert.equal(c.dump![0].space, 'PCORE@1');
});

test('loads and dumps as command-line text become configuration objects', () => {
  assert.deepEqual(toLoadConfig('inbuf+4=C:\\data\\in.bin'), { where: 'inbuf+4', file: 'C:\\data\\in.bin' });
  assert.deepEqual(toDumpConfig('PCORE@1:7.15.test::_Z:2:word12'), { space: 'PCORE@1', where: '7.15.test::_Z', count: 2, dtype: 'word12' });
  assert.deepEqual(toDumpConfig('mem:outbuf:4:i16=out.npy'), { space: 'MEM', where: 'outbuf', count: 4, dtype: 'i16', file: 'out.npy' });
  assert.throws(() => toDumpConfig('NOPE:1:1:i16'), /SPACE must be/);
});

test('absolute paths on every platform', () => {
  for (const p of ['/a/b.bin', 'C:\\x\\in.bin', 'c:/x/in.bin', '\\\\server\\share\\x']) assert.ok(isAbsolutePath(p), p);
  for (const p of ['in.bin', './in.bin', '..\\in.bin', 'C:in.bin']) assert.ok(!isAbsolutePath(p), p);
});

const VALID = `{
  "$schema": "../../schemas/run-config.schema.json",
  "configurations": [
    { "program": "other.m", "args": "not checked: another program's" },
    {
      "name": "self test",
      "program": "./kernels/test.m",
      "entry": "kernel_test",
      "args": [1, -2],
      "load": [{ "where": "inbuf", "file": "in.bin" }],
      "dump": [{ "space": "MEM", "where": "outbuf", "count": 16, "dtype": "i16", "file": "out.npy" }],
      "memBytes": 1048576
    }
  ]
}`;

test('a valid tensorlens.run.json gives the program its configuration (others are not looked at)', () => {
  const f = parseRunConfigFile(VALID);
  assert.deepEqual(f.problems, []);
  const { config, problems } = configurationFor(f, 'kernels/test.m');
  assert.deepEqual(problems, []);
  assert.equal(config!.entry, 'kernel_test');
  assert.deepEqual(config!.args, [1, -2]);
  assert.equal(configurationFor(f, 'none.m').config, undefined);
});

test('a malformed tensorlens.run.json is a located problem, not a crash', () => {
  const problem = (text: string, program = 'test.m') => {
    const f = parseRunConfigFile(text);
    const p = f.problems[0] ?? configurationFor(f, program).problems[0];
    return p && formatProblem('tensorlens.run.json', p);
  };
  const conf = (body: string) => `{\n  "configurations": [\n    {\n      "program": "test.m",\n      ${body}\n    }\n  ]\n}`;
  const unknown = (k: string) =>
    `configurations[0].${k}: unknown property "${k}" (allowed: name, program, entry, args, buffers, load, dump, views, memBytes, stepBudget)`;
  const cases: [string, string][] = [
    // syntax errors at their place
    ['{\n  "configurations": [\n    { "program": "test.m", }\n  ]\n}', '3:28: expected a property name in double quotes'],
    ['{ "configurations": [', '1:22: unexpected end of the file'],
    ['', '1:1: unexpected end of the file'],
    // the top level
    ['[]', '1:1: must be an object (got an array)'],
    ['{ "configuration": [] }', '1:1: "configurations" is required'],
    ['{ "configurations": {} }', '1:21: configurations: must be an array (got an object)'],
    // the program's configuration: at the value at fault (an unknown property at its name), with its JSON path
    [conf('"args": [1, "2"]'), '5:19: configurations[0].args[1]: "2" is neither an integer nor a buffer reference ("@name", "@name+bytes")'],
    [conf('"args": [1.5]'), '5:16: configurations[0].args[0]: must be an integer or a string (got 1.5)'],
    [conf('"args": ["@in+x"]'), '5:16: configurations[0].args[0]: "@in+x" is neither an integer nor a buffer reference ("@name", "@name+bytes")'],
    [
      conf('"buffers": { "2x": { "bytes": 4 } }'),
      '5:20: configurations[0].buffers.2x: name "2x" is not a name (letters, digits and _, not starting with a digit)',
    ],
    [conf('"buffers": { "x": { "bytes": 0 } }'), '5:36: configurations[0].buffers.x.bytes: must be at least 1 (got 0)'],
    [
      conf('"buffers": { "x": { "size": 4 } }'),
      `5:27: configurations[0].buffers.x.size: unknown property "size" (allowed: file, bytes, align, layout, channels)`,
    ],
    [
      conf('"buffers": { "x": { "file": "a.png", "layout": "split" } }'),
      '5:54: configurations[0].buffers.x.layout: must be one of planar, interleaved (got "split")',
    ],
    [conf('"dump": [{ "buffer": "out", "dtype": "u8", "shape": [] }]'), '5:59: configurations[0].dump[0].shape: must have at least 1 item'],
    [conf('"dump": [{ "buffer": "out", "dtype": "u8", "shape": [3, 0] }]'), '5:63: configurations[0].dump[0].shape[1]: must be at least 1 (got 0)'],
    [conf('"memBytes": 12'), '5:19: configurations[0].memBytes: must be at least 65536 (got 12)'],
    [
      conf('"dump": [{ "space": "DDR", "where": "x", "count": 1, "dtype": "i16" }]'),
      '5:27: configurations[0].dump[0].space: must be one of MEM, SCRATCH, PCORE, PCORE@1 (got "DDR")',
    ],
    [conf('"load": [{ "where": "x" }]'), '5:16: configurations[0].load[0]: "file" is required'],
    [conf('"entyr": "main"'), `5:7: ${unknown('entyr')}`],
    // how the program is read comes from the settings, as for the checker
    [conf('"dialect": "guide"'), `5:7: ${unknown('dialect')}`],
  ];
  for (const [text, want] of cases) assert.equal(problem(text), `tensorlens.run.json:${want}`, text);
});
