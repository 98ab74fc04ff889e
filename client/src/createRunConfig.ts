/**
 * Tensor Lens: Create Run Configuration — for an entry function (the code lens's, the one at the cursor,
 * or the program's default entry), a configuration with one argument per C parameter in the nearest
 * tensorlens.run.json (the program's folder or above, inside its workspace folder; created in the
 * program's folder when there is none), added as an edit that keeps what the file has; the file opens
 * with the new configuration selected. When the file already has the configuration a run of this entry
 * uses (one for the entry, or one for the program without `entry`), that configuration opens instead.
 */
import * as vscode from 'vscode';
import { CREATE_RUN_CONFIG_COMMAND } from '../../core/protocol/lspExt';
import { programEntries } from '../../core/sim/entrySignature';
import { addConfiguration, newConfiguration } from '../../core/sim/runConfigCreate';
import { RUN_CONFIG_FILE } from '../../core/sim/runConfigFile';

/** What the command did (for tests): the file, the configuration's range in it, and whether it was added. */
export interface CreatedRunConfig {
  file: string;
  added: boolean;
  start: vscode.Position;
  end: vscode.Position;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The nearest tensorlens.run.json above `program` within its workspace folder, else a new one beside it. */
async function configFileFor(program: vscode.Uri): Promise<vscode.Uri> {
  const root = vscode.workspace.getWorkspaceFolder(program)?.uri;
  const beside = vscode.Uri.joinPath(program, '..');
  for (let dir = beside, i = 0; i < 32; i++) {
    const f = vscode.Uri.joinPath(dir, RUN_CONFIG_FILE);
    if (await exists(f)) return f;
    const up = vscode.Uri.joinPath(dir, '..');
    if (!root || dir.path === root.path || up.path === dir.path) break;
    dir = up;
  }
  return vscode.Uri.joinPath(beside, RUN_CONFIG_FILE);
}

export async function createRunConfiguration(uri?: string, entry?: string): Promise<CreatedRunConfig | undefined> {
  const editor = vscode.window.activeTextEditor;
  const program = uri ? vscode.Uri.parse(uri) : editor?.document.uri;
  if (!program) {
    void vscode.window.showWarningMessage('Open a tensor program to create its run configuration.');
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument(program);
  const text = doc.getText();
  const entries = programEntries(text);
  // the function asked for, else the one the cursor is in, else the program's default entry
  const cursor = !entry && editor?.document.uri.toString() === program.toString() ? doc.offsetAt(editor.selection.active) : -1;
  const around = [...entries.functions].reverse().find((f) => cursor >= 0 && f.nameStart <= cursor && entries.entries.includes(f.name));
  const name = entry ?? around?.name ?? entries.defaultEntry;
  const f = entries.functions.find((x) => x.name === name);
  if (!f) {
    void vscode.window.showWarningMessage(
      name ? `No function named ${name} in ${program.path.split('/').pop()}.` : 'Put the cursor in the entry function to create its run configuration.',
    );
    return undefined;
  }
  const file = await configFileFor(program);
  const dir = vscode.Uri.joinPath(file, '..');
  const rel = program.path.startsWith(dir.path + '/') ? program.path.slice(dir.path.length + 1) : program.fsPath;
  const fileExists = await exists(file);
  const before = fileExists ? (await vscode.workspace.openTextDocument(file)).getText() : undefined;
  const r = addConfiguration(before, newConfiguration(rel, f), file.fsPath);
  if (r.kind === 'invalid') {
    void vscode.window.showErrorMessage(`Cannot add a run configuration: ${r.problem}`);
    return undefined;
  }
  if (r.kind === 'added') {
    if (fileExists) {
      // an edit of the document (undoable, its unsaved changes kept), then saved
      const cfg = await vscode.workspace.openTextDocument(file);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(file, new vscode.Range(cfg.positionAt(0), cfg.positionAt(cfg.getText().length)), r.text);
      await vscode.workspace.applyEdit(edit);
      await cfg.save();
    } else await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(r.text));
  } else void vscode.window.showInformationMessage(`${RUN_CONFIG_FILE} already configures ${f.name} in ${rel}: a run uses that configuration.`);
  const shown = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });
  const start = shown.document.positionAt(r.start);
  const end = shown.document.positionAt(r.end);
  shown.selection = new vscode.Selection(start, end);
  shown.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return { file: file.fsPath, added: r.kind === 'added', start, end };
}

export function registerCreateRunConfig(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand(CREATE_RUN_CONFIG_COMMAND, createRunConfiguration));
}
