/**
 * "Tensor Lens: Open the Examples" (the walkthrough's first step): copies the examples bundled with the
 * extension into `<chosen folder>/tensor-lens-examples` and opens that folder. An existing copy is opened
 * as it is — never overwritten — so nothing a user changed in it is lost.
 */
import * as vscode from 'vscode';

export const EXAMPLES_FOLDER = 'tensor-lens-examples';

/** Whether `uri` exists (file or folder). */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copies the examples into `parent/tensor-lens-examples` unless that folder exists; returns it.
 * `parent` is asked for when not given (tests pass it).
 */
export async function copyExamples(extensionUri: vscode.Uri, parent?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (!parent) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: 'Copy the Examples Here',
      title: `Tensor Lens: choose where to put ${EXAMPLES_FOLDER}/`,
    });
    parent = picked?.[0];
    if (!parent) return undefined;
  }
  const target = vscode.Uri.joinPath(parent, EXAMPLES_FOLDER);
  if (!(await exists(target))) await vscode.workspace.fs.copy(vscode.Uri.joinPath(extensionUri, 'examples'), target, { overwrite: false });
  return target;
}

export function registerWalkthrough(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('tensorLens.openExamples', async (parent?: vscode.Uri, open = true) => {
      try {
        const target = await copyExamples(context.extensionUri, parent);
        if (target && open) await vscode.commands.executeCommand('vscode.openFolder', target, { forceNewWindow: !!vscode.workspace.workspaceFolders?.length });
        return target?.toString();
      } catch (e) {
        void vscode.window.showErrorMessage(`Tensor Lens: could not copy the examples: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    }),
  );
}
