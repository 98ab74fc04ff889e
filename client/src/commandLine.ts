/** The command-line tool inside VS Code (Node extension host only): on the terminals' PATH, and as tasks. */
import type * as vscode from 'vscode';
import { registerTasks } from './tasks';
import { registerTerminalPath } from './terminalPath';

export function registerCommandLine(context: vscode.ExtensionContext): void {
  registerTerminalPath(context);
  registerTasks(context);
}
