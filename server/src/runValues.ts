/**
 * The run values the hovers and inlay hints of tensor programs show (core/tprog/features/runValues.ts):
 * the statement records of the last run (`tensorLens/run`) and, while a debug session is stopped, those
 * of its stop (`tensorLens/debugValues` from the client). A stop's values win while it lasts.
 *
 * Edits: a record belongs to the statement that starts at its file, line and column with the same text
 * (the feature checks the text), so an edited statement, or one that an edit above moved, loses its values.
 * A statement that still reads as it ran keeps them, marked "before your edits" once its document has
 * changed since the run (its version then differs from the one the run read).
 */
import type { StatementRun } from '../../core/protocol/trace';
import type { RunValues } from '../../core/tprog/features/runValues';

/** One run's (or stop's) records by file, then by `line:column`, with the document versions it read. */
interface Held {
  byFile: Map<string, Map<string, StatementRun>>;
  /** Versions of the documents open when the program was read, by URI. */
  versions: ReadonlyMap<string, number>;
  label: string;
  tag: string;
}

export class RunValuesStore {
  private run?: Held;
  private stop?: Held & { session: string };
  /** Called when what the hints show changed (the server asks the client to fetch inlay hints again). */
  onChange: () => void = () => undefined;

  /** The statements of a finished run, read with the documents at `versions`. */
  setRun(statements: readonly StatementRun[], versions: ReadonlyMap<string, number>): void {
    this.run = { byFile: index(statements), versions, label: 'last run', tag: 'run' };
    this.onChange();
  }

  /**
   * The statements as of a stop of debug session `session` (undefined: the session runs again or ended).
   * `versions`: the documents when the session's first stop arrived — a session reads its program once, at launch.
   */
  setStop(session: string, statements: readonly StatementRun[] | undefined, versions: () => ReadonlyMap<string, number>): void {
    if (!statements) {
      if (this.stop?.session !== session) return;
      this.stop = undefined;
    } else {
      const v = this.stop?.session === session ? this.stop.versions : versions();
      this.stop = { session, byFile: index(statements), versions: v, label: 'at this stop', tag: 'at this stop' };
    }
    this.onChange();
  }

  /** What to show in document `uri` (at `version`, path `path`): the stop's values, else the last run's; undefined when neither covers the file. */
  valuesFor(uri: string, path: string, version: number): RunValues | undefined {
    const held = [this.stop, this.run].find((h) => h?.byFile.has(path));
    if (!held) return undefined;
    const ran = held.versions.get(uri);
    const edited = ran !== undefined && ran !== version;
    return {
      label: edited ? `${held.label}, before your edits` : held.label,
      tag: edited ? `${held.tag}, before edits` : held.tag,
      at: (file, line, column) => held.byFile.get(file)?.get(`${line}:${column}`),
    };
  }
}

function index(statements: readonly StatementRun[]): Map<string, Map<string, StatementRun>> {
  const byFile = new Map<string, Map<string, StatementRun>>();
  for (const s of statements) {
    let m = byFile.get(s.file);
    if (!m) byFile.set(s.file, (m = new Map()));
    m.set(`${s.line}:${s.column}`, s);
  }
  return byFile;
}
