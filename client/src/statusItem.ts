/**
 * The language status items of our documents (the `{}` in the status bar, as rust-analyzer and Even
 * Better TOML show theirs) — the first place to look:
 *   - `tensorLens.document`: what the server made of the active document: a tensor program's dialect
 *     and its `.p`, a PCORE program's tensor program, a layout spec's tensors (`tensorLens/documentStatus`);
 *     busy while the document waits for its check;
 *   - `tensorLens.server`: the language server's state (starting, checking the active document, ready,
 *     restarting, stopped → Restart) with a link to the log.
 */
import * as vscode from 'vscode';
import { State, type BaseLanguageClient } from 'vscode-languageclient';
import { DocumentStatusRequest, OPEN_LAYOUT_MAP_COMMAND, type DocumentStatusResult } from '../../core/protocol/lspExt';
import { isServed, LAYOUT, OUR_LANGUAGES, PCORE, TPROG } from './languageIds';
import type { LazyServer } from './lazyStart';
import { SHOW_OUTPUT_COMMAND } from './log';
import { RESTART_COMMAND, type ServerHealth } from './serverHealth';

/** What a status item shows (the extension's API hands these to the integration tests). */
export interface StatusSnapshot {
  id: string;
  text: string;
  detail?: string;
  severity: 'information' | 'warning' | 'error';
  busy: boolean;
  command?: string;
}

