/**
 * The stdio transport's framing, checked before vscode-jsonrpc's StreamMessageReader sees it: that
 * reader stops at a header it cannot read (`Content-Length: abc`, a negative length, no length) and
 * waits for more input with the rest of the chunk unread, so the connection wedges. `LspFraming`
 * passes well-formed messages (header and body, unchanged) and drops a malformed header, says why
 * (`onProblem`) and reads on at the next `Content-Length:` (the body of the dropped message, whose
 * length is unknown, is skipped with it; a body's JSON cannot hold the CR LF CR LF that ends a header).
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Largest body accepted (a larger Content-Length is treated as malformed). */
export const MAX_BODY_BYTES = 512 * 1024 * 1024;
/** Longest header block (all header lines) accepted. */
export const MAX_HEADER_BYTES = 8 * 1024;

const HEADER_END = Buffer.from('\r\n\r\n');
const START = /content-length:/i;

/** The body length a header block declares, or why it cannot be read. */
export function contentLengthOf(head: string, maxBody = MAX_BODY_BYTES): number | string {
  let length: number | undefined;
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line without a name (${shown(line)})`;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name !== 'content-length') continue;
    if (length !== undefined) return 'Content-Length given twice';
    if (!/^\d{1,10}$/.test(value)) return `Content-Length is not a length (${shown(value)})`;
    length = Number(value);
    if (length > maxBody) return `Content-Length ${length} is larger than ${maxBody}`;
  }
  return length ?? 'no Content-Length header';
}

/** Where a `Content-Length:` that does not start a line begins in a header block (-1: none). */
function gluedHeader(head: string): number {
  const re = /content-length:/gi;
  for (let m = re.exec(head); m; m = re.exec(head)) if (m.index > 0 && head[m.index - 1] !== '\n') return m.index;
  return -1;
}

function shown(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

export class LspFraming extends Transform {
  private buf: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  /** Body bytes still to pass through (-1: reading a header). */
  private need = -1;
  /** Dropping input up to the next header after a malformed one. */
  private syncing = false;
  /** Messages dropped so far. */
  dropped = 0;

  constructor(
    private readonly onProblem: (why: string) => void,
    private readonly maxBody = MAX_BODY_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    try {
      this.drain();
      done();
    } catch (e) {
      done(e as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.need > 0 || (this.buf.length && !this.syncing)) this.onProblem('the input ended inside a message');
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.need >= 0) {
        if (this.buf.length < this.need) {
          // pass the body on as it comes (a large message is not held twice)
          if (this.buf.length) {
            this.push(this.buf);
            this.need -= this.buf.length;
            this.buf = Buffer.alloc(0);
          }
          return;
        }
        this.push(this.buf.subarray(0, this.need));
        this.buf = this.buf.subarray(this.need);
        this.need = -1;
        continue;
      }
      if (this.syncing && !this.resync()) return;
      const end = this.buf.indexOf(HEADER_END);
      if (end < 0) {
        if (this.buf.length <= MAX_HEADER_BYTES) return;
        this.skipHeader(`a header longer than ${MAX_HEADER_BYTES} bytes`, 1);
        continue;
      }
      const head = this.buf.subarray(0, end).toString('latin1');
      const len = end > MAX_HEADER_BYTES ? `a header longer than ${MAX_HEADER_BYTES} bytes` : contentLengthOf(head, this.maxBody);
      if (typeof len === 'string') {
        // a next message glued to the garbage (`junkContent-Length: 5`) is kept; else the whole block goes
        const glued = gluedHeader(head);
        this.skipHeader(len, glued > 0 ? glued : end + HEADER_END.length);
        continue;
      }
      this.push(this.buf.subarray(0, end + HEADER_END.length));
      this.buf = this.buf.subarray(end + HEADER_END.length);
      this.need = len;
    }
  }

  private skipHeader(why: string, upTo: number): void {
    this.dropped++;
    this.onProblem(`dropped a message with a malformed header: ${why}; reading on at the next Content-Length header`);
    this.buf = this.buf.subarray(upTo);
    this.syncing = true;
  }

  /** Drops input up to the next `Content-Length:`; false when there is none yet. */
  private resync(): boolean {
    // latin1 keeps byte offsets equal to string offsets
    const text = this.buf.toString('latin1');
    const m = START.exec(text);
    if (!m) {
      // keep a tail that may be the start of the next header
      const keep = Math.min(this.buf.length, 'content-length:'.length - 1);
      this.buf = this.buf.subarray(this.buf.length - keep);
      return false;
    }
    this.buf = this.buf.subarray(m.index);
    this.syncing = false;
    return true;
  }
}
