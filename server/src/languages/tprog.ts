/**
 * Language features of tensor programs (`.m`/`.tprog`: C with `>` statements), on core/tprog. One
 * analysis per document version, through the shared Project (which reads the program's `.p` and
 * headers, open or on disk).
 */
import type { CodeLens, Location } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Location as EngineLocation } from '../../../core/common/featureResults';
import { isPcorePath, type Project } from '../../../core/project/project';
import { PREVIEW_TRANSFERS_COMMAND, RUN_COMMAND, CREATE_RUN_CONFIG_COMMAND } from '../../../core/protocol/lspExt';
import type { TprogAnalysis } from '../../../core/tprog/analyze';
import { complete } from '../../../core/tprog/features/complete';
import { hover } from '../../../core/tprog/features/hover';
import { inlayHints } from '../../../core/tprog/features/inlay';
import { definition, references } from '../../../core/tprog/features/navigate';
import { transferPreview } from '../../../core/tprog/features/preview';
import { signatureHelp } from '../../../core/tprog/features/signature';
import { documentSymbols } from '../../../core/tprog/features/symbols';
import { semanticTokens } from '../../../core/tprog/features/tokens';
import { encodeTokens, toCompletionItem, toDocumentSymbol, toHover, toInlayHint } from '../convert';
import type { RunValuesStore } from '../runValues';
import { pathToUri, uriToPath } from '../uri';
import type { LanguageFeatures } from './registry';

export const TPROG_LANGUAGE = 'tensor-program';

export class TprogLanguage implements LanguageFeatures {
  readonly id = TPROG_LANGUAGE;
  private readonly analyses = new Map<string, { version: number; a: TprogAnalysis }>();
  /** Duration of the last analysis (tensorLens/serverStatus). */
  lastCheckMs = 0;

  /** `canRun`: the host has a simulator, so functions get a "▶ Run" code lens; `runValues`: what the last run or debugger stop did (hovers, hints). */
  constructor(
    private readonly project: Project,
    private readonly canRun: boolean,
    private readonly runValues?: RunValuesStore,
  ) {}

  /** The fallback language: any C file may hold `>` statements. */
  ownsPath(): boolean {
    return true;
  }

  analysis(doc: TextDocument): TprogAnalysis | undefined {
    const hit = this.analyses.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.a;
    const t0 = Date.now();
    const a = this.project.analyze(uriToPath(doc.uri), doc.getText());
    this.lastCheckMs = Date.now() - t0;
    if (a) this.analyses.set(doc.uri, { version: doc.version, a });
    return a;
  }

  diagnostics(doc: TextDocument) {
    return this.analysis(doc)?.diagnostics ?? [];
  }

  hover(doc: TextDocument, offset: number) {
    const a = this.analysis(doc);
    const h = a && hover(a, offset, this.runValuesOf(doc));
    return h ? toHover(h) : null;
  }

  inlayHints(doc: TextDocument, startLine: number, endLine: number) {
    const a = this.analysis(doc);
    return a ? inlayHints(a, startLine, endLine, this.runValuesOf(doc)).map(toInlayHint) : [];
  }

  private runValuesOf(doc: TextDocument) {
    return this.runValues?.valuesFor(doc.uri, uriToPath(doc.uri), doc.version);
  }

  /**
   * "▶ Run" on functions that can be an entry — `main` and `kernel_*` (ztachip's entries, which the host
   * calls with its request's arguments: a run takes them from tensorlens.run.json `args`), and functions
   * without parameters that nothing calls — and "Preview transfers" on those with transfers.
   */
  codeLenses(doc: TextDocument): CodeLens[] {
    const a = this.analysis(doc);
    if (!a) return [];
    const lenses: CodeLens[] = [];
    for (const [i, f] of a.c.functions.entries()) {
      const range = a.lines.range(f.nameSpan.start, f.nameSpan.end);
      const hasParams = a.c.vars.some((v) => v.fn === i && v.type === 'param');
      const called = a.c.calls.some((c) => c.name === f.name);
      if (this.canRun && (f.name === 'main' || f.name.startsWith('kernel_') || (!hasParams && !called))) {
        const tooltip = hasParams ? `Run ${f.name} with the arguments of its tensorlens.run.json configuration ("args")` : `Run ${f.name}`;
        lenses.push({ range, command: { title: '▶ Run', tooltip, command: RUN_COMMAND, arguments: [doc.uri, f.name] } });
        // an entry that takes arguments gets them from a run configuration: write one with an argument per parameter
        if (hasParams)
          lenses.push({
            range,
            command: {
              title: 'Create Run Configuration',
              tooltip: `Add a configuration for ${f.name} to tensorlens.run.json, one argument per parameter`,
              command: CREATE_RUN_CONFIG_COMMAND,
              arguments: [doc.uri, f.name],
            },
          });
      }
      const has = a.units.some((u) => a.values.functionAt(u.buf.markerOffset)?.index === i && u.stmts.some((s) => s.stmt.kind === 'transfer'));
      if (has) lenses.push({ range, command: { title: 'Preview transfers', command: PREVIEW_TRANSFERS_COMMAND, arguments: [doc.uri, f.name] } });
    }
    return lenses;
  }

  symbols(doc: TextDocument) {
    const a = this.analysis(doc);
    return a ? documentSymbols(a).map(toDocumentSymbol) : [];
  }

  definition(doc: TextDocument, offset: number) {
    const a = this.analysis(doc);
    return a ? definition(a, offset).map((l) => toLocation(doc.uri, l)) : [];
  }

  references(doc: TextDocument, offset: number, includeDeclaration: boolean) {
    const a = this.analysis(doc);
    return a ? references(a, offset, includeDeclaration).map((l) => toLocation(doc.uri, l)) : [];
  }

  completion(doc: TextDocument, offset: number) {
    const a = this.analysis(doc);
    return a ? (complete(a, offset) ?? []).map(toCompletionItem) : [];
  }

  signatureHelp(doc: TextDocument, offset: number) {
    const a = this.analysis(doc);
    const s = a && signatureHelp(a, offset);
    if (!s) return null;
    return {
      signatures: [
        { label: s.label, documentation: { kind: 'markdown' as const, value: s.documentation }, parameters: s.parameters.map((x) => ({ label: x })) },
      ],
      activeSignature: 0,
      activeParameter: s.active,
    };
  }

  semanticTokens(doc: TextDocument) {
    const a = this.analysis(doc);
    return a ? encodeTokens(semanticTokens(a)) : { data: [] };
  }

  transferPreview(doc: TextDocument, fn: string | undefined, rows: number | undefined) {
    const a = this.analysis(doc);
    return a ? transferPreview(a, fn, rows) : undefined;
  }

  forget(uri: string): void {
    this.analyses.delete(uri);
  }

  /**
   * Any change may matter (a header or `.p` the program reads, open in the editor), so the cached
   * analysis goes; a changed `.p` is checked again only by the programs it belongs to.
   */
  dependsOn(doc: TextDocument, changedPath: string): boolean {
    this.analyses.delete(doc.uri);
    return !(isPcorePath(changedPath) && this.project.pcorePathFor(uriToPath(doc.uri)) !== changedPath);
  }

  settingsChanged(): void {
    this.analyses.clear();
  }
}

/** An engine location (undefined file = this document) as an LSP location. */
function toLocation(uri: string, l: EngineLocation): Location {
  return { uri: l.file ? pathToUri(l.file) : uri, range: l.range };
}
