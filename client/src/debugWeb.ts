/**
 * The debugger in the web extension host: the simulator's debug target needs Node worker threads
 * and shared memory, so a `tensor-lens` session there only explains that (scripts/build.mjs puts
 * this module in place of debug.ts in the browser bundle).
 */
import * as vscode from 'vscode';

export function registerDebugger(context: vscode.ExtensionContext): () => Promise<boolean> {
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider('tensor-lens', {
      resolveDebugConfiguration: () => {
        void vscode.window.showErrorMessage('Debugging tensor programs needs the desktop VS Code (the simulator runs in a Node worker thread).');
        return undefined;
      },
    }),
  );
  return async () => false;
}
