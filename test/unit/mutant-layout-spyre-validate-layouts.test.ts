/**
 * validateSpyre on the layout itself (research layouts.md A.5–A.8): device_size against dim_map/stride_map
 * (SPY001, SPY002, SPY007), the dim_map rules (SPY003–SPY006), the stride_map count (SPY010), and the
 * warnings of valid layouts (SPY011–SPY013, SPY016). Each case pins the whole list of findings, worked out by
 * hand: device bytes = 128 · prod(device_size without the stick), slots = prod(device_size), percentages
 * with one decimal (two below 1 %).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type SpyreSpec, validateSpyre } from '../../core/layout/models/spyre';
import type { Issue } from '../../core/layout/issues';
import { BF16_NOTE, byDefault, byDimMap, byStrideMap, defaultFix, I, spec } from './helpers/mutant-spyre';

function check(cases: [string, SpyreSpec, Issue[]][]): void {
  for (const [what, s, want] of cases) assert.deepEqual(validateSpyre(s), want, what);
}

// the default layouts of the shapes below (A.5): [64] → [1,64] dim_map [0,0]; [2,64] → [1,2,64] dim_map [1,0,1]
const FIX_64 = defaultFix('[1, 64]', '[0, 0]');

test('validateSpyre: device_size against the map: lengths (SPY001), sizes (SPY007), the stick (SPY002), and nothing further', () => {
  const stick = (j: number, got: number) =>
    I('SPY002', 'error', `the last device dim is the stick: device_size[${j}] must be 64 (elements of float16 per 128-byte stick), not ${got}`, 'device_size', {
      index: j,
      fixes: [{ title: 'Set the stick size to 64', field: 'device_size', index: j, newText: '64', preferred: true }],
    });
  check([
    [
      'one device dim, two map entries',
      spec([64], byDimMap([64], [0, 0])),
      [
        I('SPY001', 'error', 'device_size has 1 entries but dim_map has 2; they must have the same length (the device rank)', 'dim_map', { fixes: FIX_64 }),
        I('SPY001', 'error', 'a Spyre layout has at least 2 device dims (sticks and elements in a stick); device_size has 1', 'device_size', { fixes: FIX_64 }),
      ],
    ],
    [
      'every structural error at once',
      spec([64], byStrideMap([2, 0, 1.5, 32], [1, 1, 1])),
      [
        I('SPY001', 'error', 'device_size has 4 entries but stride_map has 3; they must have the same length (the device rank)', 'stride_map', {
          fixes: FIX_64,
        }),
        I('SPY007', 'error', 'device_size[1] is 0; every device size must be an integer ≥ 1', 'device_size', { index: 1 }),
        I('SPY007', 'error', 'device_size[2] is 1.5; every device size must be an integer ≥ 1', 'device_size', { index: 2 }),
        stick(3, 32),
      ],
    ],
    // the map's entries are not looked at once device_size is wrong (the dim_map entry 5 is out of range for rank 1)
    ['only the stick', spec([64], byDimMap([1, 32], [0, 5])), [stick(1, 32)]],
    [
      'only the lengths',
      spec([64], byDimMap([1, 64], [0, 0, 5])),
      [I('SPY001', 'error', 'device_size has 2 entries but dim_map has 3; they must have the same length (the device rank)', 'dim_map', { fixes: FIX_64 })],
    ],
    [
      'only a size, not the map',
      spec([64], byDimMap([0, 64], [0, 5])),
      [I('SPY007', 'error', 'device_size[0] is 0; every device size must be an integer ≥ 1', 'device_size', { index: 0 })],
    ],
    // a zero size is not followed by the capacity check (host dim 0 would have 0 < 64)
    [
      'only a size',
      spec([64], byDimMap([0, 64], [0, 0])),
      [I('SPY007', 'error', 'device_size[0] is 0; every device size must be an integer ≥ 1', 'device_size', { index: 0 })],
    ],
  ]);
});

test('validateSpyre: dim_map entries (SPY003), every host dim mapped (SPY004), −1 only for a sparse stick (SPY005)', () => {
  const range = (j: number, d: number) =>
    I('SPY003', 'error', `dim_map[${j}] is ${d}; entries are host dims 0..0 or −1 (synthetic sparse dim)`, 'dim_map', { index: j });
  check([
    // host rank 1: 1 is out of range; the missing host dim 0 is not reported after it
    ['out of range', spec([64], byDimMap([1, 64], [1, 1])), [range(0, 1), range(1, 1)]],
    ['below −1 and fractional', spec([64], byDimMap([1, 64], [-2, 0.5])), [range(0, -2), range(1, 0.5)]],
    [
      'a host dim missing',
      spec([2, 64], byDimMap([2, 64], [1, 1])),
      [
        I('SPY004', 'error', 'host dim 0 (size 2) does not appear in dim_map; every host dim, size-1 dims included, needs at least one device dim', 'dim_map', {
          fixes: defaultFix('[1, 2, 64]', '[1, 0, 1]'),
        }),
      ],
    ],
    [
      '−1 with a mapped stick',
      spec([3], byDimMap([1, 3, 64], [-1, 0, 0])),
      [
        I(
          'SPY005',
          'error',
          'dim_map has a −1 (synthetic dim) but its last entry is 0: −1 only marks a sparse stick, so the stick dim dim_map[2] must be −1',
          'dim_map',
          { index: 2 },
        ),
      ],
    ],
    [
      'a synthetic dim of size 2',
      spec([3], byDimMap([2, 3, 64], [-1, 0, -1])),
      [
        I('SPY005', 'error', 'device dim 0 is synthetic (dim_map −1) and must have device_size 1, not 2', 'device_size', {
          index: 0,
          fixes: [{ title: 'Set it to 1', field: 'device_size', index: 0, newText: '1', preferred: true }],
        }),
      ],
    ],
    // notes before the rules (bfloat16's conversion) do not stop them
    [
      'after a note',
      spec([2, 64], byDimMap([2, 64], [1, 1]), {}, 'bfloat16'),
      [
        BF16_NOTE,
        I('SPY004', 'error', 'host dim 0 (size 2) does not appear in dim_map; every host dim, size-1 dims included, needs at least one device dim', 'dim_map', {
          fixes: defaultFix('[1, 2, 64]', '[1, 0, 1]'),
        }),
      ],
    ],
    // valid sparse [3]: 3 sticks (384 B), one element each: 3 of 192 slots = 1.5625 % → "1.6 %"
    [
      'sparse',
      spec([3], byDimMap([1, 3, 64], [-1, 0, -1])),
      [I('SPY012', 'warning', 'sparse layout: one element per 128-byte stick, 1.6 % of the device slots hold data (384 B)', '@layout')],
    ],
  ]);
});

test('validateSpyre: a host dim whose device dims hold too few elements (SPY006), with the size that would fit', () => {
  check([
    // S1's device [256,8,128,64] for host dim 2 of 600: device dims 1 and 3 hold 8·64 = 512; the outer one needs ⌈600/64⌉ = 10
    [
      'a tiled dim',
      spec([128, 256, 600], byDimMap([256, 8, 128, 64], [1, 2, 0, 2])),
      [
        I('SPY006', 'error', 'host dim 2 has 600 elements but its device dims 1 (8) × 3 (64) hold only 512: elements 512..599 are unreachable', 'device_size', {
          index: 1,
          fixes: [{ title: 'Set device_size[1] to 10', field: 'device_size', index: 1, newText: '10', preferred: true }],
        }),
      ],
    ],
    [
      'one device dim',
      spec([128, 64], byDimMap([100, 64], [0, 1])),
      [
        I('SPY006', 'error', 'host dim 0 has 128 elements but its device dims 0 (100) hold only 100: elements 100..127 are unreachable', 'device_size', {
          index: 0,
          fixes: [{ title: 'Set device_size[0] to 128', field: 'device_size', index: 0, newText: '128', preferred: true }],
        }),
      ],
    ],
    // only the stick holds host dim 1 (100 > 64): the stick size is fixed (SPY002), so the fix is a layout with a tile dim,
    // the default one: [5,100] → [⌈100/64⌉, 5, 64] = [2,5,64], dim_map [1,0,1]
    [
      'only the stick',
      spec([5, 100], byDimMap([5, 64], [0, 1])),
      [
        I('SPY006', 'error', 'host dim 1 has 100 elements but its device dims 1 (64) hold only 64: elements 64..99 are unreachable', 'device_size', {
          index: 1,
          fixes: defaultFix('[2, 5, 64]', '[1, 0, 1]'),
        }),
      ],
    ],
  ]);
});

test('validateSpyre: stride_map entries (SPY010) and the count of host elements it stores', () => {
  // for a [numel] host of 65..128 elements, whose default layout is [2,64] dim_map [0,0]
  const tooFew = (reached: number, numel: number) =>
    I(
      'SPY010',
      'error',
      `the stride_map reaches ${reached} of the ${numel} host elements exactly once; ${numel - reached} cannot be stored (capacity too small, or slots ` +
        'alias each other)',
      'stride_map',
      { fixes: defaultFix('[2, 64]', '[0, 0]') },
    );
  check([
    [
      'entries below −1 and fractional',
      spec([64], byStrideMap([2, 64], [-2, 1.5])),
      [
        I('SPY010', 'error', 'stride_map[0] is -2; entries are −1 (no host dim), 0 (broadcast) or a host stride > 0', 'stride_map', { index: 0 }),
        I('SPY010', 'error', 'stride_map[1] is 1.5; entries are −1 (no host dim), 0 (broadcast) or a host stride > 0', 'stride_map', { index: 1 }),
      ],
    ],
    // bad host strides stop before the stride_map is matched against them
    [
      'bad host strides',
      spec([64], byStrideMap([1, 64], [-1, 1]), { hostStrides: [-1] }),
      [I('SPY020', 'error', 'host strides must be integers ≥ 0', 'host_strides')],
    ],
    // h = 32a + b over [3,64]: not a tiling (32 is neither 64 nor min(64, 128)); canonical slots have b < 32: 96 of 128;
    // the default of [128] is [2,64] dim_map [0,0]
    ['aliasing', spec([128], byStrideMap([3, 64], [32, 1])), [tooFew(96, 128)]],
    // A.7.3's non-nesting [4800] → [3,2,14,64], sm [120,64,360,1]: no dim_map, but every element once; 5376 slots, 89 % used,
    // 128·84 = 10,752 B ≥ 9,600 B of host data, 4800 = 75·64 (no stick padding to report: there is no stick dim)
    ['non-nesting', spec([4800], byStrideMap([3, 2, 14, 64], [120, 64, 360, 1])), []],
    // a broadcast dim of 2 over [4096,64]: 4096·64 = 262,144 active slots, the limit: enumerated, every element once;
    // 262,144 of 524,288 slots is exactly half: no warning
    ['broadcast at the enumeration limit', spec([4096, 64], byStrideMap([2, 4096, 64], [0, 64, 1])), []],
    // one row more: 4097·64 = 262,208 active slots (the broadcast dim does not count) is past the limit
    [
      'past the enumeration limit',
      spec([4097, 64], byStrideMap([2, 4097, 64], [0, 64, 1])),
      [
        I(
          'SPY010',
          'information',
          'stride_map not verified: it is not a tiling of the host dims and has 262,208 device slots to enumerate (limit 262,144)',
          'stride_map',
        ),
      ],
    ],
    // h = 1000a + b over [8,64]: not a tiling (1000 is neither 64 nor min(64, 100)); only a = 0 lands in [100]: 64 of 100.
    // Nothing else is said of a layout in error (it would be "only 19.5 % of the 512 slots")
    ['too few, mostly past the end', spec([100], byStrideMap([8, 64], [1000, 1])), [tooFew(64, 100)]],
    // S1 given as its stride_map: a tiling (dim_map [1,2,0,2]), so its 16,777,216 slots are not enumerated
    ['S1', spec([128, 256, 512], byStrideMap([256, 8, 128, 64], [512, 64, 131072, 1])), []],
    // S2's view (A.10): host [100,200,500] with strides [131072,512,1] in S1's device: the tiling [1,2,0,2] of the given
    // strides (not of the row-major ones, [100000,500,1], against which 131072 matches nothing); 10,000,000 of 16,777,216
    // slots (59.6 %); the stick dim 500 is padded to 512: 12/512 = 2.34375 %
    [
      'S2 view',
      spec([100, 200, 500], byStrideMap([256, 8, 128, 64], [512, 64, 131072, 1]), { hostStrides: [131072, 512, 1] }),
      [I('SPY012', 'information', "the stick dim (host dim 2, size 500) is padded to 512: 2.3 % of its sticks' slots are padding", '@layout')],
    ],
    // the non-nesting [4800] with two size-1 dims after it: still no dim_map, so no stick dim to warn about (host dims 1 and 2
    // have size 1 but neither is a stick)
    ['non-nesting, size-1 dims', spec([4800, 1, 1], byStrideMap([3, 2, 14, 64], [120, 64, 360, 1])), []],
    // [64] in 4 tiles of 64 (a tiling, dim_map [0,0]): 64 of 256 slots = 25 %, 4 sticks = 512 B for 128 B of values;
    // the fix is the default [1,64]
    [
      'a tiling with 3 empty tiles',
      spec([64], byStrideMap([4, 64], [64, 1])),
      [I('SPY012', 'warning', 'only 25.0 % of the 256 device slots hold data (512 B for 128 B of values)', '@layout', { fixes: FIX_64 })],
    ],
    // the same after a note
    [
      'a tiling with 3 empty tiles, bfloat16',
      spec([64], byStrideMap([4, 64], [64, 1]), {}, 'bfloat16'),
      [BF16_NOTE, I('SPY012', 'warning', 'only 25.0 % of the 256 device slots hold data (512 B for 128 B of values)', '@layout', { fixes: FIX_64 })],
    ],
  ]);
});

test('validateSpyre: warnings and notes of valid layouts (SPY011, SPY012, SPY016)', () => {
  // [8,1] in [1,8,64] dim_map [1,0,1]: 8 sticks = 1,024 B, 8 of 512 slots, 16 B of values; the fix (the default layout)
  // happens to be this layout
  const STICK_OF_1 = [
    I(
      'SPY011',
      'warning',
      'the stick dim (host dim 1) has size 1: every stick holds one element, like a sparse layout — 64× the memory (1,024 B for 8 elements)',
      '@layout',
    ),
    I('SPY012', 'warning', 'only 1.6 % of the 512 device slots hold data (1,024 B for 16 B of values)', '@layout', {
      fixes: defaultFix('[1, 8, 64]', '[1, 0, 1]'),
    }),
  ];
  const spy016 = I(
    'SPY016',
    'information',
    "512 MiB is more than the 256 MiB one core can address contiguously: the compiler must divide the work so each core's span fits",
    '@layout',
  );
  check([
    // [512,256,1]: dim_map [1,2,0,2], device [256,1,512,64]: 128·256·512 = 16 MiB for 131,072 elements; slots 8,388,608,
    // used 1/64 = 1.5625 % → "1.6 %"; values 131072·2 = 256 KiB
    [
      'stick dim of size 1',
      spec([512, 256, 1], byDefault()),
      [
        I(
          'SPY011',
          'warning',
          'the stick dim (host dim 2) has size 1: every stick holds one element, like a sparse layout — 64× the memory (16 MiB for 131,072 elements)',
          '@shape',
        ),
        I('SPY012', 'warning', 'only 1.6 % of the 8,388,608 device slots hold data (16 MiB for 256 KiB of values)', '@layout'),
      ],
    ],
    // the same as a dim_map
    ['stick dim of size 1, dim_map', spec([8, 1], byDimMap([1, 8, 64], [1, 0, 1])), STICK_OF_1],
    // [1]: one element in one stick [1,64]
    [
      'one element',
      spec([1], byDefault()),
      [
        I(
          'SPY011',
          'warning',
          'the stick dim (host dim 0) has size 1: every stick holds one element, like a sparse layout — 64× the memory (128 B for 1 element)',
          '@shape',
        ),
        I('SPY012', 'warning', 'only 1.6 % of the 64 device slots hold data (128 B for 2 B of values)', '@layout'),
      ],
    ],
    // bfloat16 [8,1] in [1,8,64] dim_map [1,0,1]: the note, then the warnings of the float16 case above
    ['stick dim of size 1, dim_map, bfloat16', spec([8, 1], byDimMap([1, 8, 64], [1, 0, 1]), {}, 'bfloat16'), [BF16_NOTE, ...STICK_OF_1]],
    // a scalar: one stick [1,64], 1 of 64 slots; not called sparse (there is no host dim)
    ['scalar', spec([], byDefault()), [I('SPY012', 'warning', 'only 1.6 % of the 64 device slots hold data (128 B for 2 B of values)', '@layout')]],
    // [5,100,150]: device [100,3,5,64], 75,000 of 96,000 slots; the stick dim 150 is padded to 3·64 = 192: 42/192 = 21.875 %
    [
      'stick padding',
      spec([5, 100, 150], byDefault()),
      [I('SPY012', 'information', "the stick dim (host dim 2, size 150) is padded to 192: 21.9 % of its sticks' slots are padding", '@layout')],
    ],
    // [32]: one stick half full: exactly 50 % is not "only", it is stick padding 32/64
    [
      'half a stick',
      spec([32], byDefault()),
      [I('SPY012', 'information', "the stick dim (host dim 0, size 32) is padded to 64: 50.0 % of its sticks' slots are padding", '@layout')],
    ],
    // empty tensors: [0,100] → device [2,0,64], no slots at all; only the stick padding of 100 → 128 (28/128 = 21.875 %)
    [
      'empty',
      spec([0, 100], byDefault()),
      [I('SPY012', 'information', "the stick dim (host dim 1, size 100) is padded to 128: 21.9 % of its sticks' slots are padding", '@layout')],
    ],
    // [0,1] → device [1,0,64]: a stick of size 1 (SPY011), with nothing to pad
    [
      'empty, stick of 1',
      spec([0, 1], byDefault()),
      [
        I(
          'SPY011',
          'warning',
          'the stick dim (host dim 1) has size 1: every stick holds one element, like a sparse layout — 64× the memory (0 B for 0 elements)',
          '@shape',
        ),
      ],
    ],
    // [4096,65536]: device [1024,4096,64]: 128·1024·4096 = 512 MiB > 256 MiB; [2048,65536] is exactly 256 MiB
    ['512 MiB', spec([4096, 65536], byDefault()), [spy016]],
    ['256 MiB', spec([2048, 65536], byDefault()), []],
  ]);
});
