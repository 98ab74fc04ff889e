/**
 * Positioned reads of a local file for the `.csfbin` viewer (Node extension host only). It reaches
 * Node's `fs` through `process.getBuiltinModule`, so the same bundle code runs in the browser build,
 * where this returns undefined and the caller falls back to reading the whole file. No `vscode` import
 * (the bench uses it too).
 */
import type { ByteSource } from '../../core/csf/view';

interface FileHandle {
  read(buf: Uint8Array, off: number, len: number, pos: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/** A ByteSource over the file at `path`, or undefined when Node's fs is not available here. */
export async function openNodeFileSource(path: string): Promise<ByteSource | undefined> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs =
    typeof proc?.getBuiltinModule === 'function'
      ? (proc.getBuiltinModule('fs') as { promises?: { open(p: string, flags: string): Promise<FileHandle> } } | undefined)
      : undefined;
  if (!fs?.promises) return undefined;
  const fh = await fs.promises.open(path, 'r');
  try {
    const { size } = await fh.stat();
    let closed = false;
    return {
      size,
      kind: 'positioned reads',
      read: async (offset, length) => {
        const n = Math.max(0, Math.min(length, size - offset));
        const buf = new Uint8Array(n);
        let got = 0;
        while (got < n) {
          const { bytesRead } = await fh.read(buf, got, n - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return got === n ? buf : buf.subarray(0, got);
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await fh.close();
      },
    };
  } catch (e) {
    await fh.close();
    throw e;
  }
}
