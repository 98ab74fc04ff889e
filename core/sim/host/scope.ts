/** Compile-time symbols and scopes of the host interpreter. */
import type { SourceLoc } from '../types';
import type { CType, StructT } from './ctypes';
import type { FnRec, GStep, LocalInfo } from './hostState';
import type { N } from './syntax';
import type { Macro } from './preprocess';
import type { EF } from './hostState';

/** A global or static variable in MEM. */
export interface GVar {
  /** Name shown to users (`name`, or `function.name` for a static local). */
  name: string;
  t: CType;
  /** MEM address once the program is attached to a machine (-1 before). */
  addr: number;
  loc: SourceLoc;
  defined: boolean;
  isStatic: boolean;
  /** Applies the initialiser (MEM already zeroed). */
  init?: (fr: number[]) => void;
  initLoc?: SourceLoc;
}

export type Sym =
  | { k: 'slot'; t: CType; slot: number; name: string }
  | { k: 'frame'; t: CType; off: number; name: string }
  | { k: 'global'; t: CType; g: GVar; name: string }
  | { k: 'const'; t: CType; v: number }
  | { k: 'fn'; f: FnRec }
  | { k: 'type'; t: CType };

export class Scope {
  syms = new Map<string, Sym>();
  tags = new Map<string, StructT | 'enum'>();
  constructor(public parent?: Scope) {}
  lookup(name: string): Sym | undefined {
    return this.syms.get(name) ?? this.parent?.lookup(name);
  }
  tag(name: string): StructT | 'enum' | undefined {
    return this.tags.get(name) ?? this.parent?.tag(name);
  }
  snapshot(): Scope {
    const s = new Scope(this.parent);
    s.syms = new Map(this.syms);
    s.tags = this.tags;
    return s;
  }
}

/** Per-function compile state. */
export interface Fx {
  name: string;
  fn?: FnRec;
  gen: boolean;
  nslots: number;
  frameSize: number;
  addrTaken: Set<string>;
  ret: CType;
  locals: LocalInfo[];
  /** Compiling a `scope.eval` snippet or a global initialiser: no new slots or frame space. */
  noFrame?: string;
}

/** Where node offsets point to. */
export interface Src {
  text: string;
  loc(n: N): SourceLoc;
}

export interface Cx {
  fx: Fx;
  scope: Scope;
  /** Generator mode: calls that may yield are hoisted into these steps. */
  hoist: GStep[] | null;
  src: Src;
}

/** What `scope.eval` needs to compile snippets in the scope of a statement or call. */
export interface EvalCtx {
  scope: Scope;
  fx: Fx;
  loc: SourceLoc;
  macros: Map<string, Macro>;
  cache: Map<string, EF>;
}
