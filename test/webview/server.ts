/**
 * Test server for the webviews: builds the view bundles (scripts/build-webview.mjs) and the harness
 * into a temporary folder, and serves pages made by the real `inspectorHtml`/`layoutMapHtml` (strict
 * CSP with a nonce) with the harness script and a VS Code-like theme injected. Plus the Chromium launcher.
 */
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, extname, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { csfViewHtml, inspectorHtml, layoutMapHtml, makeNonce } from '../../media/src/html';

const root = resolve(__dirname, '../..');

export interface WebviewServer {
  url: string;
  dir: string;
  /** CSP violations and other problems the pages reported through /report. */
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
};

/** Builds into a fresh temporary folder (never dist/, which the main build wipes); `harness` is the test's side of the protocol. */
export async function buildForTests(production = false, harness = 'test/webview/harness.ts'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-webview-'));
  const { buildWebview } = await import(pathToFileURL(join(root, 'scripts/build-webview.mjs')).href);
  await buildWebview({ outdir: join(dir, 'media'), production });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, harness)],
    outfile: join(dir, 'harness.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome114'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return dir;
}

const PAGES: Record<string, { view: string; html: typeof inspectorHtml }> = {
  '/inspector': { view: 'inspector', html: inspectorHtml },
  '/layoutmap': { view: 'layoutmap', html: layoutMapHtml },
  '/csfview': { view: 'csfview', html: csfViewHtml },
};

export async function startServer(opts: { production?: boolean; harness?: string } = {}): Promise<WebviewServer> {
  const dir = await buildForTests(opts.production, opts.harness);
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const origin = `http://${req.headers.host}`;
    const page = PAGES[u.pathname];
    if (page) {
      const nonce = makeNonce();
      const view = page.view;
      let html = page.html({
        scriptUri: `${origin}/media/${view}.js`,
        styleUri: `${origin}/media/${view}.css`,
        nonce,
        cspSource: origin,
        title: 'Tensor Lens test',
      });
      html = html.replace('</head>', `<link rel="stylesheet" href="${origin}/theme.css">\n</head>`);
      html = html.replace(/<script nonce/, `<script nonce="${nonce}" src="${origin}/harness.js"></script>\n<script nonce`);
      if (u.searchParams.get('theme') === 'light') html = html.replace('<body ', '<body class="vscode-light" ');
      else html = html.replace('<body ', '<body class="vscode-dark" ');
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    let file: string | undefined;
    if (u.pathname === '/theme.css') file = join(root, 'test/webview/theme.css');
    else if (u.pathname === '/' || u.pathname === '/harness.html') file = join(root, 'test/webview/harness.html');
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
    dir,
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

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Debian Chromium through playwright-core (throws a clear message when it is missing). */
export async function launchChromium() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export const ARTIFACTS = join(root, 'test-artifacts/webview');
