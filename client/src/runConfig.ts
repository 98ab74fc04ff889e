/** Finds the run configuration (tensorlens.run.json) for a program: the nearest file in its folder or above. */
import * as vscode from 'vscode';

export const RUN_CONFIG_FILE = 'tensorlens.run.json';

export interface RunConfig {
  name?: string;
  program: string;
  entry?: string;
  args?: number[];
  load?: { where: string; file: string }[];
  dump?: { space: string; where: string; count: number; dtype: string; file?: string }[];
  memBytes?: number;
  stepBudget?: number;
}

export interface ResolvedRunConfig {
  config?: RunConfig;
  /** Folder of the configuration file (relative file names start there). */
  base?: vscode.Uri;
  problem?: string;
}

export async function findRunConfig(program: vscode.Uri): Promise<ResolvedRunConfig> {
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
      let json: { configurations?: RunConfig[] };
      try {
        json = JSON.parse(text);
      } catch (e) {
        return { problem: `${f.fsPath}: not valid JSON (${(e as Error).message})` };
      }
      const rel = program.path.slice(dir.path.length + 1);
      const config = (json.configurations ?? []).find((c) => c.program === rel || c.program === './' + rel);
      if (config) return { config, base: dir };
    }
    if (root && dir.path === root.path) break;
    const up = vscode.Uri.joinPath(dir, '..');
    if (up.path === dir.path) break;
    dir = up;
  }
  return {};
}
