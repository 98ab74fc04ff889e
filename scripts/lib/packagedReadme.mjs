// The README as the packaged extension carries it. VS Code shows an extension's README on its details
// page in a webview that never resolves a relative path (no base; its sanitizer drops relative links and
// image sources) and whose Content-Security-Policy takes images from https: and data: only. The project has
// no public repository to point https: links at (vsce's --baseImagesUrl), so each image the README shows
// goes in as a data: URI of the same bytes: VS Code versions whose sanitizer keeps data: images show them
// (VS Code 1.139's keeps only http(s) sources and shows the caption), and so does any Markdown viewer of the
// installed extension's readme.md. Every other link must already be absolute (https:, mailto:) or an anchor.
import { extname } from 'node:path';

const MIME = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

/** Markdown links and images `[text](target)` / `![alt](target)` of `text` (code spans and fences left out). */
export function markdownLinks(text) {
  const out = [];
  const lines = text.split('\n');
  let fence = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) return;
    const bare = line.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
    for (const m of bare.matchAll(/(!?)\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      out.push({ image: m[1] === '!', target: m[2], line: i + 1, column: m.index + 1, start: m.index, end: m.index + m[0].length });
    for (const m of bare.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)) out.push({ image: true, target: m[1], line: i + 1, column: m.index + 1, html: true });
  });
  return out;
}

const isAbsolute = (t) => /^[a-z][a-z0-9+.-]*:/i.test(t);

/**
 * The packaged README of `text`: relative images become data: URIs read with `read(relPath)` (a Buffer,
 * undefined when missing). Returns `{ text, images: [{ path, bytes }] }`, or throws an Error listing
 * every link the details page could not show, each at README.md:line:column.
 */
export function packagedReadme(text, read) {
  const problems = [];
  const images = [];
  const lines = text.split('\n');
  const links = markdownLinks(text);
  // rewrite from the end of each line so earlier offsets stay valid
  for (const l of [...links].reverse()) {
    const at = `README.md:${l.line}:${l.column}`;
    if (l.target.startsWith('#') || /^(https|mailto):/i.test(l.target)) continue;
    if (isAbsolute(l.target) && !/^data:/i.test(l.target)) {
      problems.push(`${at}: ${l.target}: only https: and mailto: links open from the extension's details page`);
      continue;
    }
    if (/^data:/i.test(l.target)) continue;
    if (!l.image) {
      problems.push(`${at}: ${l.target}: a relative link does not open from the extension's details page (write the path as code, or link https:)`);
      continue;
    }
    if (l.html) {
      problems.push(`${at}: ${l.target}: write the image as ![alt](path), which the packager inlines`);
      continue;
    }
    const path = decodeURI(l.target).replace(/^\.\//, '');
    const mime = MIME[extname(path).toLowerCase()];
    const bytes = mime && !path.split('/').includes('..') ? read(path) : undefined;
    if (!mime) problems.push(`${at}: ${l.target}: not an image the details page shows (png, jpg, gif, webp)`);
    else if (!bytes) problems.push(`${at}: ${l.target}: no such file`);
    if (!bytes || !mime) continue;
    images.unshift({ path, bytes });
    const line = lines[l.line - 1];
    const link = line.slice(l.start, l.end);
    lines[l.line - 1] = line.slice(0, l.start) + link.replace(l.target, `data:${mime};base64,${bytes.toString('base64')}`) + line.slice(l.end);
  }
  if (problems.length) throw new Error(`README.md cannot be shown as written in the extension's details page:\n  ${problems.join('\n  ')}`);
  return { text: lines.join('\n'), images };
}
