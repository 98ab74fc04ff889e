/**
 * `tensor-lens` in VS Code's integrated terminals: the extension's `bin/terminal` folder goes first on
 * their PATH, and TENSOR_LENS_NODE names the executable of this extension host, which runs the command-line
 * tool shipped in the extension (bin/tensor-lens → dist/cli.js) as plain Node.js with ELECTRON_RUN_AS_NODE=1
 * (VS Code's own Electron on the desktop, the server's Node remotely). The user needs no Node.js or npm.
 * Terminals opened before the extension first activated get it when they are reopened.
 */
import * as vscode from 'vscode';

/** The folder put on the PATH and the variable that names the Node.js to run the tool with. */
export const TERMINAL_BIN = ['bin', 'terminal'];
export const NODE_VARIABLE = 'TENSOR_LENS_NODE';

export function registerTerminalPath(context: vscode.ExtensionContext): void {
  const env = context.environmentVariableCollection;
  const bin = vscode.Uri.joinPath(context.extensionUri, ...TERMINAL_BIN).fsPath;
  env.description = new vscode.MarkdownString('Puts `tensor-lens`, the Tensor Lens command-line tool, on the PATH.');
  // replaced at each activation: an update of the extension moves its folder
  env.prepend('PATH', bin + (process.platform === 'win32' ? ';' : ':'));
  env.replace(NODE_VARIABLE, process.execPath);
}
