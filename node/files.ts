/**
 * The one way Node code (CLI, the run host of the server's worker and the debugger) reads and writes
 * user files. A read opens the path, then looks at what it opened (fstat on the descriptor, so nothing
 * can change between the check and the read) and accepts regular files only, up to a size limit: a
 * device (`/dev/zero`), a FIFO or a directory is refused with a message naming it, never read without
 * end. A write failure is a `FileError` with a message naming the file and why, never a stack trace.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, writeFileSync, type Stats } from 'node:fs';

/** The largest file read by default (256 MiB). */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** A file that cannot be read or written; the message names the file. */
export class FileError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** What a non-regular file is, for messages: `a directory`, `a character device`, … */
export function kindOf(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** What `path` is (following links), or undefined when it does not exist. */
export function pathKind(path: string): string | undefined {
  try {
    return kindOf(statSync(path));
  } catch {
    return undefined;
  }
}

function sizeText(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    default:
      return (e as Error)?.message ?? String(e);
  }
}

/** Opens `path` for reading and checks what it opened: a regular file of at most `maxBytes`. Returns the descriptor. */
function openRegular(path: string, maxBytes: number): number {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer does not wait (it is refused below as a FIFO)
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new FileError(`cannot read ${path}: ${reason(e)}`, path);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileError(`cannot read ${path}: it is ${kindOf(st)}, not a regular file`, path);
    if (st.size > maxBytes) throw new FileError(`cannot read ${path}: ${st.size} bytes, more than the limit of ${sizeText(maxBytes)}`, path);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/**
 * Reads the regular file `path` in chunks of at most `chunk` bytes (the buffer is reused), at most
 * `maxBytes` in all. Throws FileError when it cannot be opened, is not a regular file or is larger than the limit.
 */
export function readFileChunks(path: string, onChunk: (bytes: Uint8Array) => void, maxBytes = MAX_FILE_BYTES, chunk = 1 << 20): void {
  withRegular(path, maxBytes, (fd) => {
    const buf = new Uint8Array(chunk);
    let total = 0;
    for (;;) {
      const k = readSync(fd, buf, 0, chunk, null);
      if (k === 0) break;
      total += k;
      // a file that grew meanwhile
      if (total > maxBytes) throw new FileError(`cannot read ${path}: more than the limit of ${sizeText(maxBytes)}`, path);
      onChunk(buf.subarray(0, k));
    }
  });
}

/** Runs `body` on the descriptor of the regular file `path` (see `openRegular`), closes it; an I/O error becomes a FileError. */
function withRegular<T>(path: string, maxBytes: number, body: (fd: number) => T): T {
  const fd = openRegular(path, maxBytes);
  try {
    return body(fd);
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError(`cannot read ${path}: ${reason(e)}`, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of the regular file `path`, at most `maxBytes` (default 256 MiB). Throws FileError when it
 * cannot be opened, is not a regular file or is larger than the limit.
 */
export function readFileBytes(path: string, maxBytes = MAX_FILE_BYTES): Uint8Array {
  return withRegular(path, maxBytes, (fd) => {
    // read what is there, up to one byte past the limit (a file that grew meanwhile is refused too)
    const buf = new Uint8Array(Math.min(fstatSync(fd).size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      const k = readSync(fd, buf, n, buf.length - n, null);
      if (k === 0 || (n += k) === buf.length) break;
    }
    if (n > maxBytes) throw new FileError(`cannot read ${path}: more than the limit of ${sizeText(maxBytes)}`, path);
    return buf.subarray(0, n);
  });
}

/** The UTF-8 text of the regular file `path` (see `readFileBytes`). */
export function readFileText(path: string, maxBytes = MAX_FILE_BYTES): string {
  return Buffer.from(readFileBytes(path, maxBytes)).toString('utf8');
}

/** Writes `bytes` to `path`; throws FileError naming the file and the reason. */
export function writeFileBytes(path: string, bytes: Uint8Array): void {
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    throw new FileError(`cannot write ${path}: ${reason(e)}`, path);
  }
}

/** The real path of `path` (links resolved), or the path itself when it does not exist. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
