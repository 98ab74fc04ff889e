/** Entry of the layout-map webview (bundled to dist/media/layoutmap.js). */
import { Rpc, droppedMessages, vscodeApi } from '../common/rpc';
import { LayoutMapView, type LayoutMapState } from './layoutmap';

performance.mark('tl-start');
const api = vscodeApi<LayoutMapState>();
const rpc = new Rpc(api);
const app = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
app.classList.add('tl-app');
const view = new LayoutMapView(app, rpc, api);
/** For tests and the bench (read-only use). */
(globalThis as any).tensorLens = { layoutMap: view, rpc, dropped: droppedMessages };
view.start().catch((e) => {
  const msg = e instanceof Error ? e.message : String(e);
  console.error('[tensor-lens] layout map failed to start:', msg);
  const p = document.createElement('p');
  p.className = 'tl-status tl-warn';
  p.textContent = `The layout map could not start: ${msg}`;
  app.append(p);
});
