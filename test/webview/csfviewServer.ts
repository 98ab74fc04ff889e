/**
 * Test server of the `.csfbin` viewer: builds the webview bundles and csfviewHarness.ts into a temporary
 * folder and serves `/csfview?file=…` made by the real `csfViewHtml` (strict CSP with a nonce) with the
 * harness injected before the view's script.
 */
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { csfViewHtml, makeNonce } from '../../media/src/html';

const root = resolve(__dirname, '../..');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.html': 'text/html; charset=utf-8' };

export interface CsfViewServer {
  url: string;
  close(): Promise<void>;
}

export async function startCsfViewServer(): Promise<CsfViewServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-csfview-'));
  const { buildWebview } = await import(pathToFileURL(join(root, 'scripts/build-webview.mjs')).href);
  await buildWebview({ outdir: join(dir, 'media') });
  await esbuild.build({ absWorkingDir: root, entryPoints: [join(root, 'test/webview/csfviewHarness.ts')], outfile: join(dir, 'harness.js'), bundle: true, format: 'iife', platform: 'browser', target: ['chrome114'], sourcemap: 'inline', logLevel: 'warning' });
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const origin = `http://${req.headers.host}`;
    if (u.pathname === '/csfview') {
      const nonce = makeNonce();
      let html = csfViewHtml({ scriptUri: `${origin}/media/csfview.js`, styleUri: `${origin}/media/csfview.css`, nonce, cspSource: origin, title: 'csfview test' });
      html = html.replace('</head>', `<link rel="stylesheet" href="${origin}/theme.css">\n</head>`);
      html = html.replace(/<script nonce/, `<script nonce="${nonce}" src="${origin}/harness.js"></script>\n<script nonce`);
      html = html.replace('<body ', '<body class="vscode-dark" ');
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    let file: string | undefined;
    if (u.pathname === '/theme.css') file = join(root, 'test/webview/theme.css');
    else {
      const p = normalize(join(dir, u.pathname));
      if (p.startsWith(dir)) file = p;
    }
    if (!file || !existsSync(file)) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections?.();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          r();
        });
      }),
  };
}
