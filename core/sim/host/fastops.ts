/**
 * Specialised closures for the hot shapes of 32-bit integer code: operands that are register
 * locals (`fr[s]`) or constants are read inline instead of through another closure call.
 */
import type { SourceLoc } from '../types';
import { BRK, RET, type EF, type Frame, type Runtime } from './hostState';

/**
 * `L op R` for int (u = false) or unsigned int (u = true) when one operand is a register slot.
 * `ls`/`rs`: slot of the left/right operand; `k`: constant right operand. Undefined: no special form.
 */
export function fastInt(op: string, u: boolean, ls: number | undefined, rs: number | undefined, k: number | undefined, LF: EF, RF: EF): EF | undefined {
  if (ls === undefined) {
    if (rs === undefined) return undefined;
    const r = rs;
    if (!u) {
      switch (op) {
        case '+':
          return (fr) => (LF(fr) + fr[r]) | 0;
        case '-':
          return (fr) => (LF(fr) - fr[r]) | 0;
        case '*':
          return (fr) => Math.imul(LF(fr), fr[r]);
        case '&':
          return (fr) => LF(fr) & fr[r];
        case '|':
          return (fr) => LF(fr) | fr[r];
        case '^':
          return (fr) => LF(fr) ^ fr[r];
      }
    } else {
      switch (op) {
        case '+':
          return (fr) => (LF(fr) + fr[r]) >>> 0;
        case '-':
          return (fr) => (LF(fr) - fr[r]) >>> 0;
        case '&':
          return (fr) => (LF(fr) & fr[r]) >>> 0;
        case '|':
          return (fr) => (LF(fr) | fr[r]) >>> 0;
        case '^':
          return (fr) => (LF(fr) ^ fr[r]) >>> 0;
      }
    }
    return undefined;
  }
  const l = ls;
  if (k !== undefined) {
    if (!u) {
      switch (op) {
        case '+':
          return (fr) => (fr[l] + k) | 0;
        case '-':
          return (fr) => (fr[l] - k) | 0;
        case '*':
          return (fr) => Math.imul(fr[l], k);
        case '&':
          return (fr) => fr[l] & k;
        case '|':
          return (fr) => fr[l] | k;
        case '^':
          return (fr) => fr[l] ^ k;
        case '<<':
          return (fr) => fr[l] << k;
        case '>>':
          return (fr) => fr[l] >> k;
      }
    } else {
      switch (op) {
        case '+':
          return (fr) => (fr[l] + k) >>> 0;
        case '-':
          return (fr) => (fr[l] - k) >>> 0;
        case '&':
          return (fr) => (fr[l] & k) >>> 0;
        case '|':
          return (fr) => (fr[l] | k) >>> 0;
        case '^':
          return (fr) => (fr[l] ^ k) >>> 0;
        case '<<':
          return (fr) => (fr[l] << k) >>> 0;
        case '>>':
          return (fr) => fr[l] >>> k;
      }
    }
    return undefined;
  }
  if (rs !== undefined) {
    const r = rs;
    if (!u) {
      switch (op) {
        case '+':
          return (fr) => (fr[l] + fr[r]) | 0;
        case '-':
          return (fr) => (fr[l] - fr[r]) | 0;
        case '*':
          return (fr) => Math.imul(fr[l], fr[r]);
        case '&':
          return (fr) => fr[l] & fr[r];
        case '|':
          return (fr) => fr[l] | fr[r];
        case '^':
          return (fr) => fr[l] ^ fr[r];
        case '<<':
          return (fr) => fr[l] << fr[r];
        case '>>':
          return (fr) => fr[l] >> fr[r];
      }
    } else {
      switch (op) {
        case '+':
          return (fr) => (fr[l] + fr[r]) >>> 0;
        case '-':
          return (fr) => (fr[l] - fr[r]) >>> 0;
        case '&':
          return (fr) => (fr[l] & fr[r]) >>> 0;
        case '|':
          return (fr) => (fr[l] | fr[r]) >>> 0;
        case '^':
          return (fr) => (fr[l] ^ fr[r]) >>> 0;
      }
    }
    return undefined;
  }
  if (!u) {
    switch (op) {
      case '+':
        return (fr) => (fr[l] + RF(fr)) | 0;
      case '-':
        return (fr) => (fr[l] - RF(fr)) | 0;
      case '*':
        return (fr) => Math.imul(fr[l], RF(fr));
      case '&':
        return (fr) => fr[l] & RF(fr);
      case '|':
        return (fr) => fr[l] | RF(fr);
      case '^':
        return (fr) => fr[l] ^ RF(fr);
      case '<<':
        return (fr) => fr[l] << RF(fr);
      case '>>':
        return (fr) => fr[l] >> RF(fr);
    }
  } else {
    switch (op) {
      case '+':
        return (fr) => (fr[l] + RF(fr)) >>> 0;
      case '-':
        return (fr) => (fr[l] - RF(fr)) >>> 0;
      case '&':
        return (fr) => (fr[l] & RF(fr)) >>> 0;
      case '|':
        return (fr) => (fr[l] | RF(fr)) >>> 0;
      case '^':
        return (fr) => (fr[l] ^ RF(fr)) >>> 0;
    }
  }
  return undefined;
}

