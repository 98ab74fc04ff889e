/** Shared fixture of the webview tests: one server and one Chromium per file, a fresh page per test. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchChromium, startServer, type WebviewServer } from './server';

export interface Fixture {
  server: WebviewServer;
  browser: Browser;
}

export async function setUp(): Promise<Fixture> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await startServer();
  const browser = await launchChromium();
  return { server, browser };
}

export async function tearDown(f: Fixture | undefined): Promise<void> {
  await f?.browser.close();
  await f?.server.close();
}

export interface Opened {
  page: Page;
  /** console warnings/errors and page errors seen so far */
  problems: string[];
  warnings: string[];
  /** CSP violations reported by the page */
  csp: () => Promise<string[]>;
}

/** Opens a view page (`/inspector?…`, `/layoutmap?layout=…`) and waits until it has painted real data. */
export async function open(
  f: Fixture,
  path: string,
  opts: { width?: number; height?: number; wait?: 'inspector' | 'layoutmap' | 'none' } = {},
): Promise<Opened> {
  const page = await f.browser.newPage({ viewport: { width: opts.width ?? 1360, height: opts.height ?? 760 } });
  const problems: string[] = [];
  const warnings: string[] = [];
  page.on('console', (m) => {
    const t = m.text();
    if (m.type() === 'error' && !/favicon|status of 404/.test(t)) problems.push(`console.error: ${t}`);
    if (m.type() === 'warning') warnings.push(t);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(
    'window.__csp = []; document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));',
  );
  await page.goto(f.server.url + path);
  const wait = opts.wait ?? (path.startsWith('/layoutmap') ? 'layoutmap' : 'inspector');
  if (wait === 'inspector') await until(page, '!!(document.body.dataset.firstPaint && window.tensorLens.inspector.debugInfo().stepsLoaded)', 20000);
  if (wait === 'layoutmap') await until(page, 'Number(document.body.dataset.drawn) > 0', 20000);
  return { page, problems, warnings, csp: () => page.evaluate('window.__csp') as Promise<string[]> };
}

/**
 * Polls a JavaScript expression in the page until it is truthy. (Playwright's string predicates are
 * re-evaluated with eval inside the page, which the views' strict CSP forbids.)
 */
export async function until(page: Page, expr: string, timeout = 10000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(expr)) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${expr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits two frames and until every read is answered and the grid is complete. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await until(page, 'window.tensorLens.rpc.inFlight === 0 && document.body.dataset.complete !== "0"');
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

export interface RowText {
  addr: string;
  hex: string[];
  typed: string[];
  ascii: string;
  ov: string;
}

/** The visible rows' text, as a user sees it (split into cells). */
export async function rows(page: Page): Promise<RowText[]> {
  const raw = (await page.evaluate(
    `[...document.querySelectorAll('.tl-viewport .tl-row:not([hidden])')].map((r) => [...r.children].map((c) => c.textContent))`,
  )) as string[][];
  return raw.map(([addr, hex, typed, ascii, ov]) => ({ addr: addr.trim(), hex: hex.trim().split(/\s+/), typed: typed.trim().split(/\s+/), ascii, ov }));
}

export async function row(page: Page, addrHex: string): Promise<RowText> {
  const all = await rows(page);
  const r = all.find((x) => x.addr === addrHex);
  if (!r) throw new Error(`row ${addrHex} is not visible (visible: ${all[0]?.addr}…${all[all.length - 1]?.addr})`);
  return r;
}

export interface DecoInfo {
  cls: string;
  sec: string;
  lo: number;
  hi: number;
}

/** Decoration boxes of the last frame (changed, read, selection, overlays, cursor…). */
export async function decos(page: Page, cls?: string): Promise<DecoInfo[]> {
  const all = (await page.evaluate('window.tensorLens.inspector.decos.map((d) => ({ cls: d.cls, sec: d.sec, lo: d.lo, hi: d.hi }))')) as DecoInfo[];
  return cls ? all.filter((d) => d.cls === cls) : all;
}

export async function goTo(page: Page, text: string): Promise<void> {
  await page.fill('#tl-goto', text);
  await page.press('#tl-goto', 'Enter');
  await settle(page);
}

export async function shot(page: Page, name: string): Promise<string> {
  const p = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: p });
  return p;
}

export const hex2 = (n: number) => n.toString(16).padStart(2, '0');
