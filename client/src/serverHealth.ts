/**
 * Crash recovery of the language server: the client's `errorHandler` restarts a server that died and
 * says so (output line and notification); after too many crashes in a short time it stops restarting
 * and tells the user how to start it again (*Tensor Lens: Restart Language Server*).
 * `initializationFailedHandler` retries a failed `initialize` a couple of times, then gives up the same way.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  State,
  type BaseLanguageClient,
  type CloseHandlerResult,
  type ErrorHandler,
  type ErrorHandlerResult,
  type InitializationFailedHandler,
} from 'vscode-languageclient';
import { showOutputButton } from './log';

export const RESTART_COMMAND = 'tensorLens.restartServer';

export interface HealthEvent {
  kind: 'crashed' | 'restarted' | 'stopped' | 'init-failed';
  at: number;
  message: string;
}

export interface ServerHealthOptions {
  /** Automatic restarts allowed within `windowMs`; one more crash stops the server. Default 4. */
  maxRestarts?: number;
  /** Default 3 minutes. */
  windowMs?: number;
  /** Retries of a failed `initialize` before giving up. Default 2. */
  maxInitRetries?: number;
}

export class ServerHealth implements vscode.Disposable {
  /** What happened, oldest first (the integration suite reads it). */
  readonly events: HealthEvent[] = [];
  private crashes: number[] = [];
  private initFailures = 0;
  private restarting = false;
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly maxInitRetries: number;
  private sub?: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<HealthEvent>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly output: vscode.LogOutputChannel,
    o: ServerHealthOptions = {},
  ) {
    this.maxRestarts = o.maxRestarts ?? 4;
    this.windowMs = o.windowMs ?? 3 * 60_000;
    this.maxInitRetries = o.maxInitRetries ?? 2;
  }

  /** The client options that install the handlers. */
  clientOptions(): { errorHandler: ErrorHandler; initializationFailedHandler: InitializationFailedHandler } {
    return {
      errorHandler: { error: (e, _m, count) => this.connectionError(e, count), closed: () => this.closed() },
      initializationFailedHandler: (e) => this.initFailed(e),
    };
  }

  /** Watches the client's state to report when a restart after a crash is complete. */
  attach(client: BaseLanguageClient): void {
    this.sub = client.onDidChangeState((e) => {
      if (e.newState !== State.Running) return;
      this.initFailures = 0;
      if (!this.restarting) return;
      this.restarting = false;
      this.report('restarted', 'the Tensor Lens language server was restarted');
      const out = showOutputButton(this.output);
      void vscode.window
        .showWarningMessage(vscode.l10n.t('Tensor Lens: the language server stopped unexpectedly and was restarted.'), out.title)
        .then(out.then);
    });
  }

  /** *Restart Language Server*: a fresh crash allowance, and a start from any state (running, stopped, failed to start). */
  async restart(client: BaseLanguageClient): Promise<void> {
    this.crashes = [];
    this.initFailures = 0;
    this.restarting = false;
    if (client.isRunning()) await client.stop();
    await client.start();
  }

  dispose(): void {
    this.sub?.dispose();
    this.changed.dispose();
  }

  private report(kind: HealthEvent['kind'], message: string): HealthEvent {
    const ev = { kind, at: Date.now(), message };
    this.events.push(ev);
    if (kind === 'restarted') this.output.info(`[server] ${message}`);
    else this.output.error(`[server] ${message}`);
    this.changed.fire(ev);
    return ev;
  }

  private connectionError(e: Error, count: number | undefined): ErrorHandlerResult {
    // a few write/read errors can be transient; the close that follows a dead server goes to closed()
    if (count !== undefined && count <= 3) return { action: ErrorAction.Continue, handled: true };
    this.report('crashed', `the connection to the language server keeps failing (${e.message}); shutting it down`);
    return { action: ErrorAction.Shutdown, handled: true };
  }

  private closed(): CloseHandlerResult {
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    const n = this.crashes.length;
    const window = `${Math.round(this.windowMs / 60_000)} minutes`;
    if (n > this.maxRestarts) {
      // a fresh allowance once the user restarts it by hand
      this.crashes = [];
      this.restarting = false;
      this.giveUp(`the Tensor Lens language server crashed ${n} times in the last ${window} and was stopped`);
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    this.restarting = true;
    this.report('crashed', `the Tensor Lens language server stopped unexpectedly; restarting it (crash ${n} of at most ${this.maxRestarts} in ${window})`);
    return { action: CloseAction.Restart, handled: true };
  }

  private initFailed(e: unknown): boolean {
    this.initFailures++;
    const why = e instanceof Error ? e.message : String(e);
    if (this.initFailures <= this.maxInitRetries) {
      this.report(
        'init-failed',
        `the Tensor Lens language server failed to initialize (${why}); trying again (${this.initFailures} of ${this.maxInitRetries})`,
      );
      return true;
    }
    this.initFailures = 0;
    this.giveUp(`the Tensor Lens language server failed to initialize ${this.maxInitRetries + 1} times (${why}) and was stopped`);
    return false;
  }

  private giveUp(what: string): void {
    const restart = vscode.l10n.t('Restart Language Server');
    const message = vscode.l10n.t(
      '{0}. Diagnostics, hovers and runs are off until you run "Tensor Lens: {1}" (Command Palette or the status item).',
      what,
      restart,
    );
    this.report('stopped', message);
    const out = showOutputButton(this.output);
    void vscode.window.showErrorMessage(message.charAt(0).toUpperCase() + message.slice(1), restart, out.title).then((b) => {
      if (b === restart) void vscode.commands.executeCommand(RESTART_COMMAND);
      else out.then(b);
    });
  }
}