/** `fr[s] op= R` for an int (u = false) or unsigned (u = true) register local and an integer R. */
export function fastCompound(op: string, u: boolean, s: number, k: number | undefined, RF: EF): EF | undefined {
  if (k !== undefined) {
    if (!u) {
      switch (op) {
        case '+':
          return (fr) => (fr[s] = (fr[s] + k) | 0);
        case '-':
          return (fr) => (fr[s] = (fr[s] - k) | 0);
        case '&':
          return (fr) => (fr[s] = fr[s] & k);
        case '|':
          return (fr) => (fr[s] = fr[s] | k);
        case '^':
          return (fr) => (fr[s] = fr[s] ^ k);
      }
    } else {
      switch (op) {
        case '+':
          return (fr) => (fr[s] = (fr[s] + k) >>> 0);
        case '-':
          return (fr) => (fr[s] = (fr[s] - k) >>> 0);
        case '&':
          return (fr) => (fr[s] = (fr[s] & k) >>> 0);
        case '|':
          return (fr) => (fr[s] = (fr[s] | k) >>> 0);
        case '^':
          return (fr) => (fr[s] = (fr[s] ^ k) >>> 0);
      }
    }
    return undefined;
  }
  if (!u) {
    switch (op) {
      case '+':
        return (fr) => (fr[s] = (fr[s] + RF(fr)) | 0);
      case '-':
        return (fr) => (fr[s] = (fr[s] - RF(fr)) | 0);
      case '&':
        return (fr) => (fr[s] = fr[s] & RF(fr));
      case '|':
        return (fr) => (fr[s] = fr[s] | RF(fr));
      case '^':
        return (fr) => (fr[s] = fr[s] ^ RF(fr));
    }
  } else {
    switch (op) {
      case '+':
        return (fr) => (fr[s] = (fr[s] + RF(fr)) >>> 0);
      case '-':
        return (fr) => (fr[s] = (fr[s] - RF(fr)) >>> 0);
      case '&':
        return (fr) => (fr[s] = (fr[s] & RF(fr)) >>> 0);
      case '|':
        return (fr) => (fr[s] = (fr[s] | RF(fr)) >>> 0);
      case '^':
        return (fr) => (fr[s] = (fr[s] ^ RF(fr)) >>> 0);
    }
  }
  return undefined;
}

/** Comparison closure (1/0) with register-slot operands read inline. */
export function fastCmp(op: string, ls: number | undefined, rs: number | undefined, k: number | undefined): EF | undefined {
  if (ls === undefined) return undefined;
  const l = ls;
  if (k !== undefined) {
    switch (op) {
      case '<':
        return (fr) => (fr[l] < k ? 1 : 0);
      case '>':
        return (fr) => (fr[l] > k ? 1 : 0);
      case '<=':
        return (fr) => (fr[l] <= k ? 1 : 0);
      case '>=':
        return (fr) => (fr[l] >= k ? 1 : 0);
      case '==':
        return (fr) => (fr[l] === k ? 1 : 0);
      case '!=':
        return (fr) => (fr[l] !== k ? 1 : 0);
    }
  }
  if (rs !== undefined) {
    const r = rs;
    switch (op) {
      case '<':
        return (fr) => (fr[l] < fr[r] ? 1 : 0);
      case '>':
        return (fr) => (fr[l] > fr[r] ? 1 : 0);
      case '<=':
        return (fr) => (fr[l] <= fr[r] ? 1 : 0);
      case '>=':
        return (fr) => (fr[l] >= fr[r] ? 1 : 0);
      case '==':
        return (fr) => (fr[l] === fr[r] ? 1 : 0);
      case '!=':
        return (fr) => (fr[l] !== fr[r] ? 1 : 0);
    }
  }
  return undefined;
}

