/**
 * The extension's log: one `LogOutputChannel` ("Tensor Lens" in the Output view) written with levels
 * (`info`/`warn`/`error`/`trace`), so the user's log level filters it. The language client writes its own
 * messages and, with `tensorLens.trace.server`, the LSP trace to the same channel.
 */
import * as vscode from 'vscode';

export const LOG_NAME = 'Tensor Lens';
/** Shows the log (the language status item's link to it). */
export const SHOW_OUTPUT_COMMAND = 'tensorLens.showOutput';

export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel(LOG_NAME, { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => log.show(true)),
  );
  return log;
}

/** A message's "Show Output" button: its title, and what it does when chosen. */
export function showOutputButton(log: vscode.LogOutputChannel): { title: string; then: (choice: string | undefined) => void } {
  const title = vscode.l10n.t('Show Output');
  return { title, then: (choice) => choice === title && log.show(true) };
}
