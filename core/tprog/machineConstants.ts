/** ztachip machine constants and data types (zta.h of the reference snapshot). */

export const MACHINE: Record<string, number> = {
  NUM_PCORE: 8,
  PCORE_PER_CELL: 4,
  NUM_THREAD_PER_CORE: 16,
  TID_MAX: 16,
  VECTOR_WIDTH: 8,
  VECTOR_DEPTH: 3,
  DATA_BIT_WIDTH: 12,
  REGISTER_SIZE: 256,
  REGISTER_FILE_DEPTH: 12,
  REGISTER_ACTUAL_FILE_DEPTH: 11,
  SRAM_SIZE: 32768,
  SRAM_DEPTH: 15,
  MAX_DP_ADDR_SIZE: 1 << 24,
  SPU_NUM_STREAM: 4,
  SPU_SIZE: 128,
  SPU_LOOKUP_SIZE: 128,
  INT16: 3,
  INT8: 2,
  UINT8: 4,
  FLOAT8: 0,
  UFLOAT8: 6,
  DP_DATA_TYPE_INT16: 3,
  DP_DATA_TYPE_INT8: 2,
  DP_DATA_TYPE_UINT8: 4,
};

export const LIMITS = {
  numPcore: 8,
  numThread: 16,
  lanes: 8,
  privateWords: 256,
  pcoreWordsPerProcess: 4096,
  physicalWords: 2048,
  scratchBytes: 32768,
  memDefaultDim: 1 << 24,
  maxLevels: 6,
  maxTensorVars: 7,
  maxVarNames: 16,
  spuTables: 4,
  spuLookup: 128,
};

export type DataType = 'INT16' | 'INT8' | 'UINT8';

/** Canonical name of a data type text, or undefined for a dynamic (C variable) type. */
export function canonicalType(text: string | undefined): DataType | undefined {
  if (!text) return undefined;
  const t = text
    .trim()
    .toUpperCase()
    .replace(/^DP_DATA_TYPE_/, '');
  return t === 'INT16' || t === 'INT8' || t === 'UINT8' ? t : undefined;
}

export function elementBytes(t: DataType | undefined): number {
  return t === 'INT8' || t === 'UINT8' ? 1 : 2;
}

export const TYPE_DOC: Record<DataType, string> = {
  INT16: 'signed 16-bit integer (2 bytes in MEM/SCRATCH; a 12-bit word in PCORE, sign bit and low 11 bits kept)',
  INT8: 'signed 8-bit integer (1 byte; sign-extended to a 12-bit PCORE word)',
  UINT8: 'unsigned 8-bit integer (1 byte; zero-extended to a 12-bit PCORE word)',
};
