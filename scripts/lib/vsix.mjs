// Lists the entries of a .vsix (a zip) with their uncompressed sizes, read with yauzl.
import yauzl from 'yauzl';
import { readFileSync } from 'node:fs';

/** Entries `{name, size}` of the zip at `path`. */
export function listVsixAsync(path) {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(readFileSync(path), { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out = [];
      zip.on('entry', (e) => {
        out.push({ name: e.fileName, size: e.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
