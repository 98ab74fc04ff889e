/**
 * The checker's settings, pulled from the client (`workspace/configuration`, section `tensorLens`):
 * once without a scope (files outside every folder) and once per workspace folder, since `dialect` and
 * `includePaths` are resource settings (each folder of a multi-root workspace may set its own).
 * `initializationOptions` give the first values until the first pull answers; after that the client
 * says `workspace/didChangeConfiguration` (no payload needed) when the section changes and the server
 * pulls again — the LSP pull model, instead of the deprecated pushed `configurationSection`. A client
 * that does not answer `workspace/configuration` may still push the section in that notification.
 */
import type { Connection } from 'vscode-languageserver';
import type { Project } from '../../core/project/project';
import { isAbsolutePath } from '../../core/sim/runConfig';
import { join } from '../../core/project/fileSystem';
import type { Dialect } from '../../core/tprog/analyze';
import { pathToUri } from './uri';
import type { WorkspaceFolders } from './workspace';

export interface Settings {
  dialect: Dialect;
  includePaths: string[];
  /** Quiet time after an edit before the document is checked. */
  checkDelayMs: number;
}

/** What a file is read with (the settings of its workspace folder). */
export type FileSettings = Pick<Settings, 'dialect' | 'includePaths'>;

export const SECTION = 'tensorLens';
const DIALECTS: readonly Dialect[] = ['auto', 'ztachip', 'guide'];

export const defaultSettings = (): Settings => ({ dialect: 'auto', includePaths: [], checkDelayMs: 50 });

/** The dialect and include paths of a configuration section as the client gave it; what is missing or malformed is left out. */
function readSection(given: unknown, base?: string): Partial<FileSettings> {
  const s = (given ?? {}) as { dialect?: unknown; includePaths?: unknown };
  const out: Partial<FileSettings> = {};
  if (typeof s.dialect === 'string' && (DIALECTS as readonly string[]).includes(s.dialect)) out.dialect = s.dialect as Dialect;
  if (Array.isArray(s.includePaths))
    // a folder's relative include paths start from that folder (as a run of a program in it reads them)
    out.includePaths = s.includePaths.filter((p): p is string => typeof p === 'string').map((p) => (base && !isAbsolutePath(p) ? join(base, p) : p));
  return out;
}

/** The settings by workspace folder, pulled from the client; `settings` holds those of files outside every folder. */
export class PulledSettings {
  private byFolder = new Map<string, FileSettings>();
  private canPull = false;

  constructor(
    private readonly settings: Settings,
    private readonly folders: WorkspaceFolders,
    private readonly project: Project,
  ) {
    project.opts.settingsFor = (path) => this.forPath(path);
  }

  /** `initialize`: the options the client sent, and whether it answers `workspace/configuration`. */
  initialize(given: unknown, canPull: boolean): void {
    Object.assign(this.settings, readSection(given));
    this.canPull = canPull;
    this.applyGlobal();
  }

  /** A client that cannot be asked sends the section with its change notification (as the LSP test client does). */
  push(given: unknown): void {
    if (given === undefined || given === null) return;
    Object.assign(this.settings, readSection(given));
    this.applyGlobal();
  }

  get pulls(): boolean {
    return this.canPull;
  }

  /** The settings of the file at `path`: its (innermost) workspace folder's, else the global ones. */
  forPath(path: string): FileSettings {
    let best: string | undefined;
    for (const f of this.byFolder.keys()) if ((path === f || path.startsWith(f.endsWith('/') ? f : f + '/')) && (!best || f.length > best.length)) best = f;
    return best ? this.byFolder.get(best)! : { dialect: this.settings.dialect, includePaths: this.settings.includePaths };
  }

  /** Pulls the section again (globally and for each folder); true when anything a check reads changed. */
  async pull(connection: Connection): Promise<boolean> {
    if (!this.canPull) return false;
    const folders = [...this.folders.all];
    const values: unknown[] = await connection.workspace.getConfiguration([
      { section: SECTION },
      ...folders.map((f) => ({ section: SECTION, scopeUri: pathToUri(f) })),
    ]);
    const before = JSON.stringify([this.settings.dialect, this.settings.includePaths, [...this.byFolder]]);
    const global = { ...defaultSettings(), ...readSection(values[0]) };
    this.settings.dialect = global.dialect;
    this.settings.includePaths = global.includePaths;
    this.byFolder = new Map(folders.map((f, i) => [f, { dialect: global.dialect, includePaths: global.includePaths, ...readSection(values[i + 1], f) }]));
    this.applyGlobal();
    return JSON.stringify([this.settings.dialect, this.settings.includePaths, [...this.byFolder]]) !== before;
  }

  private applyGlobal(): void {
    this.project.setDialect(this.settings.dialect);
    this.project.opts.includePaths = this.settings.includePaths;
  }
}

/**
 * Pulls the settings once the client is ready for requests, and again at every configuration change
 * (and workspace-folder change); `changed()` runs when a pull found different values (every result
 * read with the old ones is stale).
 */
export function listenForSettings(connection: Connection, pulled: PulledSettings, changed: () => void): { pullNow(): void } {
  const pullNow = () => {
    pulled.pull(connection).then(
      (different) => different && changed(),
      (e: unknown) => connection.console.error(`[settings] could not read the tensorLens settings: ${e instanceof Error ? e.message : String(e)}`),
    );
  };
  connection.onDidChangeConfiguration((change) => {
    if (pulled.pulls) return pullNow();
    const given = (change.settings as { [SECTION]?: unknown } | null | undefined)?.[SECTION];
    if (given === undefined) return;
    pulled.push(given);
    changed();
  });
  return { pullNow };
}
