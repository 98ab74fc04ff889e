/**
 * The viewer's end of the `.csfbin` viewer protocol (core/protocol/webview.ts): typed requests, the
 * validation notification; what arrives is validated by the shared page RPC (media/src/common/rpc.ts).
 */
import { explainCsfHostMessage, type CsfHostNotification, type CsfParamsOf, type CsfRequestMethod, type CsfResultOf } from '../../../core/protocol/webview';
import { PageRpc, type VsCodeApi } from '../common/rpc';

/** Messages the page dropped, newest last; tests read it. */
export const droppedMessages: string[] = [];

export class CsfRpc extends PageRpc<CsfHostNotification> {
  constructor(api: VsCodeApi, timeoutMs = 30000) {
    super(
      api,
      {
        explain: (d, m) => explainCsfHostMessage(d, m as (id: number) => CsfRequestMethod | undefined),
        logMessage: (level, message) => ({ type: 'notify', method: 'csf.log', params: { level, message } }),
        dropped: droppedMessages,
        name: 'csfbin viewer',
      },
      timeoutMs,
    );
  }

  request<M extends CsfRequestMethod>(method: M, params: CsfParamsOf<M>): Promise<CsfResultOf<M>> {
    return this.send(method, params) as Promise<CsfResultOf<M>>;
  }

  log(level: 'info' | 'warn' | 'error', message: string): void {
    this.api.postMessage({ type: 'notify', method: 'csf.log', params: { level, message: message.slice(0, 4000) } });
  }
}
