/**
 * Data types of the layout language: one canonical name per type, the spellings accepted for it, and
 * the per-model tables (Spyre device formats and sticks, TT page sizes, 16-byte-cell element sizes).
 */

export const DTYPES = [
  'float16',
  'bfloat16',
  'float32',
  'float64',
  'int8',
  'int16',
  'int32',
  'int64',
  'uint8',
  'uint16',
  'uint32',
  'bool',
  'float8_e4m3fn',
  'float8_e5m2fnuz',
  'bfloat8_b',
  'bfloat4_b',
  'qint8',
  'quint8',
  'quint4x2',
  'complex64',
  'complex128',
] as const;
export type DType = (typeof DTYPES)[number];

const ALIASES: Record<string, DType> = {
  f16: 'float16',
  fp16: 'float16',
  half: 'float16',
  bf16: 'bfloat16',
  f32: 'float32',
  fp32: 'float32',
  float: 'float32',
  f64: 'float64',
  fp64: 'float64',
  double: 'float64',
  i8: 'int8',
  i16: 'int16',
  short: 'int16',
  i32: 'int32',
  int: 'int32',
  i64: 'int64',
  long: 'int64',
  u8: 'uint8',
  u16: 'uint16',
  u32: 'uint32',
  bfp8: 'bfloat8_b',
  bfp8_b: 'bfloat8_b',
  bfp4: 'bfloat4_b',
  bfp4_b: 'bfloat4_b',
  fp8: 'float8_e4m3fn',
};

/** Canonical dtype of a spelling (`torch.float16`, `ttnn.bfloat16`, `fp16`, `DataType.BFLOAT16`); undefined when unknown. */
export function parseDtype(text: string): DType | undefined {
  let t = text.trim().toLowerCase();
  t = t.replace(/^(torch|ttnn|tt_lib|np|numpy|datatype|ttnn\.datatype)\./, '').replace(/^datatype\./, '');
  if ((DTYPES as readonly string[]).includes(t)) return t as DType;
  return ALIASES[t];
}

/** Every spelling we accept, for completion and "did you mean". */
export const DTYPE_SPELLINGS: string[] = [...DTYPES, ...Object.keys(ALIASES)];

/** Bytes of one element on the host (PyTorch storage). */
export const HOST_BYTES: Record<DType, number> = {
  float16: 2,
  bfloat16: 2,
  float32: 4,
  float64: 8,
  int8: 1,
  int16: 2,
  int32: 4,
  int64: 8,
  uint8: 1,
  uint16: 2,
  uint32: 4,
  bool: 1,
  float8_e4m3fn: 1,
  float8_e5m2fnuz: 1,
  bfloat8_b: 4,
  bfloat4_b: 4,
  qint8: 1,
  quint8: 1,
  quint4x2: 1,
  complex64: 8,
  complex128: 16,
};

// ---------------------------------------------------------------------------------------------
// Spyre (research A.3)

export type SpyreFormat =
  'SEN169_FP16' | 'IEEE_FP32' | 'IEEE_INT32' | 'SENINT8' | 'SENINT16' | 'SEN143_FP8' | 'SEN152_FP8' | 'SENUINT32' | 'SENUINT2' | 'INVALID';

export interface SpyreDtypeInfo {
  /** Host format name (torch-spyre `stringToDTDataFormatPair`). */
  host: string;
  device: SpyreFormat;
  /** Elements per 128-byte stick; 0 = unsupported. */
  eps: number;
  /** Device bytes per element. */
  bytes: number;
  /** How sure the count is. */
  source: 'code' | 'docs' | 'inferred' | 'unknown';
  /** The host value is converted on the way to the device. */
  conversion?: string;
}

