/** What the webview panels put in their Content-Security-Policy (see media/src/html.ts). */
import type * as vscode from 'vscode';

/**
 * The source to allow in the CSP. `webview.cspSource` may hold several tokens (`'self' https://*.vscode-cdn.net`)
 * that `webviewCsp` cannot take (it strips quotes and spaces), so pass its one host token (else the
 * origin the bundles come from, when that is a valid CSP host).
 */
export function cspSourceFor(webview: vscode.Webview, resource?: string): string {
  const token = webview.cspSource.split(/\s+/).find((t) => t && !t.startsWith("'"));
  if (token) return token;
  try {
    const u = new URL(resource ?? '');
    if (/^https?:$/.test(u.protocol) && /^[\w.-]+(:\d+)?$/.test(u.host)) return u.origin;
  } catch {
    /* fall through */
  }
  return webview.cspSource;
}