/** Boolean condition with register-slot operands read inline. */
export function fastCond(op: string, ls: number | undefined, rs: number | undefined, k: number | undefined): ((fr: Frame) => boolean) | undefined {
  if (ls === undefined) return undefined;
  const l = ls;
  if (k !== undefined) {
    switch (op) {
      case '<':
        return (fr) => fr[l] < k;
      case '>':
        return (fr) => fr[l] > k;
      case '<=':
        return (fr) => fr[l] <= k;
      case '>=':
        return (fr) => fr[l] >= k;
      case '==':
        return (fr) => fr[l] === k;
      case '!=':
        return (fr) => fr[l] !== k;
    }
  }
  if (rs !== undefined) {
    const r = rs;
    switch (op) {
      case '<':
        return (fr) => fr[l] < fr[r];
      case '>':
        return (fr) => fr[l] > fr[r];
      case '<=':
        return (fr) => fr[l] <= fr[r];
      case '>=':
        return (fr) => fr[l] >= fr[r];
      case '==':
        return (fr) => fr[l] === fr[r];
      case '!=':
        return (fr) => fr[l] !== fr[r];
    }
  }
  return undefined;
}

/**
 * A counted `for` loop: `for (init; fr[a] OP limit; fr[a] += d) body` with the test and the
 * increment inline. `lim`: slot of the limit or undefined with constant `k`.
 */
export function countedLoop(
  op: string,
  u: boolean,
  a: number,
  lim: number | undefined,
  k: number,
  d: number,
  init: ((fr: Frame) => unknown) | null,
  body: (fr: Frame) => unknown,
  steps: number,
  rt: Runtime,
  loc: SourceLoc,
): ((fr: Frame) => unknown) | undefined {
  // normalise to `fr[a] < L + adj` (up) or `fr[a] > L - adj` (down)
  let up: boolean;
  let adj: number;
  switch (op) {
    case '<':
      up = true;
      adj = 0;
      break;
    case '<=':
      up = true;
      adj = 1;
      break;
    case '>':
      up = false;
      adj = 0;
      break;
    case '>=':
      up = false;
      adj = 1;
      break;
    default:
      return undefined;
  }
  if (lim === undefined) {
    const L = up ? k + adj : k - adj;
    if (up)
      return (fr) => {
        if (init) init(fr);
        const b = rt.b;
        for (;;) {
          if ((b.steps -= steps) < rt.mark) rt.tick(loc);
          if (!(fr[a] < L)) return 0;
          const c = body(fr);
          if (typeof c === 'object') {
            if (c === BRK) return 0;
            if (c === RET) return RET;
          }
          fr[a] = u ? (fr[a] + d) >>> 0 : (fr[a] + d) | 0;
        }
      };
    return (fr) => {
      if (init) init(fr);
      const b = rt.b;
      for (;;) {
        if ((b.steps -= steps) < rt.mark) rt.tick(loc);
        if (!(fr[a] > L)) return 0;
        const c = body(fr);
        if (typeof c === 'object') {
          if (c === BRK) return 0;
          if (c === RET) return RET;
        }
        fr[a] = u ? (fr[a] + d) >>> 0 : (fr[a] + d) | 0;
      }
    };
  }
  const m = lim;
  if (up)
    return (fr) => {
      if (init) init(fr);
      const b = rt.b;
      for (;;) {
        if ((b.steps -= steps) < rt.mark) rt.tick(loc);
        if (!(fr[a] < fr[m] + adj)) return 0;
        const c = body(fr);
        if (typeof c === 'object') {
          if (c === BRK) return 0;
          if (c === RET) return RET;
        }
        fr[a] = u ? (fr[a] + d) >>> 0 : (fr[a] + d) | 0;
      }
    };
  return (fr) => {
    if (init) init(fr);
    const b = rt.b;
    for (;;) {
      if ((b.steps -= steps) < rt.mark) rt.tick(loc);
      if (!(fr[a] > fr[m] - adj)) return 0;
      const c = body(fr);
      if (typeof c === 'object') {
        if (c === BRK) return 0;
        if (c === RET) return RET;
      }
      fr[a] = u ? (fr[a] + d) >>> 0 : (fr[a] + d) | 0;
    }
  };
}
