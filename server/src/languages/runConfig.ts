/**
 * `tensorlens.run.json` as a language of the server (the client sends it by its name, whatever its
 * language id): its problems at the exact JSON value (core/sim/runConfigCheck.ts), the configurations'
 * arguments checked against the C parameters of the program each names, read as the checker reads it
 * (an open editor's text first).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../../core/common/diagnostic';
import type { Project } from '../../../core/project/project';
import { programEntries } from '../../../core/sim/entrySignature';
import { isAbsolutePath } from '../../../core/sim/runConfig';
import { checkRunConfigText } from '../../../core/sim/runConfigCheck';
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

  diagnostics(doc: TextDocument): Diagnostic[] {
    const path = uriToPath(doc.uri);
    const dir = path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    const read = new Set<string>();
    this.programs.set(doc.uri, read);
    const problems = checkRunConfigText(doc.getText(), (rel) => {
      const p = isAbsolutePath(rel) ? rel : dir + rel.replace(/^\.[\\/]/, '');
      read.add(p);
      const text = this.project.opts.fs.read(p);
      return text === undefined ? undefined : programEntries(text);
    });
    return problems.map((p) => ({
      range: { start: doc.positionAt(p.start), end: doc.positionAt(Math.max(p.end, p.start)) },
      severity: 'error',
      code: 'runConfig.invalid',
      message: p.path ? `${p.path}: ${p.message}` : p.message,
    }));
  }

  forget(uri: string): void {
    this.programs.delete(uri);
  }

  dependsOn(doc: TextDocument, changedPath: string): boolean {
    return this.programs.get(doc.uri)?.has(changedPath) ?? false;
  }
}
