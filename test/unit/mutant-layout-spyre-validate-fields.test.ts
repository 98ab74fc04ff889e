/**
 * validateSpyre on the fields around the layout (research layouts.md A.3, A.5, A.8): dtype, device_dtype,
 * host_strides, element_arrangement, dim_order, the base address. Each case pins the whole list of findings,
 * worked out by hand from the catalogue (codes, severities, messages, fields, indices, fixes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type SpyreSpec, validateSpyre } from '../../core/layout/models/spyre';
import type { Issue } from '../../core/layout/issues';
import { BF16_NOTE, byDefault, I, spec } from './helpers/mutant-spyre';

const SUPPORTED = 'supported: float16, bfloat16, bool, float32, int32, int64, int8, int16, float8_e4m3fn, float8_e5m2fnuz';

function check(cases: [string, SpyreSpec, Issue[]][]): void {
  for (const [what, s, want] of cases) assert.deepEqual(validateSpyre(s), want, what);
}

test('validateSpyre: unsupported dtypes stop at SPY009; converted dtypes say so (SPY018)', () => {
  check([
    // float64 has no device format; the misaligned base is not looked at after SPY009
    ['float64', spec([64], byDefault(), { base: 100 }, 'float64'), [I('SPY009', 'error', `Spyre does not support float64; ${SUPPORTED}`, '@dtype')]],
    [
      'uint8',
      spec([64], byDefault(), {}, 'uint8'),
      [I('SPY009', 'error', `Spyre does not support uint8 (it maps to SENUINT32, whose stick size is unknown); ${SUPPORTED}`, '@dtype')],
    ],
    [
      'quint8',
      spec([64], byDefault(), {}, 'quint8'),
      [I('SPY009', 'error', `Spyre does not support quint8 (it maps to SENUINT32, whose stick size is unknown); ${SUPPORTED}`, '@dtype')],
    ],
    // [64] bfloat16: one full stick ([1,64]), 128 B on both sides: only the conversion is said
    ['bfloat16', spec([64], byDefault(), {}, 'bfloat16'), [BF16_NOTE]],
    // float16 is converted too (IEEE → DLFloat16) but that is the normal case: nothing said
    ['float16', spec([64], byDefault()), []],
    // [32] int64: 32 per stick (int32 on the device): 128 B of device layout, 32·8 = 256 B on the host
    [
      'int64',
      spec([32], byDefault(), {}, 'int64'),
      [
        I('SPY018', 'warning', 'int64 is downcast to int32 (values outside ±2^31 are lost); device format IEEE_INT32', '@dtype'),
        I('SPY013', 'information', 'allocation is max(device bytes, host bytes) = 256 B (device layout 128 B): 128 B more than the layout uses', '@layout'),
      ],
    ],
    ['float32', spec([32], byDefault(), {}, 'float32'), []],
  ]);
});

test('validateSpyre: device_dtype must be the dtype’s device format (SPY019), with or without the DataFormats. prefix', () => {
  const fixes = [{ title: 'Use SEN169_FP16', field: 'device_dtype', newText: 'DataFormats.SEN169_FP16', preferred: true }];
  check([
    ['prefixed', spec([64], byDefault(), { deviceDtype: 'DataFormats.SEN169_FP16' }), []],
    ['lower case, no prefix', spec([64], byDefault(), { deviceDtype: 'sen169_fp16' }), []],
    [
      'unknown',
      spec([64], byDefault(), { deviceDtype: 'DataFormats.FOO' }),
      [I('SPY019', 'error', 'unknown device_dtype DataFormats.FOO; float16 is stored as SEN169_FP16', 'device_dtype', { fixes })],
    ],
    [
      'another format',
      spec([64], byDefault(), { deviceDtype: 'DataFormats.IEEE_FP32' }),
      [I('SPY019', 'error', 'device_dtype IEEE_FP32 does not match float16, which Spyre stores as SEN169_FP16', 'device_dtype', { fixes })],
    ],
  ]);
});

test('validateSpyre: host_strides have one integer ≥ 0 per host dim (SPY020)', () => {
  const rank = I('SPY020', 'error', 'host_strides has 2 entries but the tensor has rank 1', 'host_strides');
  const ints = I('SPY020', 'error', 'host strides must be integers ≥ 0', 'host_strides');
  check([
    ['too many', spec([64], byDefault(), { hostStrides: [1, 1] }), [rank]],
    ['too many, one fractional', spec([64], byDefault(), { hostStrides: [1.5, 2] }), [rank, ints]],
    ['negative', spec([2, 64], byDefault(), { hostStrides: [64, -1] }), [ints]],
    // stride 0 (an expanded dim) is allowed
    ['zero', spec([64], byDefault(), { hostStrides: [0] }), []],
  ]);
});

test('validateSpyre: element_arrangement is one of six; any but STANDARD leaves the slot in a stick unspecified (SPY014)', () => {
  check([
    ['prefixed STANDARD', spec([64], byDefault(), { elementArrangement: 'ElementArrangement.STANDARD' }), []],
    ['lower case', spec([64], byDefault(), { elementArrangement: 'standard' }), []],
    [
      'DL16_TO_FP32',
      spec([64], byDefault(), { elementArrangement: 'DL16_TO_FP32' }),
      [
        I(
          'SPY014',
          'information',
          'element_arrangement DL16_TO_FP32: the position of an element inside its stick is a hardware permutation; addresses below give the stick ' +
            'and mark the slot as unspecified',
          'element_arrangement',
        ),
      ],
    ],
    [
      'unknown',
      spec([64], byDefault(), { elementArrangement: 'FOO' }),
      [I('SPY014', 'error', 'unknown element_arrangement FOO; one of STANDARD, DL16_TO_FP32, FP32_TO_DL16, QFP8CH, QFP8WT, EXX2', 'element_arrangement')],
    ],
  ]);
});

test('validateSpyre: dim_order lists the host dims once each, optionally then −1 (SPY008); rank > 6 is noted (SPY015)', () => {
  const spy008 = (rank: number, order: string) =>
    I(
      'SPY008',
      'error',
      `Incompatible host_size and dim_order: dim_order must list the ${rank} host dims once each (decreasing stride, stick dim last)` +
        (rank > 0 ? `, optionally followed by −1 for a sparse layout, e.g. ${order}` : ''),
      'dim_order',
      { fixes: [{ title: 'Use the default dim order', field: 'dim_order', newText: order, preferred: true }] },
    );
  check([
    // [128,64] with dim 1 outermost: dim_map [0,1,0], device [2,64,64]: 8192 slots for 8192 elements, 16 KiB both sides
    ['a permutation', spec([128, 64], byDefault([1, 0])), []],
    ['a repeated dim', spec([128, 64], byDefault([0, 0])), [spy008(2, '[0, 1]')]],
    ['too short', spec([128, 64], byDefault([0])), [spy008(2, '[0, 1]')]],
    ['one more, not −1', spec([128, 64], byDefault([0, 1, 2])), [spy008(2, '[0, 1]')]],
    ['two more', spec([128, 64], byDefault([0, 1, -1, -1])), [spy008(2, '[0, 1]')]],
    ['a scalar given a dim', spec([], byDefault([0])), [spy008(0, '[]')]],
    // sparse [128,64] by dim order [1,0,−1]: dim_map [0,−1,1,−1], device [128,1,64,64]: 128·64 sticks = 1 MiB, 8192 of 524288
    // slots hold data = 1.5625 % → "1.6 %"
    [
      'sparse',
      spec([128, 64], byDefault([1, 0, -1])),
      [I('SPY012', 'warning', 'sparse layout: one element per 128-byte stick, 1.6 % of the device slots hold data (1 MiB)', '@layout')],
    ],
    // rank 7, all 1 but the stick: device [1,1,1,1,1,1,1,64], full
    [
      'rank 7',
      spec([1, 1, 1, 1, 1, 1, 64], byDefault()),
      [
        I(
          'SPY015',
          'information',
          'the generic default layout needs rank ≤ 6 in dim_map-era runtimes (this is rank 7); newer runtimes build it for any rank',
          '@layout',
        ),
      ],
    ],
    ['rank 6', spec([1, 1, 1, 1, 1, 64], byDefault()), []],
    // rank 6 with a trailing −1: the dim order has 7 entries, which is what the runtime counts; sparse: 64 sticks = 8,192 B,
    // 64 of 4096 slots
    [
      'rank 6, sparse',
      spec([1, 1, 1, 1, 1, 64], byDefault([0, 1, 2, 3, 4, 5, -1])),
      [
        I(
          'SPY015',
          'information',
          'the generic default layout needs rank ≤ 6 in dim_map-era runtimes (this is rank 7); newer runtimes build it for any rank',
          '@layout',
        ),
        I('SPY012', 'warning', 'sparse layout: one element per 128-byte stick, 1.6 % of the device slots hold data (8,192 B)', '@layout'),
      ],
    ],
  ]);
});

test('validateSpyre: a tensor starts on a 128-byte stick (SPY021), the fix rounds up', () => {
  check([
    [
      'base 100',
      spec([64], byDefault(), { base: 100 }),
      [
        I('SPY021', 'error', 'Spyre tensors start on a 128-byte stick boundary; 100 is not (use 0x80)', '@at', {
          fixes: [{ title: 'Round up to 0x80', field: '@at', newText: '0x80', preferred: true }],
        }),
      ],
    ],
    ['base 256', spec([64], byDefault(), { base: 256 }), []],
    ['base 0', spec([64], byDefault(), { base: 0 }), []],
  ]);
});
