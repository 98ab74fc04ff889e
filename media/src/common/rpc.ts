/**
 * The webview end of the protocols: typed requests with ids, notifications both ways, and validation
 * of everything that arrives (malformed messages are logged and ignored, never acted on).
 */
import {
  type HostNotification,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
  type WebviewNotifyMethod,
  type WebviewNotifyParams,
  explainHostMessage,
} from '../../../core/protocol/webview';

export interface VsCodeApi<State = unknown> {
  postMessage(msg: unknown): void;
  getState(): State | undefined;
  setState(s: State): void;
}

declare function acquireVsCodeApi<State = unknown>(): VsCodeApi<State>;

let api: VsCodeApi<any> | undefined;
/** The VS Code API (acquireVsCodeApi may be called once per page). */
export function vscodeApi<State>(): VsCodeApi<State> {
  if (!api) {
    api =
      typeof acquireVsCodeApi === 'function'
        ? acquireVsCodeApi<State>()
        : // opened outside VS Code: a no-op stand-in so the page still renders
          { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };
  }
  return api as VsCodeApi<State>;
}

export class RequestError extends Error {}

interface Pending {
  method: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** What one protocol contributes to the page's RPC: how to validate what arrives and how to log. */
export interface PageProtocol {
  /** Why a message from the extension is malformed (undefined when it is valid). */
  explain(data: unknown, methodOf: (id: number) => string | undefined): string | undefined;
  /** The notification that reports a dropped message to the extension. */
  logMessage(level: 'info' | 'warn' | 'error', message: string): unknown;
  /** Messages this page dropped, newest last (tests read it). */
  dropped: string[];
  /** Name in console messages. */
  name: string;
}

/**
 * The webview end of a protocol: requests with ids and timeouts, notifications from the extension, and
 * validation of everything that arrives (malformed messages are recorded, reported and never acted on;
 * a malformed answer to a pending request rejects it instead of leaving it hanging).
 */
export class PageRpc<N> {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly listeners: ((n: N) => void)[] = [];

  constructor(
    protected readonly api: VsCodeApi,
    private readonly protocol: PageProtocol,
    private readonly timeoutMs = 30000,
  ) {
    window.addEventListener('message', (ev: MessageEvent) => this.receive(ev.data));
  }

  onNotification(f: (n: N) => void): void {
    this.listeners.push(f);
  }

  protected send(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const p: Pending = { method, resolve, reject };
      if (this.timeoutMs > 0)
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RequestError(`${method}: no answer after ${this.timeoutMs} ms`));
        }, this.timeoutMs);
      this.pending.set(id, p);
      this.api.postMessage({ type: 'request', id, method, params });
    });
  }

  /** Requests still waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  private receive(data: unknown): void {
    const d = data as { type?: unknown; id?: unknown; ok?: unknown; result?: unknown; error?: unknown };
    const why = this.protocol.explain(data, (id) => this.pending.get(id)?.method);
    if (why) {
      this.drop(why);
      if (d && typeof d === 'object' && d.type === 'response' && typeof d.id === 'number') {
        const p = this.pending.get(d.id);
        if (p) {
          this.pending.delete(d.id);
          if (p.timer) clearTimeout(p.timer);
          p.reject(new RequestError(`malformed answer to ${p.method}: ${why}`));
        }
      }
      return;
    }
    if (d.type === 'response') {
      const p = this.pending.get(d.id as number)!;
      this.pending.delete(d.id as number);
      if (p.timer) clearTimeout(p.timer);
      if (d.ok) p.resolve(d.result);
      else p.reject(new RequestError(String(d.error)));
      return;
    }
    for (const f of this.listeners) {
      try {
        f(data as N);
      } catch (e) {
        console.error(`[tensor-lens] ${this.protocol.name} notification handler failed`, e);
      }
    }
  }

  private drop(why: string): void {
    const text = `ignored malformed message: ${why}`;
    const dropped = this.protocol.dropped;
    dropped.push(text);
    if (dropped.length > 100) dropped.shift();
    console.warn(`[tensor-lens] ${this.protocol.name}: ${text}`);
    try {
      this.api.postMessage(this.protocol.logMessage('warn', text.slice(0, 4000)));
    } catch {
      /* nothing more to do */
    }
  }
}

/** Messages the memory inspector / layout map page dropped, newest last (also on `console.warn`). */
export const droppedMessages: string[] = [];

/** The protocol of the memory inspector and the layout map (core/protocol/webview.ts). */
export class Rpc extends PageRpc<HostNotification> {
  constructor(api: VsCodeApi, timeoutMs = 30000) {
    super(
      api,
      {
        explain: (d, m) => explainHostMessage(d, m as (id: number) => RequestMethod | undefined),
        logMessage: (level, message) => ({ type: 'notify', method: 'log', params: { level, message } }),
        dropped: droppedMessages,
        name: 'webview',
      },
      timeoutMs,
    );
  }

  request<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    return this.send(method, params) as Promise<ResultOf<M>>;
  }

  notify<M extends WebviewNotifyMethod>(method: M, params: WebviewNotifyParams<M>): void {
    this.api.postMessage({ type: 'notify', method, params });
  }
}
