/**
 * The viewer's end of the `.csfbin` viewer protocol: typed requests with ids, the validation
 * notification, and validation of everything that arrives (malformed messages are recorded in
 * `droppedMessages`, reported to the extension and never acted on).
 */
import {
  explainCsfHostMessage,
  type CsfHostNotification,
  type CsfHostToWebview,
  type CsfParamsOf,
  type CsfRequestMethod,
  type CsfResultOf,
} from '../../../core/protocol/webview';
import type { VsCodeApi } from '../common/rpc';

export class CsfRequestError extends Error {}

interface Pending {
  method: CsfRequestMethod;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** Messages the page dropped, newest last; tests read it. */
export const droppedMessages: string[] = [];

export class CsfRpc {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly listeners: ((n: CsfHostNotification) => void)[] = [];

  constructor(
    private readonly api: VsCodeApi,
    private readonly timeoutMs = 30000,
  ) {
    window.addEventListener('message', (ev: MessageEvent) => this.receive(ev.data));
  }

  onNotification(f: (n: CsfHostNotification) => void): void {
    this.listeners.push(f);
  }

  request<M extends CsfRequestMethod>(method: M, params: CsfParamsOf<M>): Promise<CsfResultOf<M>> {
    const id = this.nextId++;
    return new Promise<CsfResultOf<M>>((resolve, reject) => {
      const p: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      if (this.timeoutMs > 0)
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new CsfRequestError(`${method}: no answer after ${this.timeoutMs} ms`));
        }, this.timeoutMs);
      this.pending.set(id, p);
      this.api.postMessage({ type: 'request', id, method, params });
    });
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    this.api.postMessage({ type: 'notify', method: 'csf.log', params: { level, message: message.slice(0, 4000) } });
  }

  get inFlight(): number {
    return this.pending.size;
  }

  private receive(data: unknown): void {
    let why = explainCsfHostMessage(data, (id) => this.pending.get(id)?.method);
    const r = data as { type?: unknown; id?: unknown };
    if (!why && r.type === 'response' && !this.pending.has(r.id as number)) why = `response: no pending request ${r.id}`;
    if (why) {
      droppedMessages.push(`ignored malformed message: ${why}`);
      if (droppedMessages.length > 100) droppedMessages.shift();
      console.warn(`[tensor-lens] csfbin viewer ignored a malformed message: ${why}`);
      const d = data as { type?: unknown; id?: unknown };
      if (d && typeof d === 'object' && d.type === 'response' && typeof d.id === 'number') {
        const p = this.pending.get(d.id);
        if (p) {
          this.pending.delete(d.id);
          if (p.timer) clearTimeout(p.timer);
          p.reject(new CsfRequestError(`malformed answer to ${p.method}: ${why}`));
        }
      }
      try {
        this.log('warn', `ignored malformed message: ${why}`);
      } catch {
        /* nothing more to do */
      }
      return;
    }
    const m = data as CsfHostToWebview;
    if (m.type === 'response') {
      const p = this.pending.get(m.id)!;
      this.pending.delete(m.id);
      if (p.timer) clearTimeout(p.timer);
      if (m.ok) p.resolve(m.result);
      else p.reject(new CsfRequestError(m.error));
      return;
    }
    for (const f of this.listeners) {
      try {
        f(m);
      } catch (e) {
        console.error('[tensor-lens] csfbin notification handler failed', e);
      }
    }
  }
}
