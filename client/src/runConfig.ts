/**
 * The run configuration of a program, for Run Program and for Debug alike: what the caller gives (a
 * launch configuration, the code lens's entry), else the program's configuration in the nearest
 * tensorlens.run.json (its folder or above; validated, its files made absolute), else the settings —
 * `tensorLens.run.*`, and `tensorLens.includePaths`/`tensorLens.dialect` so that the program is read
 * exactly as the checker reads it.
 */
import * as vscode from 'vscode';
import { isAbsolutePath, type FileRunConfig, type RunConfig } from '../../core/sim/runConfig';
import { configurationFor, formatProblem, parseRunConfigFile, RUN_CONFIG_FILE } from '../../core/sim/runConfigFile';

export interface ResolvedRunConfig {
  config?: RunConfig;
  /** Why there is no configuration: a tensorlens.run.json that is not valid (`file:line:col: path: message`). */
  problem?: string;
}

/** The nearest tensorlens.run.json configuration of `program`, with its folder; or the problem with that file. */
async function findRunConfig(program: vscode.Uri, entry: string | undefined): Promise<{ config?: FileRunConfig; base?: vscode.Uri; problem?: string }> {
  const root = vscode.workspace.getWorkspaceFolder(program)?.uri;
  let dir = vscode.Uri.joinPath(program, '..');
  for (let i = 0; i < 32; i++) {
    const f = vscode.Uri.joinPath(dir, RUN_CONFIG_FILE);
    let text: string | undefined;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(f));
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const file = parseRunConfigFile(text);
      if (file.problems.length) return { problem: formatProblem(f.fsPath, file.problems[0]) };
      const found = configurationFor(file, program.path.slice(dir.path.length + 1), entry);
      if (found.problems.length) return { problem: formatProblem(f.fsPath, found.problems[0]) };
      if (found.config) return { config: found.config, base: dir };
    }
    if (root && dir.path === root.path) break;
    const up = vscode.Uri.joinPath(dir, '..');
    if (up.path === dir.path) break;
    dir = up;
  }
  return {};
}

/** The configuration Run and Debug use for `program`; `given` wins over the file, the file over the settings. */
export async function resolveRunConfig(program: vscode.Uri, given: Partial<RunConfig> = {}): Promise<ResolvedRunConfig> {
  const found = await findRunConfig(program, given.entry);
  if (found.problem) return { problem: found.problem };
  const rc = found.config;
  const abs = (f: string) => (isAbsolutePath(f) || !found.base ? f : vscode.Uri.joinPath(found.base, f).fsPath);
  // resource settings: those of the program's workspace folder (multi-root workspaces)
  const settings = vscode.workspace.getConfiguration('tensorLens', program);
  // relative include paths start from the program's workspace folder, as the checker reads them (server/src/settings.ts)
  const serverDir = (vscode.workspace.getWorkspaceFolder(program) ?? vscode.workspace.workspaceFolders?.[0])?.uri;
  const include = (p: string) => (isAbsolutePath(p) || !serverDir ? p : vscode.Uri.joinPath(serverDir, p).fsPath);
  const config: RunConfig = {
    ...given,
    program: given.program ?? program.fsPath,
    entry: given.entry ?? rc?.entry,
    args: given.args ?? rc?.args,
    buffers: given.buffers ?? (rc?.buffers && Object.fromEntries(Object.entries(rc.buffers).map(([k, b]) => [k, b.file ? { ...b, file: abs(b.file) } : b]))),
    load: given.load ?? rc?.load?.map((l) => ({ where: l.where, file: abs(l.file) })),
    dump: given.dump ?? rc?.dump?.map((d) => ({ ...d, ...(d.file ? { file: abs(d.file) } : {}) })),
    // pictures the memory inspector opens after the run (not read by the simulator)
    views: given.views ?? rc?.views,
    memBytes: given.memBytes ?? rc?.memBytes ?? settings.get<number>('run.memBytes'),
    stepBudget: given.stepBudget ?? rc?.stepBudget ?? settings.get<number>('run.stepBudget'),
    includePaths: given.includePaths ?? settings.get<string[]>('includePaths', []).map(include),
    dialect: given.dialect ?? settings.get<RunConfig['dialect']>('dialect', 'auto'),
  };
  return { config };
}
