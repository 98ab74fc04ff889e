/**
 * Machine constants and language tables of the ztachip PCORE (`.p`) language.
 * Values follow the ztachip hardware headers (see the team's research notes, §1.1 and §8).
 */

export const NUM_PCORE = 8;
export const NUM_THREAD_PER_CORE = 16;
export const VECTOR_WIDTH = 8;
export const VECTOR_DEPTH = 3;
/** Private words per thread (REGISTER_SIZE / MAX_PRIVATE_SIZE). */
export const MAX_PRIVATE_WORDS = 256;
/** Logical PCORE address space per PCORE per process (words). */
export const PCORE_ADDRESS_WORDS = 4096;
/** Physical PCORE RAM per PCORE per process (words): 16*ROUND8(private)+ROUND8(shared) must fit. */
export const PCORE_PHYSICAL_WORDS = 2048;
/** Accumulator lanes per thread (8 vectors of 8 lanes). */
export const MAX_ACCUMULATOR_LANES = 64;
export const MAX_INT_REGISTERS = 4;
export const MAX_POINTER_REGISTERS = 4;
/** `_global int` parameters per kernel. */
export const MAX_GLOBAL_INT_PARAMS = 2;
/** Array dimensions allowed in a declaration. */
export const MAX_VAR_DIM = 3;
/** Entries of the PCORE constant table. */
export const CONSTANT_TABLE_SIZE = 256;

export function round8(n: number): number {
  return Math.ceil(n / VECTOR_WIDTH) * VECTOR_WIDTH;
}

/** How the compiler classifies a type keyword. */
export type TypeClass = 'storage' | 'accumulator' | 'integer' | 'void';

export interface PcoreTypeInfo {
  name: string;
  cls: TypeClass;
  /** log2(lanes): the compiler's vector width `w` (0 for scalars). */
  width: number;
  lanes: number;
}

/** Valid PCORE type names (canonical spelling). */
export const PCORE_TYPES: ReadonlyMap<string, PcoreTypeInfo> = new Map<string, PcoreTypeInfo>([
  ['int16', { name: 'int16', cls: 'storage', width: 0, lanes: 1 }],
  ['float2', { name: 'float2', cls: 'storage', width: 1, lanes: 2 }],
  ['float4', { name: 'float4', cls: 'storage', width: 2, lanes: 4 }],
  ['vint16', { name: 'vint16', cls: 'storage', width: 3, lanes: 8 }],
  ['float16', { name: 'float16', cls: 'storage', width: 4, lanes: 16 }],
  // int32 and vint32 are both 8-lane accumulators (the compiler gives both the width VECTOR_DEPTH).
  ['int32', { name: 'int32', cls: 'accumulator', width: 3, lanes: 8 }],
  ['vint32', { name: 'vint32', cls: 'accumulator', width: 3, lanes: 8 }],
  ['int', { name: 'int', cls: 'integer', width: 0, lanes: 1 }],
  ['unsigned int', { name: 'unsigned int', cls: 'integer', width: 0, lanes: 1 }],
  ['void', { name: 'void', cls: 'void', width: 0, lanes: 1 }],
]);

export const PCORE_TYPE_LIST = 'int16, vint16, int32, vint32, int, unsigned int, float2, float4, float16';

/** Words that make up a type in declaration specifiers. */
export const TYPE_WORDS: ReadonlySet<string> = new Set([
  'int16',
  'vint16',
  'int32',
  'vint32',
  'int',
  'unsigned',
  'signed',
  'float2',
  'float4',
  'float16',
  'void',
  'char',
  'short',
  'long',
  '_Bool',
]);

/** Names people try as types that are not PCORE types (lexed as identifiers by the real compiler). */
export const NOT_TYPE_WORDS: ReadonlySet<string> = new Set(['float', 'double', 'float8', 'vint8', 'int8', 'uint8', 'vint64', 'int64']);

export const SPECIFIER_WORDS: ReadonlySet<string> = new Set([
  '_share',
  '_global',
  'extern',
  'static',
  'const',
  '_kernel_',
  'inline',
  'volatile',
  'register',
  'auto',
  'restrict',
  'typedef',
]);

