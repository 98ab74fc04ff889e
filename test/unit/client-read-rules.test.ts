/**
 * client/src/readRules.ts: what the extension reads for the language server (tensorLens/readFile) and what it refuses — the
 * Node server's rules on disk (regular files, READ_FILE_MAX_BYTES; with roots, under one and through no symbolic link below it).
 * A fake file system addressed by URI, whose readFile fails the test when the rules should have refused before reading.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FILE_TYPE, readUnderRules, type UriFs } from '../../client/src/readRules';
import { READ_FILE_MAX_BYTES, type ReadFileParams } from '../../core/protocol/lspExt';

const { File, Directory, SymbolicLink } = FILE_TYPE;
const H = 'vscode-test-web://mount';

interface Node {
  type: number;
  size?: number;
  data?: Uint8Array;
}

function fakeFs(nodes: Record<string, Node>): UriFs & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    stat: async (uri) => {
      const n = nodes[uri];
      if (!n) throw new Error(`ENOENT ${uri}`);
      return { type: n.type, size: n.size ?? n.data?.length ?? 0 };
    },
    readFile: async (uri) => {
      reads.push(uri);
      const n = nodes[uri];
      if (!n?.data) throw new Error(`readFile(${uri}) must not be called`);
      return n.data;
    },
  };
}

const text = (s: string) => new TextEncoder().encode(s);
const read = (fs: UriFs, uri: string, as: ReadFileParams['as'] = 'text', roots?: string[]) => readUnderRules({ uri, as, roots }, fs);

describe('client read rules (tensorLens/readFile)', () => {
  const fs = fakeFs({
    [`${H}/ws`]: { type: Directory },
    [`${H}/ws/k.p`]: { type: File, data: text('vint16 k::_A;\n') },
    [`${H}/ws/a%20b.h`]: { type: File, data: text('#define N 4\n') },
    [`${H}/ws/A.csfbin`]: { type: File, data: new Uint8Array([0, 1, 2, 255]) },
    [`${H}/ws/dir.p`]: { type: Directory },
    [`${H}/ws/fifo.p`]: { type: 0, size: 0 },
    [`${H}/ws/huge.p`]: { type: File, size: READ_FILE_MAX_BYTES + 1 },
    [`${H}/ws/cap.p`]: { type: File, size: READ_FILE_MAX_BYTES, data: text('x') },
    [`${H}/ws/sub`]: { type: Directory | SymbolicLink },
    [`${H}/ws/sub/B.csfbin`]: { type: File, data: new Uint8Array([7]) },
    [`${H}/ws/link.csfbin`]: { type: File | SymbolicLink, data: new Uint8Array([7]) },
    [`${H}/secret/x.csfbin`]: { type: File, data: new Uint8Array([9]) },
    [`${H}/linkroot`]: { type: Directory | SymbolicLink },
    [`${H}/linkroot/C.csfbin`]: { type: File, data: new Uint8Array([5, 6]) },
  });

  it('reads a regular file as text or as base64 bytes; a missing one is missing', async () => {
    assert.deepEqual(await read(fs, `${H}/ws/k.p`), { kind: 'text', text: 'vint16 k::_A;\n' });
    assert.deepEqual(await read(fs, `${H}/ws/a%20b.h`), { kind: 'text', text: '#define N 4\n' });
    // 00 01 02 ff → AAEC/w==
    assert.deepEqual(await read(fs, `${H}/ws/A.csfbin`, 'bytes'), { kind: 'bytes', base64: 'AAEC/w==' });
    assert.deepEqual(await read(fs, `${H}/ws/none.p`), { kind: 'missing' });
  });

  it('refuses folders, special files and files over 64 MiB without reading them', async () => {
    const before = fs.reads.length;
    assert.deepEqual(await read(fs, `${H}/ws/dir.p`), { kind: 'refused', reason: 'a folder, not a file' });
    assert.deepEqual(await read(fs, `${H}/ws/fifo.p`), { kind: 'refused', reason: 'not a regular file' });
    assert.deepEqual(await read(fs, `${H}/ws/huge.p`), { kind: 'refused', reason: 'larger than 67108864 bytes' });
    assert.deepEqual(fs.reads.slice(before), []);
    // exactly the limit is read
    assert.deepEqual(await read(fs, `${H}/ws/cap.p`), { kind: 'text', text: 'x' });
  });

  it('a file that grew past the limit between stat and read is refused', async () => {
    const grown = fakeFs({ [`${H}/g.p`]: { type: File, size: 10, data: new Uint8Array(READ_FILE_MAX_BYTES + 1) } });
    assert.deepEqual(await read(grown, `${H}/g.p`), { kind: 'refused', reason: 'larger than 67108864 bytes' });
  });

  it('with roots: only under one of them, on the same scheme and authority, `..` resolved first', async () => {
    const roots = [`${H}/ws`];
    assert.deepEqual(await read(fs, `${H}/ws/A.csfbin`, 'bytes', roots), { kind: 'bytes', base64: 'AAEC/w==' });
    const outside = { kind: 'refused', reason: 'outside the workspace' };
    assert.deepEqual(await read(fs, `${H}/secret/x.csfbin`, 'bytes', roots), outside);
    assert.deepEqual(await read(fs, `${H}/ws/../secret/x.csfbin`, 'bytes', roots), outside);
    assert.deepEqual(await read(fs, 'vscode-test-web://other/ws/A.csfbin', 'bytes', roots), outside);
    assert.deepEqual(await read(fs, `${H}/wsx/A.csfbin`, 'bytes', roots), outside);
  });

  it('with roots: a symbolic link between the root and the file is not followed; a root that is a link is', async () => {
    const roots = [`${H}/ws`];
    assert.deepEqual(await read(fs, `${H}/ws/sub/B.csfbin`, 'bytes', roots), {
      kind: 'refused',
      reason: '/ws/sub is a symbolic link, which is not followed here',
    });
    assert.deepEqual(await read(fs, `${H}/ws/link.csfbin`, 'bytes', roots), { kind: 'refused', reason: 'a symbolic link, which is not followed here' });
    assert.deepEqual(await read(fs, `${H}/linkroot/C.csfbin`, 'bytes', [`${H}/linkroot`]), { kind: 'bytes', base64: 'BQY=' });
    // without roots (a header, a .p) links are followed, as the Node server's reads follow them
    assert.deepEqual(await read(fs, `${H}/ws/link.csfbin`, 'bytes'), { kind: 'bytes', base64: 'Bw==' });
  });

  it('a malformed request is refused, never thrown', async () => {
    const malformed = { kind: 'refused', reason: 'malformed tensorLens/readFile request' };
    assert.deepEqual(await readUnderRules({ uri: 42 } as unknown as ReadFileParams, fs), malformed);
    assert.deepEqual(await readUnderRules({ uri: `${H}/ws/k.p`, as: 'json' } as unknown as ReadFileParams, fs), malformed);
    assert.deepEqual(await read(fs, 'no scheme here'), malformed);
    assert.deepEqual(await read(fs, `${H}/ws/%E0%A4%A.p`), malformed);
    assert.deepEqual(await read(fs, `${H}/ws/k.p`, 'text', ['not a uri']), malformed);
    assert.deepEqual(await readUnderRules(undefined as unknown as ReadFileParams, fs), malformed);
  });
});
