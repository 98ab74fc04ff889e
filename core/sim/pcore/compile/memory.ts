/**
 * Memory operations (`Ops`) of each storage space: get/set a word, load/store/fill a vector at an address
 * token (places.ts computes the tokens). Stores convert as the hardware does (12-bit saturation for PCORE
 * memory and int16/vint16 locals, none for accumulators) and vector stores honour `_VMASK` (word 0 of the
 * running thread's state, `M.S[M.so]`). Each space has its own closures rather than one parameterised
 * set: these run in every load and store of a kernel.
 */
import * as R from '../kernelState';
import type { Ctx } from '../kernelState';
import type { FnUnit } from './unit';
import type { Ops } from './types';

// Bound once (see base.ts).
const { SHARED_TOKEN, sat12 } = R;

/** Private memory of the running thread (tokens are indexes into `M.priv`). */
export function privOps(M: Ctx): Ops {
  return {
    get: (a) => M.priv[a],
    set: (a, v) => {
      M.priv[a] = sat12(v);
    },
    load: (a, out) => {
      const m = M.priv;
      for (let i = 0; i < 8; i++) out[i] = m[a + i];
    },
    store: (a, s) => {
      const m = M.priv;
      const k = M.S[M.so];
      if ((k & 255) === 255) {
        for (let i = 0; i < 8; i++) m[a + i] = sat12(s[i]);
      } else {
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = sat12(s[i]);
      }
    },
    fill: (a, v) => {
      const m = M.priv;
      const k = M.S[M.so];
      const x = sat12(v);
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = x;
    },
  };
}

/** Shared memory of the running PCORE, written at once (thread-after-thread execution). */
export function sharedOps(M: Ctx): Ops {
  return {
    get: (a) => M.shared[a],
    set: (a, v) => {
      M.shared[a] = sat12(v);
    },
    load: (a, out) => {
      const m = M.shared;
      for (let i = 0; i < 8; i++) out[i] = m[a + i];
    },
    store: (a, s) => {
      const m = M.shared;
      const k = M.S[M.so];
      if ((k & 255) === 255) {
        for (let i = 0; i < 8; i++) m[a + i] = sat12(s[i]);
      } else {
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = sat12(s[i]);
      }
    },
    fill: (a, v) => {
      const m = M.shared;
      const k = M.S[M.so];
      const x = sat12(v);
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = x;
    },
  };
}

/** Through a pointer: tokens from SHARED_TOKEN up are shared words, below are private ones. */
export function dynOps(M: Ctx): Ops {
  return {
    get: (a) => (a >= SHARED_TOKEN ? M.shared[a - SHARED_TOKEN] : M.priv[a]),
    set: (a, v) => {
      if (a >= SHARED_TOKEN) M.shared[a - SHARED_TOKEN] = sat12(v);
      else M.priv[a] = sat12(v);
    },
    load: (a, out) => {
      let m = M.priv;
      if (a >= SHARED_TOKEN) {
        m = M.shared;
        a -= SHARED_TOKEN;
      }
      for (let i = 0; i < 8; i++) out[i] = m[a + i];
    },
    store: (a, s) => {
      let m = M.priv;
      if (a >= SHARED_TOKEN) {
        m = M.shared;
        a -= SHARED_TOKEN;
      }
      const k = M.S[M.so];
      if ((k & 255) === 255) {
        for (let i = 0; i < 8; i++) m[a + i] = sat12(s[i]);
      } else {
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = sat12(s[i]);
      }
    },
    fill: (a, v) => {
      let m = M.priv;
      if (a >= SHARED_TOKEN) {
        m = M.shared;
        a -= SHARED_TOKEN;
      }
      const k = M.S[M.so];
      const x = sat12(v);
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = x;
    },
  };
}

/**
 * Shared-memory operations of interleaved execution (`dyn`: pointer tokens, private or shared): writes
 * are queued (M.defer) and committed at the end of the round; reads see the committed words and the
 * running thread's own queued writes. Private tokens go to `direct` (the private operations).
 */
export function deferredOps(M: Ctx, direct: Ops, dyn: boolean): Ops {
  const off = dyn ? SHARED_TOKEN : 0;
  const priv = (a: number): boolean => dyn && a < SHARED_TOKEN;
  const word = (i: number): number => (M.wn > M.wOwn ? M.sharedWord(i) : M.shared[i]);
  return {
    get: (a) => (priv(a) ? direct.get(a) : word(a - off)),
    set: (a, v) => {
      if (priv(a)) direct.set(a, v);
      else M.defer(a - off, sat12(v));
    },
    load: (a, out) => {
      if (priv(a)) {
        direct.load(a, out);
        return;
      }
      for (let i = 0; i < 8; i++) out[i] = word(a - off + i);
    },
    store: (a, s) => {
      if (priv(a)) {
        direct.store(a, s);
        return;
      }
      const k = M.S[M.so];
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) M.defer(a - off + i, sat12(s[i]));
    },
    fill: (a, v) => {
      if (priv(a)) {
        direct.fill(a, v);
        return;
      }
      const k = M.S[M.so];
      const x = sat12(v);
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) M.defer(a - off + i, x);
    },
  };
}

/** Accumulator lanes in the thread state (32-bit, no saturation, stores honour _VMASK). */
export function accOps(M: Ctx): Ops {
  return {
    get: (a) => M.S[a],
    set: (a, v) => {
      M.S[a] = v | 0;
    },
    load: (a, out) => {
      const m = M.S;
      for (let i = 0; i < 8; i++) out[i] = m[a + i];
    },
    store: (a, s) => {
      const m = M.S;
      const k = m[M.so];
      if ((k & 255) === 255) {
        for (let i = 0; i < 8; i++) m[a + i] = s[i];
      } else {
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = s[i];
      }
    },
    fill: (a, v) => {
      const m = M.S;
      const k = m[M.so];
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) m[a + i] = v | 0;
    },
  };
}

/** Locals in a frame: 12-bit saturated (int16/vint16) or 32-bit (accumulators); vector stores honour _VMASK. */
export function frameOps(M: Ctx, u: FnUnit, sat: boolean): Ops {
  const fr = u.fr;
  const cv = sat ? sat12 : (x: number): number => x | 0;
  return {
    get: (a) => fr[a],
    set: (a, v) => {
      fr[a] = cv(v);
    },
    load: (a, out) => {
      for (let i = 0; i < 8; i++) out[i] = fr[a + i];
    },
    store: (a, s) => {
      const k = M.S[M.so];
      if ((k & 255) === 255) {
        for (let i = 0; i < 8; i++) fr[a + i] = cv(s[i]);
      } else {
        for (let i = 0; i < 8; i++) if ((k >> i) & 1) fr[a + i] = cv(s[i]);
      }
    },
    fill: (a, v) => {
      const k = M.S[M.so];
      const x = cv(v);
      for (let i = 0; i < 8; i++) if ((k >> i) & 1) fr[a + i] = x;
    },
  };
}
