// Renders media/icon/icon.svg to the 128×128 media/icon/icon.png the manifest names (run after editing the SVG).
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
const svg = readFileSync('media/icon/icon.svg', 'utf8');
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const p = await b.newPage({ viewport: { width: 128, height: 128 } });
await p.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
await p.screenshot({ path: 'media/icon/icon.png', omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
await b.close();
