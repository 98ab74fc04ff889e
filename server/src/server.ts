/**
 * The Tensor Lens language server: wiring of LSP requests to the engine in core/. Transport-agnostic:
 * node.ts (stdio/IPC) and browser.ts (web worker) create the connection and the file access.
 */
import {
  ErrorCodes,
  InlayHint,
  ResponseError,
  type CodeLens,
  InlayHintKind,
  TextDocumentSyncKind,
  TextDocuments,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../../core/common/diagnostic';
import type { FileSystem } from '../../core/project/fileSystem';
import { isPcorePath, Project, type PcoreLoader } from '../../core/project/project';
import {
  ReadMemoryMethod,
  RunMethod,
  RunProgressMethod,
  ServerStatusMethod,
  type ReadMemoryParams,
  type ReadMemoryResult,
  type RunParams,
  type RunResultMessage,
  TransferPreviewMethod,
  type ServerStatusResult,
  type TransferPreviewParams,
  type TransferPreviewResult,
} from '../../core/protocol/lspExt';
import type { Dialect, TprogAnalysis } from '../../core/tprog/analyze';
import { complete } from '../../core/tprog/features/complete';
import { hover } from '../../core/tprog/features/hover';
import { inlayHints } from '../../core/tprog/features/inlay';
import { definition, references, type Location } from '../../core/tprog/features/navigate';
import { transferPreview } from '../../core/tprog/features/preview';
import { signatureHelp } from '../../core/tprog/features/signature';
import { documentSymbols } from '../../core/tprog/features/symbols';
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from '../../core/tprog/features/tokens';
import { encodeTokens, toCodeActions, toCompletionItem, toDocumentSymbol, toLspDiagnostic } from './convert';
import { pcoreFeatures } from './pcoreFeatures';
import { LayoutDocuments, layoutFeatures } from './layoutFeatures';
import { pathToUri, uriToPath } from './uri';
import { runDiagnosticsOf } from './runDiagnostics';
import type { SimulatorHost } from './simulator';

export interface ServerHost {
  /** The simulator (absent in the browser, where Run is not available yet). */
  simulator?: SimulatorHost;
  /** Reads a file that is not open in the editor (undefined in the browser). */
  readDisk(path: string): string | undefined;
  /** Reads a file's bytes (`.csfbin` files of layout specs); absent in the browser. */
  readBinary?(path: string): Uint8Array | undefined;
  loadPcore: PcoreLoader;
  version: string;
}

export const TPROG_LANGUAGE = 'tensor-program';
export const PCORE_LANGUAGE = 'pcore';
export const LAYOUT_LANGUAGE = 'tensor-layout';

interface Settings {
  dialect: Dialect;
  includePaths: string[];
  checkDelayMs: number;
}

export function startServer(connection: Connection, host: ServerHost): void {
  const documents = new TextDocuments(TextDocument);
  const settings: Settings = { dialect: 'auto', includePaths: [], checkDelayMs: 50 };
  const fs: FileSystem = {
    read(path) {
      const doc = documents.get(pathToUri(path));
      if (doc) return doc.getText();
      try {
        return host.readDisk(path);
      } catch {
        return undefined;
      }
    },
  };
  const project = new Project({ fs, loadPcore: host.loadPcore, dialect: settings.dialect, includePaths: settings.includePaths });
  const analyses = new Map<string, { version: number; a: TprogAnalysis }>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Run-time errors shown at the faulting line until the document changes. */
  const runDiagnostics = new Map<string, Diagnostic[]>();
  let lastCheckMs = 0;

  const log = (msg: string) => connection.console.log(msg);
  const isLayout = (doc: TextDocument) => doc.languageId === LAYOUT_LANGUAGE || (doc.languageId !== TPROG_LANGUAGE && doc.languageId !== PCORE_LANGUAGE && uriToPath(doc.uri).endsWith('.tlayout'));
  const isTprog = (doc: TextDocument) => !isLayout(doc) && (doc.languageId === TPROG_LANGUAGE || (doc.languageId !== PCORE_LANGUAGE && !isPcorePath(uriToPath(doc.uri))));
  const layouts = new LayoutDocuments(host.readBinary ? (path) => host.readBinary!(path) : undefined);
  const layoutOf = (uri: string) => {
    const doc = documents.get(uri);
    return doc && isLayout(doc) ? layouts.get(uri, uriToPath(uri), doc.version, doc.getText()) : undefined;
  };

  function analysis(uri: string): TprogAnalysis | undefined {
    const doc = documents.get(uri);
    if (!doc || !isTprog(doc)) return undefined;
    const hit = analyses.get(uri);
    if (hit && hit.version === doc.version) return hit.a;
    const t0 = Date.now();
    const a = project.analyze(uriToPath(uri), doc.getText());
    lastCheckMs = Date.now() - t0;
    if (a) analyses.set(uri, { version: doc.version, a });
    return a;
  }

  /** Runs a request handler; a failure is logged and answered with `fallback`, never fatal. */
  function guard<T>(name: string, fallback: T, f: () => T): T {
    try {
      return f();
    } catch (e) {
      log(`[error] ${name} failed: ${(e as Error)?.stack ?? e}`);
      return fallback;
    }
  }

  function publish(uri: string): void {
    const doc = documents.get(uri);
    if (!doc) return;
    const version = doc.version;
    let diags: Diagnostic[];
    try {
      if (isLayout(doc)) diags = layoutFeatures.diagnostics(layoutOf(uri)!);
      else if (doc.languageId === PCORE_LANGUAGE || (isPcorePath(uriToPath(uri)) && doc.languageId !== TPROG_LANGUAGE)) diags = pcoreFeatures.diagnostics(project, uriToPath(uri), doc.getText());
      else diags = analysis(uri)?.diagnostics ?? [];
    } catch (e) {
      log(`[error] checking ${uri}: ${(e as Error)?.stack ?? e}`);
      diags = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 'error', code: 'internal', message: `Tensor Lens internal error while checking this file (the server is still running): ${(e as Error)?.message}` }];
    }
    diags = [...diags, ...(runDiagnostics.get(uri) ?? [])];
    void connection.sendDiagnostics({ uri, version, diagnostics: diags.map(toLspDiagnostic) });
  }

  function schedule(uri: string, delay = settings.checkDelayMs): void {
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    timers.set(uri, setTimeout(() => {
      timers.delete(uri);
      publish(uri);
    }, delay));
  }

  function recheckDependents(changedUri: string): void {
    const path = uriToPath(changedUri);
    for (const doc of documents.all()) {
      if (doc.uri === changedUri) continue;
      if (isTprog(doc)) {
        analyses.delete(doc.uri);
        if (isPcorePath(path) && project.pcorePathFor(uriToPath(doc.uri)) !== path) continue;
        schedule(doc.uri, settings.checkDelayMs * 2);
      }
    }
  }

  connection.onInitialize((params): InitializeResult => {
    const opts = params.initializationOptions as Partial<Settings> | undefined;
    if (opts?.dialect) settings.dialect = opts.dialect;
    if (opts?.includePaths) settings.includePaths = opts.includePaths;
    project.setDialect(settings.dialect);
    project.opts.includePaths = settings.includePaths;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        inlayHintProvider: true,
        codeLensProvider: { resolveProvider: false },
        documentSymbolProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        completionProvider: { triggerCharacters: ['$', ':', '.', '(', ' ', '>'] },
        signatureHelpProvider: { triggerCharacters: ['(', ','] },
        codeActionProvider: true,
        documentFormattingProvider: true,
        semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: true },
      },
      serverInfo: { name: 'tensor-lens', version: host.version },
    };
  });

  connection.onDidChangeConfiguration((change) => {
    const s = (change.settings as { tensorLens?: Partial<Settings> } | undefined)?.tensorLens;
    if (!s) return;
    if (s.dialect) settings.dialect = s.dialect;
    if (s.includePaths) settings.includePaths = s.includePaths;
    project.setDialect(settings.dialect);
    project.opts.includePaths = settings.includePaths;
    analyses.clear();
    for (const d of documents.all()) schedule(d.uri);
  });

  documents.onDidOpen((e) => schedule(e.document.uri, 0));
  // a .csfbin a layout spec reads changed on disk: check the open specs again
  connection.onDidChangeWatchedFiles((p) => {
    if (!p.changes.some((c) => c.uri.toLowerCase().endsWith('.csfbin'))) return;
    layouts.clear();
    for (const d of documents.all()) if (isLayout(d)) schedule(d.uri);
  });
  documents.onDidChangeContent((e) => {
    runDiagnostics.delete(e.document.uri);
    schedule(e.document.uri);
    recheckDependents(e.document.uri);
  });
  documents.onDidClose((e) => {
    analyses.delete(e.document.uri);
    layouts.forget(e.document.uri);
    project.forget(uriToPath(e.document.uri));
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  const offsetOf = (uri: string, pos: { line: number; character: number }) => documents.get(uri)?.offsetAt(pos);
  const toLsp = (uri: string, l: Location) => ({ uri: l.file ? pathToUri(l.file) : uri, range: l.range });

  connection.onHover((p) =>
    guard('hover', null, () => {
      const doc = documents.get(p.textDocument.uri);
      const lay = layoutOf(p.textDocument.uri);
      if (doc && lay) return layoutFeatures.hover(lay, doc.offsetAt(p.position));
      if (doc && !isTprog(doc)) return pcoreFeatures.hover(project, uriToPath(doc.uri), doc.getText(), doc.offsetAt(p.position));
      const a = analysis(p.textDocument.uri);
      const off = offsetOf(p.textDocument.uri, p.position);
      if (!a || off === undefined) return null;
      const h = hover(a, off);
      return h ? { contents: { kind: 'markdown', value: h.markdown }, range: h.range } : null;
    }),
  );

  connection.languages.inlayHint.on((p) =>
    guard('inlayHint', [], () => {
      const lay = layoutOf(p.textDocument.uri);
      if (lay) return layoutFeatures.inlay(lay, p.range.start.line, p.range.end.line);
      const a = analysis(p.textDocument.uri);
      if (!a) return [];
      return inlayHints(a, p.range.start.line, p.range.end.line).map((h) => {
        const hint = InlayHint.create(h.position, h.label, InlayHintKind.Type);
        hint.paddingLeft = true;
        hint.tooltip = h.tooltip;
        return hint;
      });
    }),
  );

  connection.onCodeLens((p) =>
    guard('codeLens', [], () => {
      const lay = layoutOf(p.textDocument.uri);
      if (lay) return layoutFeatures.codeLenses(lay, p.textDocument.uri);
      const a = analysis(p.textDocument.uri);
      if (!a) return [];
      const lenses: CodeLens[] = [];
      for (const [i, f] of a.c.functions.entries()) {
        const range = a.lines.range(f.nameSpan.start, f.nameSpan.end);
        const hasParams = a.c.vars.some((v) => v.fn === i && v.type === 'param');
        const called = a.c.calls.some((c) => c.name === f.name);
        if (host.simulator && !hasParams && (f.name === 'main' || f.name.startsWith('kernel_') || !called)) {
          lenses.push({ range, command: { title: '▶ Run', command: 'tensorLens.run', arguments: [p.textDocument.uri, f.name] } });
        }
        const has = a.units.some((u) => a.values.functionAt(u.buf.markerOffset)?.index === i && u.stmts.some((s) => s.stmt.kind === 'transfer'));
        if (has) lenses.push({ range, command: { title: 'Preview transfers', command: 'tensorLens.previewTransfers', arguments: [p.textDocument.uri, f.name] } });
      }
      return lenses;
    }),
  );

  connection.onDocumentSymbol((p) =>
    guard('documentSymbol', [], () => {
      const doc = documents.get(p.textDocument.uri);
      const lay = layoutOf(p.textDocument.uri);
      if (lay) return layoutFeatures.symbols(lay);
      if (doc && !isTprog(doc)) return pcoreFeatures.symbols(project, uriToPath(doc.uri), doc.getText());
      const a = analysis(p.textDocument.uri);
      return a ? documentSymbols(a).map(toDocumentSymbol) : [];
    }),
  );

  connection.onDefinition((p) =>
    guard('definition', [], () => {
      const a = analysis(p.textDocument.uri);
      const off = offsetOf(p.textDocument.uri, p.position);
      if (!a || off === undefined) return [];
      return definition(a, off).map((l) => toLsp(p.textDocument.uri, l));
    }),
  );

  connection.onReferences((p) =>
    guard('references', [], () => {
      const a = analysis(p.textDocument.uri);
      const off = offsetOf(p.textDocument.uri, p.position);
      if (!a || off === undefined) return [];
      return references(a, off, p.context.includeDeclaration).map((l) => toLsp(p.textDocument.uri, l));
    }),
  );

  connection.onCompletion((p) =>
    guard('completion', [], () => {
      const lay = layoutOf(p.textDocument.uri);
      const ldoc = documents.get(p.textDocument.uri);
      if (lay && ldoc) return layoutFeatures.complete(lay, ldoc.offsetAt(p.position));
      const a = analysis(p.textDocument.uri);
      const off = offsetOf(p.textDocument.uri, p.position);
      if (!a || off === undefined) return [];
      return (complete(a, off) ?? []).map(toCompletionItem);
    }),
  );

  connection.onSignatureHelp((p) =>
    guard('signatureHelp', null, () => {
      const a = analysis(p.textDocument.uri);
      const off = offsetOf(p.textDocument.uri, p.position);
      if (!a || off === undefined) return null;
      const s = signatureHelp(a, off);
      if (!s) return null;
      return { signatures: [{ label: s.label, documentation: { kind: 'markdown', value: s.documentation }, parameters: s.parameters.map((x) => ({ label: x })) }], activeSignature: 0, activeParameter: s.active };
    }),
  );

  connection.onCodeAction((p) =>
    guard('codeAction', [], () => {
      const doc = documents.get(p.textDocument.uri);
      if (!doc) return [];
      const lay = layoutOf(p.textDocument.uri);
      const diags = lay ? lay.diagnostics : isTprog(doc) ? (analysis(p.textDocument.uri)?.diagnostics ?? []) : pcoreFeatures.diagnostics(project, uriToPath(doc.uri), doc.getText());
      const inRange = diags.filter((d) => d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line);
      return toCodeActions(p.textDocument.uri, inRange);
    }),
  );

  connection.languages.semanticTokens.on((p) =>
    guard('semanticTokens', { data: [] }, () => {
      const lay = layoutOf(p.textDocument.uri);
      if (lay) return layoutFeatures.tokens(lay);
      const a = analysis(p.textDocument.uri);
      return a ? encodeTokens(semanticTokens(a)) : { data: [] };
    }),
  );

  connection.onDocumentFormatting((p) =>
    guard('formatting', [], () => {
      const lay = layoutOf(p.textDocument.uri);
      return lay ? layoutFeatures.format(lay) : [];
    }),
  );

  connection.onRequest(TransferPreviewMethod, (p: TransferPreviewParams): TransferPreviewResult =>
    guard('transferPreview', { markdown: 'internal error', transfers: 0 }, () => {
      const a = analysis(p.uri);
      return a ? transferPreview(a, p.function, p.rows) : { markdown: 'not a tensor program', transfers: 0 };
    }),
  );

  connection.onRequest(ServerStatusMethod, (): ServerStatusResult => ({ version: host.version, documents: documents.all().length, lastCheckMs, dialect: settings.dialect, pid: typeof process === 'object' ? process.pid : undefined, execArgv: typeof process === 'object' ? process.execArgv : undefined }));

  let runId = 0;
  connection.onRequest(RunMethod, async (p: RunParams, token): Promise<RunResultMessage> => {
    const id = ++runId;
    const empty: RunResultMessage = { runId: id, entry: p.entry ?? '', summary: { steps: 0, statements: 0, bytesMoved: 0, laneOps: 0, timeMs: 0 }, warnings: [], trace: [], traceTruncated: false, dumps: [], output: '', error: null };
    if (!host.simulator) return { ...empty, error: { uri: p.uri, line: 1, column: 1, message: 'Running programs needs the desktop (Node) extension host', kind: 'unsupported', stack: [] } };
    const overlay: Record<string, string> = {};
    for (const d of documents.all()) overlay[uriToPath(d.uri)] = d.getText();
    const { uri: _uri, ...config } = p;
    const file = uriToPath(p.uri);
    const r = await host.simulator.run(
      // read as the checker reads it unless the request says otherwise
      { ...config, includePaths: config.includePaths ?? settings.includePaths, dialect: config.dialect ?? settings.dialect, runId: id, file, overlay },
      (statements) => void connection.sendNotification(RunProgressMethod, { uri: p.uri, steps: statements, statements }),
      () => token.isCancellationRequested,
      (f) => token.onCancellationRequested(f),
    );
    const out = {
      ...r,
      runId: id,
      warnings: (r.warnings ?? []).map(({ file: f, ...w }) => ({ uri: pathToUri(f), ...w })),
      error: r.error ? { uri: pathToUri(r.error.file), line: r.error.line, column: r.error.column, message: r.error.message, kind: r.error.kind, stack: r.error.stack } : null,
    } as unknown as RunResultMessage;
    if (r.cancelled) out.error = { uri: p.uri, line: 1, column: 1, message: 'run cancelled', kind: 'cancelled', stack: [] };
    // the run's error and warnings replace the previous run's in the Problems panel
    const before = [...runDiagnostics.keys()];
    runDiagnostics.clear();
    const lineLength = (uri: string, line: number) => documents.get(uri)?.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '').length;
    for (const [uri, ds] of runDiagnosticsOf(r, lineLength)) runDiagnostics.set(uri, ds);
    for (const uri of new Set([...before, ...runDiagnostics.keys()])) publish(uri);
    return out;
  });

  connection.onRequest(ReadMemoryMethod, async (p: ReadMemoryParams): Promise<ReadMemoryResult> => {
    if (!host.simulator) return { data: '', unit: 1, size: 0 };
    const r = await host.simulator.read(p.runId, p.space, p.start, p.length, p.step);
    // an unknown, evicted or failed run is an error the inspector shows (not an empty memory)
    if (r.error) throw new ResponseError(ErrorCodes.InvalidParams, r.error);
    return { data: r.data ? toBase64(r.data) : '', unit: r.unit, size: r.size };
  });

  documents.listen(connection);
  connection.listen();
}

function toBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}
