/**
 * A compiled function (kernel or helper) with its frame of locals. Locals live in one frame per function,
 * reset on entry (PCORE helpers are not reentrant: recursion is reported as not simulated).
 */
import type { PcoreKernel, PcoreParam } from '../../../pcore/model';
import * as R from '../kernelState';
import type { Stmt } from './types';

const { LANES, NORMAL } = R;

export class FnUnit {
  readonly fr: Int32Array;
  readonly slots = new Map<object, number>();
  body: Stmt = () => NORMAL;
  /** Kernel parameter initialisation (from `_global` slots and shadow words). */
  readonly init: (() => void)[] = [];
  ret: 'void' | 'int' | 'word' | 'vec' = 'void';
  readonly retBuf = new Int32Array(LANES);
  state: 'new' | 'compiling' | 'done' = 'new';
  private readonly frameWords: number;

  constructor(readonly k: PcoreKernel) {
    let size = 0;
    for (const p of k.params) {
      if (!frameParam(k, p)) continue;
      this.slots.set(p, size);
      size += isIntType(p.type) || p.pointer ? 1 : Number.isFinite(p.len) ? p.len : 0;
    }
    for (const l of k.locals) {
      if (!l.sizeKnown) continue;
      this.slots.set(l, size);
      size += l.storage === 'integer' || l.storage === 'pointer' ? 1 : l.len;
    }
    this.fr = new Int32Array(Math.max(size, 1));
    this.frameWords = size;
  }

  /** Resets the frame before running the body. */
  enter(): void {
    if (this.frameWords > 0) this.fr.fill(0);
    if (this.ret !== 'void') this.retBuf.fill(0);
    const init = this.init;
    for (let i = 0; i < init.length; i++) init[i]();
  }
}

/** `int` and `unsigned int`: 13-bit integer-register values. */
export function isIntType(t: string): boolean {
  return t === 'int' || t === 'unsigned int';
}

/** Parameters that live in the interpreter frame (others are PCORE memory at their analyzer offset). */
function frameParam(k: PcoreKernel, p: PcoreParam): boolean {
  if (!k.isKernel) return true;
  return p.global || p.pointer || isIntType(p.type);
}
