/**
 * Browser harness of the `.csfbin` viewer: plays the extension's side with the real `CsfView` (over the
 * fixture's bytes) and `CsfViewHost`, and records everything for the tests in `window.harness`.
 * "Show in accelerator memory" loads the file with the real `loadCsfAt` + `createCsfSource` at the bases
 * given by the URL (`mainBase`, `metaBase`) and records what the inspector would be opened on.
 *
 * URL parameters: `file=<fixture>` (csfviewFixtures.ts), `mainBase`, `metaBase`, `chunk=<bytes>` (validation chunk).
 */
import { CsfView, bytesSource } from '../../core/csf/view';
import { CsfViewHost } from '../../core/csf/viewHost';
import { CSF_MAIN_SPACE, CSF_META_SPACE, createCsfSource, loadCsfAt } from '../../core/inspect/csfSource';
import type { CsfHostToWebview } from '../../core/protocol/webview';
import { FIXTURES, type FixtureName } from './csfviewFixtures';

const params = new URLSearchParams(location.search);
const name = (params.get('file') ?? 'a') as FixtureName;
if (!(name in FIXTURES)) throw new Error(`unknown fixture ${name}`);
const bytes = FIXTURES[name]();

interface Shown {
  title: string;
  spaces: { id: string; bytes: number; unitBytes: number }[];
  metaWords: number[];
  mainBytes: number[];
  initial: unknown;
}

const harness = {
  sent: [] as unknown[],
  received: [] as CsfHostToWebview[],
  log: [] as string[],
  shown: [] as Shown[],
  host: undefined as unknown as CsfViewHost,
  size: bytes.byteLength,
  /** Posts a raw message to the webview as the extension would (tests use it for malformed messages). */
  post(msg: unknown) {
    window.postMessage(msg, '*');
  },
  /** Feeds a raw message to the host as if the webview had sent it. */
  async fromWebview(msg: unknown) {
    await harness.host.handle(msg);
  },
};
(window as any).harness = harness;

const ready = (async () => {
  const view = await CsfView.open(bytesSource(bytes));
  const deliver = (m: CsfHostToWebview) => {
    harness.received.push(m);
    window.postMessage(m, '*');
  };
  harness.host = new CsfViewHost(view, deliver, {
    title: `${name}.csfbin`,
    chunkBytes: Number(params.get('chunk') ?? 1 << 20),
    log: (level, message) => void harness.log.push(`${level}: ${message}`),
    showInMemory: async () => {
      const r = loadCsfAt(bytes, { name: `${name}.csfbin`, mainBase: Number(params.get('mainBase') ?? 0), metaBase: Number(params.get('metaBase') ?? 0) });
      if (!r.ok) return { ok: false, message: r.issues[0].message };
      const src = createCsfSource(r.mem, { title: `Accelerator memory: ${name}.csfbin` });
      const meta = await src.read(CSF_META_SPACE, 0, 1 << 20, -1);
      const main = await src.read(CSF_MAIN_SPACE, 0, 1 << 20, -1);
      harness.shown.push({
        title: src.title ?? '',
        spaces: src.spaces().map((s) => ({ id: s.id, bytes: s.bytes, unitBytes: s.unitBytes })),
        metaWords: [...new Uint32Array(meta.slice().buffer)],
        mainBytes: [...main],
        initial: src.initial?.(),
      });
      return { ok: true, message: `Loaded: tensor pointer ${r.tensor.t}, entries at ${r.tensor.mainBase}..${r.tensor.mainEnd - 1}` };
    },
  });
})();

(window as any).acquireVsCodeApi = () => ({
  postMessage(msg: unknown) {
    harness.sent.push(msg);
    const copy = structuredClone(msg);
    void ready.then(() => harness.host.handle(copy));
  },
  // the webview's saved state survives a reload of the page, as VS Code keeps it when a hidden webview comes back
  getState: () => JSON.parse(sessionStorage.getItem('tl-csf-state') ?? 'null') ?? undefined,
  setState: (st: unknown) => sessionStorage.setItem('tl-csf-state', JSON.stringify(st ?? null)),
});
