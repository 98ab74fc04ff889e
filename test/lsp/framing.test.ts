/**
 * The stdio transport never wedges on a malformed header (`Content-Length: abc`, a negative or huge
 * length, no length, a header that never ends): the server drops that message, says so on stderr and
 * answers the next one. Raw bytes to the built server (`dist/server/node.js --stdio`), and the framing
 * (server/src/stdioFraming.ts) fed byte by byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { SERVER_NODE_FLAGS } from '../../core/protocol/serverProcess';
import { contentLengthOf, LspFraming } from '../../server/src/stdioFraming';
import { requireServerBundle, ROOT, SERVER_JS } from './lspClient';

const frame = (o: object) => {
  const body = Buffer.from(JSON.stringify(o));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
};
const INIT = frame({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });

/** Sends `garbage` then initialize, shutdown and exit; resolves with what came back once the server exits (or fails after 10 s). */
function session(garbage: Buffer): Promise<{ out: string; err: string; code: number | null }> {
  requireServerBundle();
  const c = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_JS, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  c.stdout.on('data', (d) => {
    out += String(d);
    // once initialize is answered: shut down cleanly
    if (out.includes('"id":1') && !out.includes('"id":2')) c.stdin.write(frame({ jsonrpc: '2.0', id: 2, method: 'shutdown' }));
    if (out.includes('"id":2')) c.stdin.write(frame({ jsonrpc: '2.0', method: 'exit' }));
  });
  c.stderr.on('data', (d) => (err += String(d)));
  c.stdin.on('error', () => undefined);
  c.stdin.write(garbage);
  c.stdin.write(INIT);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      c.kill();
      reject(new Error(`no answer within 10 s (the connection wedged)\nstdout: ${out.slice(0, 300)}\nstderr: ${err.slice(0, 300)}`));
    }, 10_000);
    c.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ out, err, code });
    });
  });
}

const MALFORMED: [string, Buffer, RegExp][] = [
  ['Content-Length: abc', Buffer.from('Content-Length: abc\r\n\r\n'), /not a length \("abc"\)/],
  ['Content-Length: abc with a body', Buffer.from('Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":7,"method":"x"}'), /not a length/],
  ['a negative length', Buffer.from('Content-Length: -5\r\n\r\n'), /not a length \("-5"\)/],
  ['a huge length', Buffer.from('Content-Length: 99999999999\r\n\r\n'), /not a length/],
  ['a length past the limit', Buffer.from('Content-Length: 4000000000\r\n\r\n'), /larger than/],
  ['no Content-Length', Buffer.from('Content-Type: application/json\r\n\r\n{}'), /no Content-Length/],
  ['a header line without a name', Buffer.from('garbage\r\n\r\n'), /without a name/],
  ['two lengths', Buffer.from('Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}'), /twice/],
  ['a header that never ends', Buffer.from(`X-Pad: ${'a'.repeat(10_000)}`), /longer than/],
  ['garbage glued to the next header', Buffer.from('garbage'), /without a name|no Content-Length/],
  ['binary bytes', Buffer.from([0, 1, 2, 255, 254, 13, 10, 13, 10]), /malformed header/],
];

for (const [what, garbage, why] of MALFORMED)
  test(`stdio: ${what} is dropped with a line on stderr, the next message is answered`, { timeout: 20_000 }, async () => {
    const r = await session(garbage);
    assert.match(r.out, /"id":1,"result":\{"capabilities"/);
    assert.match(r.err, /LSP input: dropped a message with a malformed header/);
    assert.match(r.err, why);
    assert.equal(r.code, 0, r.err);
  });

test('stdio: a well-formed session writes nothing on stderr', { timeout: 20_000 }, async () => {
  const r = await session(Buffer.alloc(0));
  assert.match(r.out, /"id":1,"result"/);
  assert.equal(r.err, '');
  assert.equal(r.code, 0);
});

test('contentLengthOf: the header rules', () => {
  assert.equal(contentLengthOf('Content-Length: 12'), 12);
  assert.equal(contentLengthOf('content-length:0\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8'), 0);
  assert.match(String(contentLengthOf('Content-Length: 1e3')), /not a length/);
  assert.match(String(contentLengthOf('Content-Length: 0x10')), /not a length/);
  assert.match(String(contentLengthOf('Content-Length: ')), /not a length/);
  assert.match(String(contentLengthOf('Content-Length: 11', 10)), /larger than 10/);
});

test('LspFraming: valid messages pass unchanged whatever the chunking; malformed ones are dropped in between', () => {
  const a = frame({ jsonrpc: '2.0', id: 1, method: 'a', params: { text: 'Content-Length: 3 inside a string' } });
  const b = frame({ jsonrpc: '2.0', id: 2, method: 'b', params: { text: 'é'.repeat(100) } });
  const input = Buffer.concat([a, Buffer.from('Content-Length: abc\r\n\r\n{"id":9}'), b, Buffer.from('Content-Length: -1\r\n\r\n'), a]);
  for (const size of [1, 2, 3, 7, 64, input.length]) {
    const problems: string[] = [];
    const f = new LspFraming((w) => problems.push(w));
    const out: Buffer[] = [];
    f.on('data', (d: Buffer) => out.push(d));
    for (let i = 0; i < input.length; i += size) f.write(input.subarray(i, i + size));
    f.end();
    assert.deepEqual(Buffer.concat(out), Buffer.concat([a, b, a]), `chunks of ${size}`);
    assert.equal(problems.length, 2, `chunks of ${size}: ${problems.join('; ')}`);
  }
});
