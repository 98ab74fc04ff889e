/**
 * The webview end of the protocol: typed requests with ids, notifications both ways, and validation
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
  method: RequestMethod;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** Messages the page dropped, newest last (also on `console.warn`); tests read it. */
export const droppedMessages: string[] = [];

export class Rpc {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly listeners: ((n: HostNotification) => void)[] = [];

  constructor(
    private readonly api: VsCodeApi,
    private readonly timeoutMs = 30000,
  ) {
    window.addEventListener('message', (ev: MessageEvent) => this.receive(ev.data));
  }

  onNotification(f: (n: HostNotification) => void): void {
    this.listeners.push(f);
  }

  request<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const p: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      if (this.timeoutMs > 0)
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RequestError(`${method}: no answer after ${this.timeoutMs} ms`));
        }, this.timeoutMs);
      this.pending.set(id, p);
      this.api.postMessage({ type: 'request', id, method, params });
    });
  }

  notify<M extends WebviewNotifyMethod>(method: M, params: WebviewNotifyParams<M>): void {
    this.api.postMessage({ type: 'notify', method, params });
  }

  /** Requests still waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  private receive(data: unknown): void {
    const why = explainHostMessage(data, (id) => this.pending.get(id)?.method);
    if (why) {
      this.drop(why);
      // a response that names a pending request but is malformed must not leave it hanging
      const d = data as { type?: unknown; id?: unknown };
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
    const m = data as import('../../../core/protocol/webview').HostToWebview;
    if (m.type === 'response') {
      const p = this.pending.get(m.id)!;
      this.pending.delete(m.id);
      if (p.timer) clearTimeout(p.timer);
      if (m.ok) p.resolve(m.result);
      else p.reject(new RequestError(m.error));
      return;
    }
    for (const f of this.listeners) {
      try {
        f(m);
      } catch (e) {
        console.error('[tensor-lens] notification handler failed', e);
      }
    }
  }

  private drop(why: string): void {
    const text = `ignored malformed message: ${why}`;
    droppedMessages.push(text);
    if (droppedMessages.length > 100) droppedMessages.shift();
    console.warn(`[tensor-lens] ${text}`);
    try {
      this.api.postMessage({ type: 'notify', method: 'log', params: { level: 'warn', message: text.slice(0, 4000) } });
    } catch {
      /* nothing more to do */
    }
  }
}
