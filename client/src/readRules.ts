/**
 * The rules under which the extension reads a file for the language server (`tensorLens/readFile`, fsForward.ts), on any file
 * system that can stat and read a URI (`vscode.workspace.fs`; the unit tests give their own). They are the Node server's rules
 * on disk (server/src/node.ts, fileAccess.ts): a regular file of at most READ_FILE_MAX_BYTES; with `roots` (a layout spec's
 * `.csfbin`), a file under one of them, reached through no symbolic link below the root — this file system tells a link but
 * not where it leads (the layout map's rule, csfLoader.ts firstLinkBelowRoot). No `vscode` import.
 */
import { toBase64 } from '../../core/common/base64';
import { firstLinkBelowRoot } from '../../core/layout/csfLoader';
import { isInside } from '../../core/project/fileSystem';
import { READ_FILE_MAX_BYTES, type ReadFileParams, type ReadFileResult } from '../../core/protocol/lspExt';

/** `vscode.FileType` bits (a stable API's values). */
export const FILE_TYPE = { File: 1, Directory: 2, SymbolicLink: 64 } as const;

/** A file system addressed by URI strings; both throw for a missing file. */
export interface UriFs {
  stat(uri: string): Promise<{ type: number; size: number }>;
  readFile(uri: string): Promise<Uint8Array>;
}

interface Parsed {
  scheme: string;
  authority: string;
  path: string;
}

function parse(uri: unknown): Parsed | undefined {
  const m = typeof uri === 'string' ? /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)$/.exec(uri) : null;
  if (!m) return undefined;
  try {
    return { scheme: m[1].toLowerCase(), authority: m[2] ?? '', path: decodeURIComponent(m[3]) || '/' };
  } catch {
    return undefined;
  }
}

const format = (u: Parsed, path: string) =>
  `${u.scheme}:${u.authority || u.scheme === 'file' ? `//${u.authority}` : ''}${path.split('/').map(encodeURIComponent).join('/')}`;

/** One read for the server; never throws (a malformed request is refused). */
export async function readUnderRules(p: ReadFileParams, fs: UriFs): Promise<ReadFileResult> {
  const uri = parse(p?.uri);
  const roots = Array.isArray(p?.roots) ? p.roots.map(parse) : undefined;
  if (!uri || (p.as !== 'text' && p.as !== 'bytes') || roots?.some((r) => !r)) return { kind: 'refused', reason: 'malformed tensorLens/readFile request' };
  if (roots) {
    const under = (roots as Parsed[]).filter((r) => r.scheme === uri.scheme && r.authority === uri.authority && isInside(uri.path, r.path));
    if (!under.length) return { kind: 'refused', reason: 'outside the workspace' };
    const isLink = async (path: string) => {
      try {
        return ((await fs.stat(format(uri, path))).type & FILE_TYPE.SymbolicLink) !== 0;
      } catch {
        return false;
      }
    };
    const link = await firstLinkBelowRoot(
      uri.path,
      under.map((r) => r.path),
      isLink,
    );
    if (link) return { kind: 'refused', reason: `${link === uri.path ? 'a symbolic link' : `${link} is a symbolic link`}, which is not followed here` };
  }
  const at = format(uri, uri.path);
  let stat: { type: number; size: number };
  try {
    stat = await fs.stat(at);
  } catch {
    return { kind: 'missing' };
  }
  // devices and FIFOs (type Unknown) would block or never end; folders are not files
  if (!(stat.type & FILE_TYPE.File)) return { kind: 'refused', reason: stat.type & FILE_TYPE.Directory ? 'a folder, not a file' : 'not a regular file' };
  if (stat.size > READ_FILE_MAX_BYTES) return { kind: 'refused', reason: `larger than ${READ_FILE_MAX_BYTES} bytes` };
  let data: Uint8Array;
  try {
    data = await fs.readFile(at);
  } catch {
    return { kind: 'missing' };
  }
  // it may have grown between stat and read
  if (data.length > READ_FILE_MAX_BYTES) return { kind: 'refused', reason: `larger than ${READ_FILE_MAX_BYTES} bytes` };
  return p.as === 'text' ? { kind: 'text', text: new TextDecoder().decode(data) } : { kind: 'bytes', base64: toBase64(data) };
}
