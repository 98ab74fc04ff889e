/**
 * `tensorlens.run.json` as a language of the server (the client sends it by its name, whatever its
 * language id): its problems at the exact JSON value (core/sim/runConfigCheck.ts), the configurations'
 * arguments checked against the C parameters of the program each names, read as the checker reads it
 * (an open editor's text first), and each argument's parameter name as an inlay hint.
 */
import { InlayHintKind, type InlayHint } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../core/common/diagnostic';
import type { Project } from '../../../core/project/project';
import { programEntries, type ProgramEntries } from '../../../core/sim/entrySignature';
import { isAbsolutePath } from '../../../core/sim/runConfig';
import { checkRunConfigText, runConfigArgHints } from '../../../core/sim/runConfigCheck';
import { RUN_CONFIG_FILE } from '../../../core/sim/runConfigFile';
import { uriToPath } from '../uri';
import type { LanguageFeatures } from './registry';

export const RUN_CONFIG_LANGUAGE = 'tensorlens-run-config';

export class RunConfigLanguage implements LanguageFeatures {
  readonly id = RUN_CONFIG_LANGUAGE;
  /** The programs each open run configuration read (by its URI), to check it again when one changes. */
  private readonly programs = new Map<string, Set<string>>();

  constructor(private readonly project: Project) {}

  ownsPath(path: string): boolean {
    const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    return name === RUN_CONFIG_FILE;
  }

  /** The entries of a program the file names (its path as written), recorded as what the file depends on. */
  private reader(doc: TextDocument): (rel: string) => ProgramEntries | undefined {
    const path = uriToPath(doc.uri);
    const dir = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    let read = this.programs.get(doc.uri);
    if (!read) this.programs.set(doc.uri, (read = new Set()));
    return (rel) => {
      const p = isAbsolutePath(rel) ? rel : dir + rel.replace(/^\.[\\/]/, '');
      read.add(p);
      const text = this.project.opts.fs.read(p);
      return text === undefined ? undefined : programEntries(text);
    };
  }

  diagnostics(doc: TextDocument): Diagnostic[] {
    this.programs.delete(doc.uri);
    const problems = checkRunConfigText(doc.getText(), this.reader(doc));
    return problems.map((p) => ({
      range: { start: doc.positionAt(p.start), end: doc.positionAt(Math.max(p.end, p.start)) },
      severity: 'error',
      code: 'runConfig.invalid',
      message: p.path ? `${p.path}: ${p.message}` : p.message,
    }));
  }

  /** The C parameter's name before each argument of `args`. */
  inlayHints(doc: TextDocument, startLine: number, endLine: number): InlayHint[] {
    return runConfigArgHints(doc.getText(), this.reader(doc))
      .map((h) => ({ position: doc.positionAt(h.at), label: h.label, tooltip: h.tooltip, kind: InlayHintKind.Parameter as InlayHintKind, paddingRight: true }))
      .filter((h) => h.position.line >= startLine && h.position.line <= endLine);
  }

  forget(uri: string): void {
    this.programs.delete(uri);
  }

  dependsOn(doc: TextDocument, changedPath: string): boolean {
    return this.programs.get(doc.uri)?.has(changedPath) ?? false;
  }
}
