/** What the tensor-program checker needs to know about the PCORE program (`.p`) beside it. */
import type { Range } from '../common/diagnostic';

export type MemberStorage = 'private' | 'shared' | 'accumulator' | 'integer' | 'pointer';

export interface MemberInfo {
  fullName: string;
  storage: MemberStorage;
  type: string;
  /** Declared dims followed by the lane dimension for vector types. */
  shape: number[];
  len: number;
  /** Word offset in PCORE memory (private: per thread; shared: per PCORE). */
  offset?: number;
  /** Kernel parameter: `_global int` register. */
  global?: boolean;
  globalSlot?: number;
  kernel?: string;
  range?: Range;
  summary: string;
}

export interface KernelInfo {
  fullName: string;
  params: MemberInfo[];
  range?: Range;
  nameRange?: Range;
}

export type MemberLookup = { ok: true; member: MemberInfo } | { ok: false; reason: 'no-class' | 'no-function' | 'no-member' | 'malformed'; message: string };

export interface PcoreIndexView {
  file: string;
  lookupMember(text: string): MemberLookup;
  kernel(name: string): KernelInfo | undefined;
  classNames(): string[];
  members(cls: string): MemberInfo[];
  kernels(): KernelInfo[];
}