const SEVERITY = {
  [vscode.LanguageStatusSeverity.Information]: 'information',
  [vscode.LanguageStatusSeverity.Warning]: 'warning',
  [vscode.LanguageStatusSeverity.Error]: 'error',
} as const;
const baseName = (uri: string) => decodeURIComponent(uri.split(/[?#]/)[0].split('/').pop() ?? uri);

/** The document item's text, detail and command for what the server said about a document. */
export function describeDocument(s: DocumentStatusResult): { text: string; detail?: string; command?: vscode.Command } {
  const paired = s.paired[0];
  const open = paired ? { title: vscode.l10n.t('Open {0}', baseName(paired)), command: 'vscode.open', arguments: [vscode.Uri.parse(paired)] } : undefined;
  switch (s.language) {
    case TPROG: {
      const dialect = s.dialect ?? '?';
      const detail =
        s.dialectSetting === 'auto' || !s.dialectSetting
          ? vscode.l10n.t('dialect detected from its statements (tensorLens.dialect: auto)')
          : vscode.l10n.t('dialect set by tensorLens.dialect');
      return paired
        ? { text: vscode.l10n.t('{0} dialect · {1}', dialect, baseName(paired)), detail, command: open }
        : {
            text: vscode.l10n.t('{0} dialect · no PCORE program', dialect),
            detail,
            command: { title: vscode.l10n.t('Dialect Setting'), command: 'workbench.action.openSettings', arguments: ['tensorLens.dialect'] },
          };
    }
    case PCORE:
      return paired
        ? { text: vscode.l10n.t('PCORE program · {0}', baseName(paired)), command: open }
        : { text: vscode.l10n.t('PCORE program · no tensor program'), detail: vscode.l10n.t('no .m or .tprog of the same name beside it') };
    case LAYOUT:
      return {
        text: s.tensors === 1 ? vscode.l10n.t('Layout spec · 1 tensor') : vscode.l10n.t('Layout spec · {0} tensors', s.tensors ?? 0),
        command: { title: vscode.l10n.t('Show Layout Map'), command: OPEN_LAYOUT_MAP_COMMAND },
      };
    default:
      return { text: vscode.l10n.t('not checked') };
  }
}

export class StatusItems implements vscode.Disposable {
  private readonly doc: vscode.LanguageStatusItem;
  private readonly server: vscode.LanguageStatusItem;
  private readonly subs: vscode.Disposable[] = [];
  /** Documents edited (or opened) since their last diagnostics: the server has a check to do. */
  private readonly pending = new Set<string>();
  private seq = 0;

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly lazy: LazyServer,
    private readonly health: ServerHealth,
  ) {
    const selector = OUR_LANGUAGES.map((language) => ({ language }));
    this.doc = vscode.languages.createLanguageStatusItem('tensorLens.document', selector);
    this.doc.name = vscode.l10n.t('Tensor Lens Document');
    this.server = vscode.languages.createLanguageStatusItem('tensorLens.server', selector);
    this.server.name = vscode.l10n.t('Tensor Lens Language Server');
    this.subs.push(
      this.doc,
      this.server,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidOpenTextDocument((d) => this.touched(d)),
      vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && this.touched(e.document)),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const uris = e.uris.map(String);
        uris.forEach((u) => this.pending.delete(u));
        const active = this.activeUri();
        if (active && uris.includes(active)) this.refresh();
      }),
      client.onDidChangeState(() => this.refresh()),
      health.onDidChange(() => this.refresh()),
      lazy.onDidStart(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('tensorLens') && this.refresh()),
    );
    for (const d of vscode.workspace.textDocuments) if (isServed(d)) this.pending.add(d.uri.toString());
    this.refresh();
  }

  /** The items as they are now (for the integration tests). */
  snapshot(): StatusSnapshot[] {
    return [this.doc, this.server].map((i) => ({
      id: i.id,
      text: i.text,
      detail: i.detail,
      severity: SEVERITY[i.severity],
      busy: i.busy,
      command: i.command?.command,
    }));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }

  private activeUri(): string | undefined {
    const d = vscode.window.activeTextEditor?.document;
    return d && OUR_LANGUAGES.includes(d.languageId) ? d.uri.toString() : undefined;
  }

  private touched(d: vscode.TextDocument): void {
    // only documents the server is given get diagnostics (a diff view's copy, say, never does)
    if (!isServed(d)) return;
    this.pending.add(d.uri.toString());
    if (d.uri.toString() === this.activeUri()) this.refresh();
  }

  private refresh(): void {
    this.showServer();
    void this.showDocument();
  }

  private showServer(): void {
    const s = this.server;
    const last = this.health.events[this.health.events.length - 1];
    const output = { title: vscode.l10n.t('Show Output'), command: SHOW_OUTPUT_COMMAND };
    s.severity = vscode.LanguageStatusSeverity.Information;
    s.command = output;
    s.busy = false;
    s.detail = undefined;
    if (!this.lazy.started) {
      s.text = vscode.l10n.t('Tensor Lens: not started');
      s.detail = vscode.l10n.t('starts when a tensor program, PCORE program or layout spec opens');
    } else if (this.client.state === State.Running) {
      const active = this.activeUri();
      const checking = !!active && this.pending.has(active);
      s.text = checking ? vscode.l10n.t('Tensor Lens: checking') : vscode.l10n.t('Tensor Lens: ready');
      s.busy = checking;
    } else if (this.client.state === State.Starting) {
      const restarting = last?.kind === 'crashed' || last?.kind === 'init-failed';
      s.text = restarting ? vscode.l10n.t('Tensor Lens: restarting') : vscode.l10n.t('Tensor Lens: starting');
      s.busy = true;
      if (restarting) {
        s.severity = vscode.LanguageStatusSeverity.Warning;
        s.detail = last.message;
      }
    } else {
      // stopped after a crash (or too many): the one thing to do is to restart it
      s.text = vscode.l10n.t('Tensor Lens: stopped');
      s.severity = vscode.LanguageStatusSeverity.Error;
      s.detail = last?.message;
      s.command = { title: vscode.l10n.t('Restart'), command: RESTART_COMMAND };
    }
  }

  private async showDocument(): Promise<void> {
    const uri = this.activeUri();
    const item = this.doc;
    const seq = ++this.seq;
    if (!uri || this.client.state !== State.Running) {
      item.text = vscode.l10n.t('not checked yet');
      item.detail = undefined;
      item.command = undefined;
      item.busy = !!uri && this.lazy.started;
      return;
    }
    const checking = this.pending.has(uri);
    item.busy = checking;
    if (checking) item.detail = vscode.l10n.t('checking…');
    let status: DocumentStatusResult;
    try {
      status = await this.client.sendRequest(DocumentStatusRequest, { uri });
    } catch {
      return; // the server went away: its state change refreshes the items
    }
    if (seq !== this.seq) return; // a later refresh answers
    const d = describeDocument(status);
    item.text = d.text;
    item.detail = checking ? vscode.l10n.t('checking…') : d.detail;
    item.command = d.command;
  }
}
