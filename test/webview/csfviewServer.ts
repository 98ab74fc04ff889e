/**
 * Test server of the `.csfbin` viewer: the webview test server (server.ts) with csfviewHarness.ts as the
 * extension's side; pages are `/csfview?file=…`, made by the real `csfViewHtml` (strict CSP with a nonce).
 */
import { startServer, type WebviewServer } from './server';

export type CsfViewServer = WebviewServer;

export function startCsfViewServer(): Promise<CsfViewServer> {
  return startServer({ harness: 'test/webview/csfviewHarness.ts' });
}
