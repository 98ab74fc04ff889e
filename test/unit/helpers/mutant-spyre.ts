/** Expected findings of validateSpyre, written out: the Issue objects and the "use the default layout" fixes. */
import type { DType } from '../../../core/layout/dtypes';
import type { Issue, IssueFix } from '../../../core/layout/issues';
import type { SpyreLayoutSpec, SpyreSpec } from '../../../core/layout/models/spyre';

export const I = (code: string, severity: Issue['severity'], message: string, field: string, extra?: { index?: number; fixes?: IssueFix[] }): Issue => ({
  code,
  severity,
  message,
  field,
  index: extra?.index,
  fixes: extra?.fixes,
});

/** SPY018 for bfloat16: the note every bfloat16 spec starts with. */
export const BF16_NOTE = I('SPY018', 'information', 'bfloat16 values are converted to DLFloat16 (lossy); device format SEN169_FP16', '@dtype');

/** The two fixes every layout that does not fit offers: `spyre()`, and the default layout written out. */
export const defaultFix = (deviceSize: string, dimMap: string): IssueFix[] => [
  { title: 'Use the default Spyre layout', field: '@layout', newText: 'spyre()', preferred: true },
  { title: `Use the default Spyre layout, written out (${deviceSize})`, field: '@layout', newText: `spyre(device_size=${deviceSize}, dim_map=${dimMap})` },
];

export const spec = (shape: number[], layout: SpyreLayoutSpec, more: Partial<SpyreSpec> = {}, dtype: DType = 'float16'): SpyreSpec => ({
  shape,
  dtype,
  layout,
  ...more,
});
export const byDefault = (dimOrder?: number[]): SpyreLayoutSpec => ({ kind: 'default', dimOrder });
export const byDimMap = (deviceSize: number[], dimMap: number[]): SpyreLayoutSpec => ({ kind: 'dim_map', deviceSize, dimMap });
export const byStrideMap = (deviceSize: number[], strideMap: number[]): SpyreLayoutSpec => ({ kind: 'stride_map', deviceSize, strideMap });
