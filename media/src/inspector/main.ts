/** Entry of the memory inspector webview (bundled to dist/media/inspector.js). */
import { Rpc, droppedMessages, vscodeApi } from '../common/rpc';
import { Inspector, type InspectorState } from './inspector';

performance.mark('tl-start');
const api = vscodeApi<InspectorState>();
const rpc = new Rpc(api);
const app = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
app.classList.add('tl-app');
const inspector = new Inspector(app, rpc, api);
/** For tests and the bench (read-only use). */
(globalThis as any).tensorLens = { inspector, rpc, dropped: droppedMessages };
inspector.start().catch((e) => {
  const msg = e instanceof Error ? e.message : String(e);
  console.error('[tensor-lens] inspector failed to start:', msg);
  const p = document.createElement('p');
  p.className = 'tl-status tl-warn';
  p.textContent = `The memory inspector could not start: ${msg}`;
  app.append(p);
});
