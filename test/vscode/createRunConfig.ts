/**
 * Create Run Configuration in a real VS Code: the command writes a tensorlens.run.json beside the
 * program (test/fixtures/create-run-config/cp.m, which has none) and opens it with the new configuration
 * selected; the language server marks the buffer sizes still to give (the client sends the file by its
 * name); filled in, Run Program runs the entry on named buffers. The file is removed afterwards.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { file, log } from './util';
import { type TestCase, waitFor } from './suite';

const DIR = 'test/fixtures/create-run-config';

interface Created {
  file: string;
  added: boolean;
  start: vscode.Position;
  end: vscode.Position;
}

/** The language server's diagnostics of a run configuration (code runConfig.invalid), not the JSON schema validator's. */
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.code === 'runConfig.invalid');

async function createThenRun(): Promise<void> {
  const program = file(`${DIR}/cp.m`);
  const config = file(`${DIR}/tensorlens.run.json`);
  await vscode.workspace.fs.delete(config).then(undefined, () => undefined);
  try {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(program), { preview: false });
    const r = await vscode.commands.executeCommand<Created>('tensorLens.createRunConfiguration', program.toString(), 'kernel_cp');
    assert.ok(r?.added, 'the configuration was not added');
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.fsPath, config.fsPath, 'the new file is not the active editor');
    assert.deepEqual(JSON.parse(editor.document.getText()), {
      configurations: [
        {
          name: 'kernel_cp(in, out, n)',
          program: 'cp.m',
          entry: 'kernel_cp',
          buffers: { in: { bytes: 0 }, out: { bytes: 0 } },
          args: ['@in', '@out', 0],
        },
      ],
    });
    // the new configuration is selected
    assert.deepEqual(JSON.parse(editor.document.getText(editor.selection)).entry, 'kernel_cp');
    // the server checks the file: each size still to give is marked at its 0 (VS Code's JSON language
    // service also validates the file against our schema, when it gets to it: its diagnostics are not ours)
    const marks = await waitFor('the run configuration diagnostics', () => {
      const d = ours(config);
      return d.length === 2 ? d : undefined;
    });
    log(`    (${marks.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`).join(' | ')})`);
    assert.deepEqual(
      marks.map((d) => [editor.document.getText(d.range), d.message]),
      [
        ['0', 'configurations[0].buffers.in.bytes: must be at least 1 (got 0)'],
        ['0', 'configurations[0].buffers.out.bytes: must be at least 1 (got 0)'],
      ],
    );
    // filled in: the input from a file, 8 bytes out, n = 8, the output dumped by name
    const filled = {
      configurations: [
        {
          program: 'cp.m',
          entry: 'kernel_cp',
          buffers: { in: { file: 'in.bin' }, out: { bytes: 8 } },
          args: ['@in', '@out', 8],
          dump: [{ buffer: 'out', dtype: 'u8' }],
        },
      ],
    };
    const edit = new vscode.WorkspaceEdit();
    edit.replace(config, new vscode.Range(0, 0, editor.document.lineCount, 0), JSON.stringify(filled, null, 2) + '\n');
    await vscode.workspace.applyEdit(edit);
    await editor.document.save();
    await waitFor('the diagnostics to clear', () => (ours(config).length === 0 ? true : undefined));
    const run = await vscode.commands.executeCommand<{
      error: { message: string } | null;
      dumps: { values?: number[] }[];
      buffers?: { name: string; address: number; bytes: number }[];
    }>('tensorLens.run', program.toString());
    assert.equal(run.error, null, run.error?.message);
    assert.deepEqual(
      run.buffers?.map((b) => [b.name, b.bytes]),
      [
        ['in', 8],
        ['out', 8],
      ],
    );
    assert.deepEqual(run.dumps[0].values, [5, 4, 3, 2, 1, 0, 7, 9]);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(config).then(undefined, () => undefined);
  }
}

export const TESTS: TestCase[] = [['Create Run Configuration writes tensorlens.run.json beside the program; filled in, it runs', createThenRun]];
