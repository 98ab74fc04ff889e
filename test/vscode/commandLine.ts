/**
 * Real-VS-Code tests of the command-line tool inside VS Code (issue #17 item 3): the `tensor-lens` task
 * type lists a check per workspace folder, running a check puts the tool's diagnostics in the Problems
 * panel through the `$tensor-lens` problem matcher with whole ranges, and a terminal finds `tensor-lens`
 * on its PATH (the extension's bin/terminal, run by VS Code's own executable).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, type TestCase, waitFor } from './suite';
import { file } from './util';

const extension = () => vscode.extensions.getExtension(EXTENSION_ID)!;

async function checkTask(): Promise<vscode.Task> {
  const tasks = await vscode.tasks.fetchTasks({ type: 'tensor-lens' });
  const folder = vscode.workspace.workspaceFolders![0];
  const t = tasks.find((x) => x.definition.command === 'check' && typeof x.scope === 'object' && x.scope.uri.toString() === folder.uri.toString());
  assert.ok(t, `no tensor-lens check task for ${folder.name}: ${tasks.map((x) => `${x.source}: ${x.name}`).join(', ')}`);
  return t;
}

export const TESTS: TestCase[] = [
  [
    'the tensor-lens task type lists a check of the workspace folder, run by the CLI shipped in the extension',
    async () => {
      const t = await checkTask();
      const folder = vscode.workspace.workspaceFolders![0];
      assert.equal(t.name, `check ${folder.name}`);
      assert.equal(t.source, 'tensor-lens');
      assert.ok(t.execution instanceof vscode.ProcessExecution, 'a process, not a shell command: no shell or PATH needed');
      assert.equal(t.execution.args[0], join(extension().extensionUri.fsPath, 'bin', 'tensor-lens'));
      assert.deepEqual(t.execution.args.slice(1), ['check', '--ranges', '.']);
      assert.equal(t.execution.options?.cwd, folder.uri.fsPath);
      assert.deepEqual(t.execution.options?.env, { ELECTRON_RUN_AS_NODE: '1', TENSOR_LENS_TASK: '1' });
      assert.deepEqual(t.problemMatchers, ['$tensor-lens']);
    },
  ],
  [
    'running a check task puts the diagnostics in Problems with their ranges, severities and codes',
    async () => {
      const listed = await checkTask();
      const exec = listed.execution as vscode.ProcessExecution;
      // the same task, on examples/mistakes only (the whole repository holds fixtures full of mistakes)
      const def = { type: 'tensor-lens', command: 'check', path: 'examples/mistakes' };
      const args = [...exec.args.slice(0, -1), def.path];
      const task = new vscode.Task(
        def,
        listed.scope as vscode.WorkspaceFolder,
        'check mistakes',
        'tensor-lens',
        new vscode.ProcessExecution(exec.process, args, exec.options),
        ['$tensor-lens'],
      );
      const ended = new Promise<number | undefined>((resolve) => {
        const d = vscode.tasks.onDidEndTaskProcess((e) => {
          if (e.execution.task.name !== 'check mistakes') return;
          d.dispose();
          resolve(e.exitCode);
        });
      });
      await vscode.tasks.executeTask(task);
      assert.equal(await ended, 1, 'tensor-lens check exits 1 when it reports an error');
      const uri = file('examples/mistakes/mistakes.m');
      const doc = await vscode.workspace.openTextDocument(uri);
      const fromCli = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tensor-lens CLI');
      const diags = await waitFor('the check task’s problems on mistakes.m', () => (fromCli().length >= 17 ? fromCli() : undefined), 30_000).catch(
        (e: Error) => {
          const all = vscode.languages
            .getDiagnostics()
            .flatMap(([u, ds]) =>
              ds.filter((d) => d.source !== 'tensor-lens').map((d) => `${u.toString()} ${d.range.start.line + 1} [${d.source}] ${String(d.code)}`),
            );
          throw new Error(`${e.message}
      on ${uri.toString()}: ${vscode.languages.getDiagnostics(uri).length}; elsewhere:
        ${all.slice(0, 30).join('\n        ')}`);
        },
      );
      // [code, 1-based line, the text the range covers (from its start), severity]: read off mistakes.m by hand
      const expected: [string, number, string, vscode.DiagnosticSeverity][] = [
        ['tprog.no-dtype', 10, 'MEM', vscode.DiagnosticSeverity.Error],
        ['tprog.unknown-member', 15, 'calc::inn', vscode.DiagnosticSeverity.Error],
        ['tprog.write-skipped', 24, 'DTYPE(INT16)MEM(p,16,16)[0:3][12:19]', vscode.DiagnosticSeverity.Warning],
        ['tprog.unknown-kernel', 27, 'calc::runn', vscode.DiagnosticSeverity.Error],
        ['tprog.guide-ddr', 32, 'DDR', vscode.DiagnosticSeverity.Error],
      ];
      for (const [code, line, text, severity] of expected) {
        const d = diags.find((x) => (typeof x.code === 'object' ? x.code.value : x.code) === code && x.range.start.line === line - 1);
        assert.ok(d, `no ${code} on line ${line}: ${diags.map((x) => `${x.range.start.line + 1} ${String(x.code)}`).join('; ')}`);
        // the checker's write-skipped range ends after the term's trailing blank: the task keeps what the checker says
        assert.equal(doc.getText(d.range).trimEnd(), text, `${code} on line ${line} covers ${JSON.stringify(doc.getText(d.range))}`);
        assert.equal(d.severity, severity, `${code} severity`);
      }
      assert.equal(diags.length, 17, 'every line tensor-lens check prints is one problem');
      assert.match(
        diags.find((x) => x.range.start.line === 26)!.message,
        /^Undefined function name: calc::runn is not a kernel of mistakes\.p; did you mean calc::run\?$/,
      );
    },
  ],
  [
    'the tensor-lens task type lists a run per configured program: the first configuration for it, as Run Program uses',
    async () => {
      const runs = (await vscode.tasks.fetchTasks({ type: 'tensor-lens' })).filter((t) => t.definition.command === 'run');
      const names = runs.map((t) => `${t.definition.file} ${t.name}`);
      assert.ok(names.includes('examples/test/tensorlens.run.json run self test'), names.join('; '));
      // fixtures/runTask names fault.m twice ("fault.m", "./fault.m"): only the first is reachable
      const fixture = runs.filter((t) => t.definition.file === 'test/vscode/fixtures/runTask/tensorlens.run.json').map((t) => t.name);
      assert.deepEqual(fixture, ['run fault']);
    },
  ],
  [
    'running a run task runs the configuration: exit code 0 for a clean run, 1 with the fault in Problems for a failing one',
    async () => {
      const runs = (await vscode.tasks.fetchTasks({ type: 'tensor-lens' })).filter((t) => t.definition.command === 'run');
      const exitOf = async (t: vscode.Task) => {
        const ended = new Promise<number | undefined>((resolve) => {
          const d = vscode.tasks.onDidEndTaskProcess((e) => {
            if (e.execution.task.name !== t.name) return;
            d.dispose();
            resolve(e.exitCode);
          });
        });
        await vscode.tasks.executeTask(t);
        return ended;
      };
      assert.equal(await exitOf(runs.find((t) => t.name === 'run self test')!), 0, 'examples/test runs clean');
      assert.equal(await exitOf(runs.find((t) => t.name === 'run fault')!), 1, 'fault.m stops at mystery_call');
      const fault = file('test/vscode/fixtures/runTask/fault.m');
      // through the $tensor-lens matcher: the error where mystery_call is called, and a note where fault_entry calls helper (fault.m:5:4)
      const both = await waitFor('the run error and its note on fault.m', () => {
        const ds = vscode.languages.getDiagnostics(fault).filter((x) => x.source === 'tensor-lens CLI');
        return ds.length >= 2 ? ds : undefined;
      });
      assert.deepEqual(both.map((x) => [x.range.start.line + 1, x.range.start.character + 1, x.severity, x.message]).sort(), [
        [2, 4, vscode.DiagnosticSeverity.Error, 'not simulated: call to mystery_call'],
        [5, 4, vscode.DiagnosticSeverity.Information, 'helper is called here, in fault_entry'],
      ]);
    },
  ],
  [
    'an integrated terminal finds tensor-lens on its PATH, in the extension, and runs it with VS Code’s own executable',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tl-terminal-'));
      try {
        const out = join(dir, 'out.txt');
        const t = vscode.window.createTerminal({
          name: 'tensor-lens on the PATH',
          shellPath: '/bin/sh',
          shellArgs: [
            '-c',
            `command -v tensor-lens > "${out}.tmp"; echo "$TENSOR_LENS_NODE" >> "${out}.tmp"; tensor-lens --version >> "${out}.tmp"; mv "${out}.tmp" "${out}"`,
          ],
        });
        try {
          const text = await waitFor('the terminal’s output', () => (existsSync(out) ? readFileSync(out, 'utf8') : undefined), 30_000);
          const [where, node, version] = text.split('\n');
          assert.equal(where, join(extension().extensionUri.fsPath, 'bin', 'terminal', 'tensor-lens'));
          assert.equal(node, process.execPath, 'TENSOR_LENS_NODE names the extension host’s executable');
          assert.equal(version, extension().packageJSON.version);
        } finally {
          t.dispose();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  ],
];
