/**
 * `tensor-lens` run tasks: one per program a `tensorlens.run.json` configures (the first configuration that
 * names it, the one Run Program uses). The task runs the program as Run Program does (the `tensorLens.run`
 * command, the language server's simulator) and prints in its terminal what the command-line tool prints: the
 * summary, the dumps, `file:line:col: warning:` and `file:line:col: error:` lines, the C call stack under the
 * error as `note:` lines at each call (stackNotes), which the `$tensor-lens` problem matcher puts in the Problems panel (the language server reports
 * a run's problems only in the documents open in our languages). Exit code 1 when the run failed.
 */
import * as vscode from 'vscode';
import { RUN_COMMAND, type RunResultMessage } from '../../core/protocol/lspExt';
import { parseRunConfigFile, RUN_CONFIG_FILE } from '../../core/sim/runConfigFile';
import { errorText, warningText } from '../../core/sim/runWarning';

/** The problem matcher of package.json (tasks.ts uses it too). */
export const PROBLEM_MATCHER = '$tensor-lens';
/** VS Code stops reading a task's lines when it ends, maybe before the terminal has parsed the last ones. */
const LINGER_MS = 1000;

export interface RunTaskDefinition extends vscode.TaskDefinition {
  command: 'run';
  /** the tensorlens.run.json, relative to the workspace folder */
  file: string;
  /** the name of its configuration */
  configuration: string;
}

/** The run configurations of a tensorlens.run.json that Run Program can reach: the first per program. */
export function reachableConfigurations(text: string): { name: string; program: string }[] {
  const seen = new Set<string>();
  const out: { name: string; program: string }[] = [];
  for (const c of parseRunConfigFile(text).configurations) {
    const { name, program } = (c ?? {}) as { name?: unknown; program?: unknown };
    if (typeof name !== 'string' || typeof program !== 'string') continue;
    const key = program.replace(/\\/g, '/').replace(/^\.\//, '');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name, program: key });
  }
  return out;
}

const rel = (folder: vscode.WorkspaceFolder, uri: vscode.Uri) => vscode.workspace.asRelativePath(uri, false) || uri.fsPath.slice(folder.uri.fsPath.length + 1);

export async function runTasks(folder: vscode.WorkspaceFolder): Promise<vscode.Task[]> {
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, `**/${RUN_CONFIG_FILE}`), '**/node_modules/**');
  const tasks: vscode.Task[] = [];
  for (const f of files) {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(f));
    for (const c of reachableConfigurations(text))
      tasks.push(runTask(folder, { type: 'tensor-lens', command: 'run', file: rel(folder, f), configuration: c.name }));
  }
  return tasks;
}

export function runTask(folder: vscode.WorkspaceFolder, def: RunTaskDefinition): vscode.Task {
  const execution = new vscode.CustomExecution(async () => new RunTerminal(folder, def));
  const task = new vscode.Task(def, folder, `run ${def.configuration}`, 'tensor-lens', execution, PROBLEM_MATCHER);
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true };
  return task;
}

/**
 * The C call stack under a run error (`name (file:line:col)`, innermost first) as notes at each call, which the
 * problem matcher shows as information in Problems: `file:line:col: note: callee is called here, in caller`.
 * The innermost frame is the error's own place; a frame of another form stays `    at …`.
 */
export function stackNotes(stack: string[]): string[] {
  const frames = stack.map((f) => /^(.+?) \((.+):(\d+):(\d+)\)$/.exec(f));
  return stack.slice(1).map((f, i) => {
    const [callee, caller] = [frames[i], frames[i + 1]];
    return callee && caller ? `${caller[2]}:${caller[3]}:${caller[4]}: note: ${callee[1]} is called here, in ${caller[1]}` : `    at ${f}`;
  });
}

class RunTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly def: RunTaskDefinition,
  ) {}

  private line(s = ''): void {
    this.written.fire(s.replace(/\n/g, '\r\n') + '\r\n');
  }

  open(): void {
    void this.run()
      .catch((e: unknown) => {
        this.line(`tensor-lens: ${e instanceof Error ? e.message : String(e)}`);
        return 2;
      })
      .then((code) => setTimeout(() => this.closed.fire(code), LINGER_MS));
  }

  close(): void {}

  private async run(): Promise<number> {
    const file = vscode.Uri.joinPath(this.folder.uri, ...this.def.file.split('/'));
    const c = reachableConfigurations(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))).find((x) => x.name === this.def.configuration);
    if (!c) {
      this.line(`${this.def.file}: no configuration named ${JSON.stringify(this.def.configuration)} that Run Program uses (the first one for its program)`);
      return 2;
    }
    const program = vscode.Uri.joinPath(file, '..', ...c.program.split('/'));
    this.line(`Running ${rel(this.folder, program)} (${c.name}, ${this.def.file})`);
    const r = await vscode.commands.executeCommand<RunResultMessage | undefined>(RUN_COMMAND, program.toString());
    if (!r) {
      this.line('the run did not start (see the notification)');
      return 2;
    }
    const s = r.summary;
    if (r.output) this.line(r.output.replace(/\n$/, ''));
    for (const d of r.dumps) this.line(d.file ? `${d.space}:${d.where}: wrote ${d.file}` : `${d.space}:${d.where}:${d.dtype} = ${d.values?.join(' ')}`);
    for (const w of r.warnings) this.line(warningText(w, vscode.Uri.parse(w.uri).fsPath));
    this.line(
      `${r.entry || '(no entry)'}: ${s.statements} tensor statements, ${s.steps} steps, ${s.bytesMoved} bytes moved, ${s.laneOps} lane-ops, ${s.timeMs} ms`,
    );
    if (!r.error) return 0;
    this.line(errorText(r.error, r.error.uri ? vscode.Uri.parse(r.error.uri).fsPath : rel(this.folder, program)));
    for (const n of stackNotes(r.error.stack)) this.line(n);
    return 1;
  }
}
