/** Entry of the `.csfbin` viewer webview (bundled to dist/media/csfview.js). */
import { vscodeApi } from '../common/rpc';
import { CsfRpc, droppedMessages } from './rpc';
import { CsfViewer, type CsfViewState } from './csfview';

const api = vscodeApi<CsfViewState>();
const rpc = new CsfRpc(api);
const app = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
app.classList.add('tl-app', 'csf-app');
const viewer = new CsfViewer(app, rpc, api);
/** For tests (read-only use). */
(globalThis as any).tensorLens = { viewer, rpc, dropped: droppedMessages };
viewer.start().catch((e) => {
  const msg = e instanceof Error ? e.message : String(e);
  console.error('[tensor-lens] csfbin viewer failed to start:', msg);
  const p = document.createElement('p');
  p.className = 'tl-status tl-warn';
  p.id = 'csf-fatal';
  p.textContent = `The .csfbin viewer could not start: ${msg}`;
  app.append(p);
});
