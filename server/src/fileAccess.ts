/**
 * The language server's reading of binary files on Node (`.csfbin` files a layout spec names): only
 * regular files up to a size, and, when the caller gives the folders it may read from, only a file
 * whose real path (symbolic links resolved) lies under one of them. A refusal is a FileAccessError
 * whose message can be shown; a file that is missing or cannot be read (a symbolic link loop) is
 * undefined.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { FileAccessError, isInside } from '../../core/project/fileSystem';
import { READ_FILE_MAX_BYTES } from '../../core/protocol/lspExt';

function realOrSame(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

export function readBinaryConfined(path: string, roots?: readonly string[], maxBytes = READ_FILE_MAX_BYTES): Uint8Array | undefined {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return undefined;
  }
  // the roots are real paths too (a workspace under a symbolic link, /tmp on macOS)
  if (roots && !roots.some((r) => isInside(real, realOrSame(r)) || isInside(real, r)))
    throw new FileAccessError('a symbolic link leading outside the workspace');
  let st;
  try {
    st = statSync(real);
  } catch {
    return undefined;
  }
  // devices, FIFOs and sockets would block or never end; folders are not files
  if (!st.isFile()) throw new FileAccessError(st.isDirectory() ? 'a folder, not a file' : 'not a regular file');
  if (st.size > maxBytes) throw new FileAccessError(`larger than ${maxBytes} bytes`);
  try {
    return new Uint8Array(readFileSync(real));
  } catch {
    return undefined;
  }
}
