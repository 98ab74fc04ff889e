/**
 * Lazy start of the language server. The extension activates on Objective-C, MATLAB, Pascal and Prolog
 * documents (ztachip names its programs `.m` and `.p`, so it must look at them to adopt them), but most
 * such projects have nothing of ours: the server (about 50 MB idle) starts only when there is work for
 * it — a document in one of our languages is open (an adopted `.m`/`.p`, a `.tprog`, `.pcore` or
 * `.tlayout`), a `.csfbin` viewer or a `tensorlens.run.json` opens, or a command needs the server.
 * Whether a `.m`/`.p` is ours is decided before, by `maybeAdoptDocument` (core/project/detect.ts):
 * an adopted document reopens under our language id, which is what starts the server.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { RUN_CONFIG_FILE } from '../../core/sim/runConfigFile';
import { CSF_VIEW_TYPE } from './csfEditor';
import { OUR_LANGUAGES } from './languageIds';
import type { ServerHealth } from './serverHealth';

/** Why `doc` needs the server, or undefined when it does not. */
export function documentNeedsServer(doc: vscode.TextDocument): string | undefined {
  const name = doc.uri.path.split('/').pop() ?? '';
  if (OUR_LANGUAGES.includes(doc.languageId)) return `${name} is open as ${doc.languageId}`;
  if (name === RUN_CONFIG_FILE) return `${name} is open`;
  return undefined;
}

function tabNeedsServer(tab: vscode.Tab): string | undefined {
  if (tab.input instanceof vscode.TabInputCustom && tab.input.viewType === CSF_VIEW_TYPE)
    return `${tab.input.uri.path.split('/').pop()} is open in the .csfbin viewer`;
  return undefined;
}

export class LazyServer implements vscode.Disposable {
  private starting?: Promise<void>;
  /** What started the server (the log says it; tests read it); undefined while it has not started. */
  startedBecause?: string;
  private readonly subs: vscode.Disposable[] = [];
  private readonly startedEmitter = new vscode.EventEmitter<string>();
  /** Fires once, when the server is asked to start (with the reason). */
  readonly onDidStart = this.startedEmitter.event;

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly health: ServerHealth,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get started(): boolean {
    return this.starting !== undefined;
  }

  /** Starts the server unless it was started already; resolves when it has answered `initialize`. */
  start(reason: string): Promise<void> {
    if (!this.starting) {
      this.startedBecause = reason;
      this.log.info(`[server] starting the language server: ${reason}`);
      this.starting = this.client.start();
      this.startedEmitter.fire(reason);
    }
    return this.starting;
  }

  /** *Restart Language Server*: a start when it never started, else a restart with a fresh crash allowance. */
  restart(): Promise<void> {
    if (!this.starting) return this.start('Restart Language Server');
    this.starting = this.health.restart(this.client);
    return this.starting;
  }

  /** Starts the server as soon as a document or tab that needs it is open (those open now included). */
  watch(): void {
    const consider = (why: string | undefined) => {
      if (why && !this.starting) void this.start(why).catch(() => undefined); // a failed start is reported by ServerHealth
    };
    this.subs.push(
      vscode.workspace.onDidOpenTextDocument((d) => consider(documentNeedsServer(d))),
      vscode.window.tabGroups.onDidChangeTabs((e) => e.opened.forEach((t) => consider(tabNeedsServer(t)))),
    );
    for (const d of vscode.workspace.textDocuments) consider(documentNeedsServer(d));
    for (const t of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) consider(tabNeedsServer(t));
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.startedEmitter.dispose();
  }
}