export const SPYRE_DTYPES: Partial<Record<DType, SpyreDtypeInfo>> = {
  float16: { host: 'IEEE_FP16', device: 'SEN169_FP16', eps: 64, bytes: 2, source: 'code', conversion: 'IEEE fp16 is converted to IBM DLFloat16 (1-6-9)' },
  bfloat16: { host: 'BFLOAT16', device: 'SEN169_FP16', eps: 64, bytes: 2, source: 'code', conversion: 'bfloat16 values are converted to DLFloat16 (lossy)' },
  bool: { host: 'BOOL', device: 'SEN169_FP16', eps: 64, bytes: 2, source: 'code', conversion: 'bool is stored as DLFloat16' },
  float32: { host: 'IEEE_FP32', device: 'IEEE_FP32', eps: 32, bytes: 4, source: 'docs' },
  int32: { host: 'IEEE_INT32', device: 'IEEE_INT32', eps: 32, bytes: 4, source: 'code' },
  int64: {
    host: 'IEEE_INT64',
    device: 'IEEE_INT32',
    eps: 32,
    bytes: 4,
    source: 'code',
    conversion: 'int64 is downcast to int32 (values outside ±2^31 are lost)',
  },
  int8: { host: 'SENINT8', device: 'SENINT8', eps: 128, bytes: 1, source: 'docs' },
  qint8: { host: 'SENINT8', device: 'SENINT8', eps: 128, bytes: 1, source: 'docs' },
  int16: { host: 'SENINT16', device: 'SENINT16', eps: 64, bytes: 2, source: 'inferred' },
  float8_e4m3fn: { host: 'SEN143_FP8', device: 'SEN143_FP8', eps: 128, bytes: 1, source: 'inferred' },
  float8_e5m2fnuz: { host: 'SEN152_FP8', device: 'SEN152_FP8', eps: 128, bytes: 1, source: 'inferred' },
  uint8: { host: 'SENUINT32', device: 'SENUINT32', eps: 0, bytes: 0, source: 'unknown' },
  quint8: { host: 'SENUINT32', device: 'SENUINT32', eps: 0, bytes: 0, source: 'unknown' },
  quint4x2: { host: 'SENUINT2', device: 'SENUINT2', eps: 0, bytes: 0, source: 'unknown' },
};

export const SPYRE_FORMAT_BY_NAME: Record<string, SpyreFormat> = {
  SEN169_FP16: 'SEN169_FP16',
  IEEE_FP32: 'IEEE_FP32',
  IEEE_INT32: 'IEEE_INT32',
  SENINT8: 'SENINT8',
  SENINT16: 'SENINT16',
  SEN143_FP8: 'SEN143_FP8',
  SEN152_FP8: 'SEN152_FP8',
  SENUINT32: 'SENUINT32',
  SENUINT2: 'SENUINT2',
};
// words of the document index these tables: without a prototype, `constructor`, `__proto__`, `toString` … are not entries
for (const t of [ALIASES, SPYRE_FORMAT_BY_NAME]) Object.setPrototypeOf(t, null);

/** Spyre info of a dtype; the unsupported ones (INVALID device format or no stick size) give undefined. */
export function spyreDtype(d: DType): SpyreDtypeInfo | undefined {
  const i = SPYRE_DTYPES[d];
  return i && i.eps > 0 ? i : undefined;
}

// ---------------------------------------------------------------------------------------------
// TT-Metalium (research B.2)

export interface TTDtypeInfo {
  format: string;
  /** Bytes per element in ROW_MAJOR pages (block floats fall back to 4-byte floats). */
  rmBytes: number;
  /** Bits per element in a tile's data section (dense: 8·bytes; bfp8: 8; bfp4: 4). */
  tileBits: number;
  /** Block-float: tiles carry one shared exponent byte per face row. */
  blockFloat: boolean;
}

export const TT_DTYPES: Partial<Record<DType, TTDtypeInfo>> = {
  bfloat16: { format: 'Float16_b', rmBytes: 2, tileBits: 16, blockFloat: false },
  float32: { format: 'Float32', rmBytes: 4, tileBits: 32, blockFloat: false },
  uint32: { format: 'UInt32', rmBytes: 4, tileBits: 32, blockFloat: false },
  int32: { format: 'Int32', rmBytes: 4, tileBits: 32, blockFloat: false },
  uint16: { format: 'UInt16', rmBytes: 2, tileBits: 16, blockFloat: false },
  uint8: { format: 'UInt8', rmBytes: 1, tileBits: 8, blockFloat: false },
  bfloat8_b: { format: 'Bfp8_b', rmBytes: 4, tileBits: 8, blockFloat: true },
  bfloat4_b: { format: 'Bfp4_b', rmBytes: 4, tileBits: 4, blockFloat: true },
};

// ---------------------------------------------------------------------------------------------
// 16-byte cells (formats.md B.2)

export interface CellDtypeInfo {
  size: number;
  encoding: string;
}

export const CELL_DTYPES: Partial<Record<DType, CellDtypeInfo>> = {
  int8: { size: 1, encoding: 'two’s complement' },
  int16: { size: 2, encoding: 'two’s complement, little-endian' },
  float16: { size: 2, encoding: 'IEEE-754 binary16, little-endian' },
  float32: { size: 4, encoding: 'IEEE-754 binary32, little-endian (S, E0..E7, M0..M22 with E0/M0 the MSbs)' },
  int32: { size: 4, encoding: 'two’s complement, little-endian' },
};
