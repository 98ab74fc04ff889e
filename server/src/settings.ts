/**
 * The checker's settings: `initializationOptions` at start, then the client's `tensorLens`
 * configuration section (synchronized by the client on every change).
 */
import type { Connection } from 'vscode-languageserver';
import type { Project } from '../../core/project/project';
import type { Dialect } from '../../core/tprog/analyze';

export interface Settings {
  dialect: Dialect;
  includePaths: string[];
  /** Quiet time after an edit before the document is checked. */
  checkDelayMs: number;
}

export const defaultSettings = (): Settings => ({ dialect: 'auto', includePaths: [], checkDelayMs: 50 });

/** Takes the dialect and include paths given (others keep their value) and hands them to the Project. */
export function applySettings(settings: Settings, given: Partial<Settings> | undefined, project: Project): void {
  if (given?.dialect) settings.dialect = given.dialect;
  if (given?.includePaths) settings.includePaths = given.includePaths;
  project.setDialect(settings.dialect);
  project.opts.includePaths = settings.includePaths;
}

/** Applies each configuration change that has our section, then `changed()` (every result read with the old settings is stale). */
export function listenForSettings(connection: Connection, settings: Settings, project: Project, changed: () => void): void {
  connection.onDidChangeConfiguration((change) => {
    const s = (change.settings as { tensorLens?: Partial<Settings> } | undefined)?.tensorLens;
    if (!s) return;
    applySettings(settings, s, project);
    changed();
  });
}
