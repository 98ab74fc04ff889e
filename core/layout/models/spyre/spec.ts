/** IBM Spyre tensor specs: sticks, memory sizes, element arrangements, the three ways to write a layout. */
import type { DType } from '../../dtypes';

export const STICK_BYTES = 128;
export const SPYRE_MEMORY = 128 * 2 ** 30;
export const SPYRE_CORE_SPAN = 256 * 2 ** 20;
/** Device-slot count up to which a stride_map layout is verified by enumeration. */
export const SPYRE_ENUM_LIMIT = 2 ** 18;

export const ELEMENT_ARRANGEMENTS = ['STANDARD', 'DL16_TO_FP32', 'FP32_TO_DL16', 'QFP8CH', 'QFP8WT', 'EXX2'] as const;

export type SpyreLayoutSpec =
  | { kind: 'default'; dimOrder?: number[] }
  | { kind: 'dim_map'; deviceSize: number[]; dimMap: number[] }
  | { kind: 'stride_map'; deviceSize: number[]; strideMap: number[] };

export interface SpyreSpec {
  /** Host (PyTorch) size. */
  shape: number[];
  dtype: DType;
  /** Host strides in elements (default: contiguous). Only the stride_map correspondence uses them. */
  hostStrides?: number[];
  layout: SpyreLayoutSpec;
  /** `device_dtype` as written (`DataFormats.SEN169_FP16`); checked against the dtype's device format. */
  deviceDtype?: string;
  elementArrangement?: string;
  /** Base byte address (128-aligned). */
  base?: number;
  /** Device memory capacity in bytes (default 128 GiB). */
  memory?: number;
}