export const STATEMENT_KEYWORDS: ReadonlySet<string> = new Set([
  'if',
  'else',
  'for',
  'while',
  'do',
  'switch',
  'case',
  'default',
  'break',
  'continue',
  'return',
  'goto',
  'sizeof',
  'struct',
  'union',
  'enum',
  'class',
]);

export const NT_WORDS: ReadonlyMap<string, number> = new Map([
  ['_NT1_', 1],
  ['_NT2_', 2],
  ['_NT4_', 4],
  ['_NT8_', 8],
  ['_NT16_', 16],
]);

/** Builtin names available inside PCORE functions. */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(['tid', 'pid', '_VMASK']);

/**
 * ALU opcode names. They are reserved (case-insensitively) as variable names and usable as intrinsics.
 * Union of the opcode tables of the compiler versions we know about.
 */
export const ALU_OPCODES: readonly string[] = [
  'NULL',
  'ASN',
  'ASN_RAW',
  'ADD',
  'SUB',
  'CONV',
  'LT',
  'LE',
  'GT',
  'GE',
  'EQ',
  'NE',
  'MUL',
  'B0',
  'B1',
  'N0',
  'N1',
  'N2',
  'N3',
  'CONV_BFLOAT',
  'SHL',
  'SHLA',
  'SHR',
  'SHRA',
  'FMS',
  'FMA',
  'FNMS',
  'FNMA',
  'FMS2',
  'FMA2',
  'FNMS2',
  'FNMA2',
  'GET_MANTISSA',
  'GET_EXP',
  'SET_EXP',
  'SET_FLOAT',
];

const OPCODE_SET = new Set(ALU_OPCODES.map((s) => s.toUpperCase()));

export interface IntrinsicInfo {
  name: string;
  /** Expected argument count, when known for sure. */
  arity?: number;
  /** Result kind: comparisons and ASN_RAW produce integer lane masks / raw integers. */
  result: 'int' | 'vector';
}

export function intrinsicInfo(name: string): IntrinsicInfo | undefined {
  const up = name.toUpperCase();
  if (!OPCODE_SET.has(up) || up === 'NULL') return undefined;
  switch (up) {
    case 'GE':
    case 'GT':
    case 'LE':
    case 'LT':
    case 'EQ':
    case 'NE':
      return { name: up, arity: 2, result: 'int' };
    case 'ASN_RAW':
      return { name: up, arity: 1, result: 'int' };
    default:
      return { name: up, result: 'vector' };
  }
}

/** `tid`, `pid`, `_VMASK` and every ALU opcode name are reserved (case-insensitive). */
export function isReservedName(name: string): boolean {
  const up = name.toUpperCase();
  return up === 'TID' || up === 'PID' || up === '_VMASK' || OPCODE_SET.has(up);
}

/**
 * Machine constants assumed when a file includes `zta.h` that cannot be read
 * (only names whose values are certain).
 */
export const ZTA_BUILTIN_DEFINES: ReadonlyMap<string, string> = new Map([
  ['NUM_PCORE', '8'],
  ['PCORE_PER_CELL', '4'],
  ['NUM_THREAD_PER_CORE', '16'],
  ['TID_MAX', '16'],
  ['VECTOR_WIDTH', '8'],
  ['VECTOR_DEPTH', '3'],
  ['DATA_BIT_WIDTH', '12'],
  ['REGISTER_SIZE', '256'],
  ['REGISTER_FILE_DEPTH', '12'],
  ['REGISTER_ACTUAL_FILE_DEPTH', '11'],
  ['MAX_INT_SIZE', '4'],
  ['MAX_POINTER_SIZE', '4'],
  ['IREGISTER_WIDTH', '13'],
  ['MAX_IREGISTER_AUTO_SIZE', '2'],
  ['SRAM_DEPTH', '15'],
  ['SRAM_SIZE', '32768'],
  ['INSTRUCTION_DEPTH', '11'],
  ['CONSTANT_SIZE', '256'],
]);
