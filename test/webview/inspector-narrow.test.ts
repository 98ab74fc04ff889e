/**
 * The memory inspector at half an editor's width (600 px, a panel beside the program) and narrower: every
 * control of its toolbars is in view and can be clicked — none cut by the panel's edge, hidden by an ancestor that
 * clips, or covered by another element. Real Chromium over the harness (test/webview/harness.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, settle, setUp, shot, tearDown, type Fixture } from './util';

let f: Fixture | undefined;
before(async () => {
  f = await setUp();
});
after(async () => {
  await tearDown(f);
});

/** Controls (buttons, inputs, selects) that are not wholly in view and on top, with why. */
const UNREACHABLE = `(() => {
  const out = [];
  const W = window.innerWidth, H = window.innerHeight;
  for (const c of document.querySelectorAll('button, input, select')) {
    const b = c.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue; // not displayed (hidden on purpose)
    const name = (c.id || c.getAttribute('aria-label') || c.title || c.textContent || c.tagName).trim().slice(0, 40);
    if (b.left < -0.5 || b.top < -0.5 || b.right > W + 0.5 || b.bottom > H + 0.5) {
      out.push(name + ': outside the panel ' + JSON.stringify([Math.round(b.left), Math.round(b.right)]));
      continue;
    }
    // clipped by an ancestor whose overflow hides
    for (let p = c.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const r = p.getBoundingClientRect();
      const cut = b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5;
      if (cut) {
        out.push(name + ': clipped by ' + (p.className || p.tagName));
        break;
      }
    }
    // on top at its centre (a checkbox inside its label counts as itself)
    const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    if (at && at !== c && !c.contains(at) && !(at.contains(c) && at.tagName === 'LABEL')) out.push(name + ': covered by ' + (at.className || at.tagName));
  }
  return out;
})()`;

for (const width of [600, 480, 360, 300]) {
  test(`at ${width} px every control of the inspector's toolbars is in view, unclipped and on top`, async () => {
    const { page, problems } = await open(f!, '/inspector?state=fresh', { width });
    await settle(page);
    const n = (await page.evaluate(`document.querySelectorAll('.tl-toolbar button, .tl-toolbar input, .tl-toolbar select').length`)) as number;
    assert.ok(n >= 12, `the toolbar has its controls (${n})`);
    assert.deepEqual(await page.evaluate(UNREACHABLE), []);
    await shot(page, `inspector-${width}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
