/** The webview page's Content-Security-Policy: every well-formed source of webview.cspSource, nothing injected. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewCsp } from '../../media/src/html';

test('several cspSource tokens are all kept', () => {
  const csp = webviewCsp({ nonce: 'abc123', cspSource: "'self' https://*.vscode-cdn.net" });
  assert.match(csp, /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.match(csp, /default-src 'none'/);
});

test('tokens that could inject directives are dropped', () => {
  const csp = webviewCsp({ nonce: 'n0', cspSource: "https://ok.example; script-src * 'unsafe-inline'" });
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.doesNotMatch(csp, /script-src \*/);
  assert.equal(csp.split(';').filter((d) => d.trim().startsWith('script-src')).length, 1);
});

test('a bad nonce is refused', () => {
  assert.throws(() => webviewCsp({ nonce: "x' 'unsafe-eval", cspSource: 'https://a' }));
});
