/**
 * Publishing a document's diagnostics: its language's problems plus what the last run left at it
 * (a run-time error or simulator warnings, kept until the document changes or the next run).
 */
import type { Connection } from 'vscode-languageserver';
import type { Diagnostic } from '../../core/common/diagnostic';
import { toLspDiagnostic } from './convert';
import type { DocumentStore } from './documents';
import type { LanguageRegistry } from './languages/registry';

export class DiagnosticsPublisher {
  /** Run-time errors and warnings by document URI. */
  private readonly runDiagnostics = new Map<string, Diagnostic[]>();

  constructor(
    private readonly connection: Connection,
    private readonly store: DocumentStore,
    private readonly languages: LanguageRegistry,
  ) {}

  /**
   * While true, a check is not published (clientFiles.ts: a file it read has not come from the client yet, so it would be reported
   * missing); the document is remembered and `release` hands it back to be checked again.
   */
  holdBack?: () => boolean;
  private readonly held = new Set<string>();

  /** Checks the document now and sends the result; a checker failure becomes one diagnostic (the server keeps running). */
  publish(uri: string): void {
    const doc = this.store.get(uri);
    if (!doc) return;
    const version = doc.version;
    let diags: Diagnostic[];
    try {
      diags = this.languages.for(doc).diagnostics(doc);
    } catch (e) {
      this.connection.console.log(`[error] checking ${uri}: ${(e as Error)?.stack ?? e}`);
      diags = [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: 'error',
          code: 'internal',
          message: `Tensor Lens internal error while checking this file (the server is still running): ${(e as Error)?.message}`,
        },
      ];
    }
    if (this.holdBack?.()) {
      this.held.add(uri);
      return;
    }
    diags = [...diags, ...(this.runDiagnostics.get(uri) ?? [])];
    void this.connection.sendDiagnostics({ uri, version, diagnostics: diags.map(toLspDiagnostic) });
  }

  /** The documents whose check was held back (`holdBack`), forgotten here. */
  release(): string[] {
    const uris = [...this.held];
    this.held.clear();
    return uris;
  }

  /** The document changed: the last run's diagnostics at it no longer apply. */
  dropRun(uri: string): void {
    this.runDiagnostics.delete(uri);
  }

  /** A run's diagnostics replace the previous run's; every document either names is published again. */
  replaceRun(byUri: Map<string, Diagnostic[]>): void {
    const before = [...this.runDiagnostics.keys()];
    this.runDiagnostics.clear();
    for (const [uri, ds] of byUri) this.runDiagnostics.set(uri, ds);
    for (const uri of new Set([...before, ...this.runDiagnostics.keys()])) this.publish(uri);
  }

  /** The document was closed: its problems leave the Problems panel. */
  clear(uri: string): void {
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }
}
