/**
 * HTML of the Tensor Lens webviews. The extension calls these with `webview.asWebviewUri` URIs,
 * `webview.cspSource` and a fresh nonce; the page then loads nothing but the one script and style
 * sheet (strict CSP: no inline script or style, no remote content, no network).
 */

export interface WebviewHtmlOptions {
  /** URI of the bundled script (dist/media/inspector.js or layoutmap.js) as the webview sees it. */
  scriptUri: string;
  /** URI of the bundled style sheet (dist/media/inspector.css or layoutmap.css). */
  styleUri: string;
  /** Nonce for the script tag; new for every page. */
  nonce: string;
  /** `webview.cspSource`. */
  cspSource: string;
  title?: string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A nonce of 32 base64url characters from a cryptographic source. */
export function makeNonce(): string {
  const b = new Uint8Array(24);
  globalThis.crypto.getRandomValues(b);
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_');
}

/** The Content-Security-Policy both pages use. */
export function webviewCsp(o: Pick<WebviewHtmlOptions, 'nonce' | 'cspSource'>): string {
  if (!/^[\w+/=-]+$/.test(o.nonce)) throw new Error('nonce must be base64 text');
  // `webview.cspSource` may hold several sources (e.g. `'self' https://*.vscode-cdn.net`): keep each
  // well-formed token (quoted keywords or scheme/host sources), drop anything that could break out.
  const src =
    o.cspSource
      .split(/\s+/)
      .filter((t) => /^'(self|none)'$/.test(t) || /^[a-z][a-z0-9+.-]*:(\/\/)?[\w*.:/-]*$/i.test(t))
      .join(' ') || "'none'";
  return [
    `default-src 'none'`,
    `img-src ${src}`,
    `style-src ${src}`,
    `font-src ${src}`,
    `script-src 'nonce-${o.nonce}'`,
    `connect-src 'none'`,
    `frame-src 'none'`,
    `worker-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

function page(kind: 'inspector' | 'layoutMap' | 'csfbin', o: WebviewHtmlOptions, defaultTitle: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(webviewCsp(o))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title ?? defaultTitle)}</title>
<link rel="stylesheet" href="${esc(o.styleUri)}">
</head>
<body data-view="${kind}">
<div id="app" class="tl-app" aria-busy="true"></div>
<noscript>This view needs JavaScript.</noscript>
<script nonce="${esc(o.nonce)}" src="${esc(o.scriptUri)}"></script>
</body>
</html>
`;
}

/** The memory inspector page. */
export function inspectorHtml(o: WebviewHtmlOptions): string {
  return page('inspector', o, 'Memory Inspector');
}

/** The layout map page. */
export function layoutMapHtml(o: WebviewHtmlOptions): string {
  return page('layoutMap', o, 'Layout Map');
}

/** The `.csfbin` viewer page (custom editor `tensorLens.csfbin`). */
export function csfViewHtml(o: WebviewHtmlOptions): string {
  return page('csfbin', o, '.csfbin viewer');
}
