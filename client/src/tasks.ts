/**
 * The `tensor-lens` task type. `check` runs `tensor-lens check --ranges` on a workspace folder (or a folder or
 * file in it) with the command-line tool shipped in the extension, run by this extension host's own executable
 * as Node.js (see terminalPath.ts), and the `$tensor-lens` problem matcher (package.json) puts each diagnostic
 * in the Problems panel with its range, severity and code. `run` runs a configuration of a tensorlens.run.json
 * (runTask.ts).
 */
import * as vscode from 'vscode';
import { PROBLEM_MATCHER, runTask, runTasks, type RunTaskDefinition } from './runTask';

export const TASK_TYPE = 'tensor-lens';

interface CheckTaskDefinition extends vscode.TaskDefinition {
  command: 'check';
  /** relative to the workspace folder; default the folder */
  path?: string;
  args?: string[];
}

function checkTask(context: vscode.ExtensionContext, folder: vscode.WorkspaceFolder, def: CheckTaskDefinition): vscode.Task {
  const cli = vscode.Uri.joinPath(context.extensionUri, 'bin', 'tensor-lens').fsPath;
  // --ranges: file:line:col-endLine:endCol, so that the Problems panel gets whole ranges, not points;
  // TENSOR_LENS_TASK: the tool waits a moment before it exits, so that the matcher reads every line (bin/tensor-lens)
  const args = [cli, 'check', '--ranges', ...(def.args ?? []), def.path || '.'];
  const execution = new vscode.ProcessExecution(process.execPath, args, { cwd: folder.uri.fsPath, env: { ELECTRON_RUN_AS_NODE: '1', TENSOR_LENS_TASK: '1' } });
  const task = new vscode.Task(def, folder, def.path ? `check ${def.path}` : `check ${folder.name}`, 'tensor-lens', execution, PROBLEM_MATCHER);
  task.group = vscode.TaskGroup.Build;
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, clear: true };
  return task;
}

export function registerTasks(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.tasks.registerTaskProvider(TASK_TYPE, {
      // one check per folder on disk (the tool reads files; virtual folders have none), and a run per configured program
      provideTasks: async () => {
        const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
        const runs = await Promise.all(folders.map((f) => runTasks(f)));
        return [...folders.map((f) => checkTask(context, f, { type: TASK_TYPE, command: 'check' })), ...runs.flat()];
      },
      // a task written in tasks.json: its definition as given, with our execution
      resolveTask: (task) => {
        const def = task.definition as CheckTaskDefinition | RunTaskDefinition;
        const folder = task.scope;
        if (typeof folder !== 'object' || folder.uri.scheme !== 'file') return undefined;
        if (def.command === 'check') return checkTask(context, folder, def);
        if (def.command === 'run' && typeof def.file === 'string' && typeof def.configuration === 'string') return runTask(folder, def);
        return undefined;
      },
    }),
  );
}
