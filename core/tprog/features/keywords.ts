/** Short documentation of tensor-statement keywords (hover and completion). */
export const KEYWORD_DOCS: Record<string, string> = {
  PCORE:
    '`PCORE(n)[p].THREAD[t].class::var[...]` — PCORE memory: 12-bit words, private per thread (256 words) or `_share`d per PCORE. Word address = ' +
    'pcore·4096 + thread·256 + offset.',
  MEM:
    '`MEM(address, d0, d1, ...)[r0][r1]...` — external DDR memory, byte address; dimensions in elements. Out-of-bound reads give the PAD value, ' +
    'out-of-bound writes are skipped. The guide calls it `DDR`.',
  DDR: "`DDR(pointer, dims...)` — the programmer guide's name of `MEM` (the ztachip compiler only accepts `MEM`).",
  SCRATCH: '`SCRATCH(offset, dims...)[...]` — 32 KB scratch-pad memory, byte offset; DTYPE optional (INT16).',
  SPU: '`SPU <= DTYPE(INT16)MEM(lut, n*SPU_LOOKUP_SIZE)[:]` — load the stream-processor (REMAP) lookup tables.',
  PROG: '`PROG(n) <= DTYPE(INT16)MEM(code, ...)[:]` — load PCORE program code (n entries of 4 words).',
  THREAD: '`.THREAD[t]` or `.THREAD(a,b)[t0][t1]` — thread block of a private PCORE variable (16 threads per PCORE).',
  DTYPE:
    '`DTYPE(INT16|INT8|UINT8|var)` — element type of the term; both sides of a transfer must name the same type. The guide writes `(fmt)` before the term.',
  FOR:
    '`FOR(I=b:e)` — makes the index written `[I]` an outer loop: FOR indices are iterated outermost (first FOR outermost), then the other indices left ' +
    'to right, rightmost innermost.',
  PAD: '`PAD(v)` — value read for out-of-bound source elements and after the source is exhausted (default 0).',
  CONCURRENT:
    '`CONCURRENT` — interleave the transfer across PCOREs through SCRATCH (performance only; overwrites SCRATCH from address 0). The guide calls it ' +
    '`SCATTER(0)`.',
  SCATTER: "`SCATTER(0)` — the guide's name of `CONCURRENT`.",
  REMAP: '`REMAP(n)` — pass PCORE-side values through stream-processor table n (0..3; negative disables). The guide writes `<= PROC(n) <=`.',
  PROC: "`A <= PROC(n) <= B` — the guide's stream processing; the compiler writes `REMAP(n)` on the PCORE term.",
  LATEST: "`LATEST` (source) — wait for outstanding transfers on the source's memory space before reading.",
  REPEAT: '`REPEAT` (source) — restart the source when it is exhausted.',
  EXE_LOCKSTEP:
    '`EXE_LOCKSTEP(class::kernel, num_pcore[, num_thread])` — run a PCORE kernel on PCOREs 0..num_pcore-1 and threads 0..num_thread-1 (default 16) of ' +
    'this process. One argument = a prebuilt command word from `ztaBuildKernelFunc`.',
  EXE: '`EXE(class::kernel, num_pcore[, num_thread])` — like EXE_LOCKSTEP, PCOREs run one after another (same result).',
  BARRIER: '`BARRIER` — wait until all outstanding transfers are complete.',
  CALLBACK: '`CALLBACK(function, parm)` — post an indication to the host when all queued work is done.',
  PRINT: '`PRINT(a, b)` — debug print of two integers.',
  LOG_ON: '`LOG_ON` — start tensor-engine activity logging.',
  LOG_OFF: '`LOG_OFF` — stop tensor-engine activity logging.',
  NOP: '`NOP` — no operation.',
  EXPORT: '`EXPORT(name)` — record a name in the `.hex` export section (compile time only).',
  VAR: '`VAR $a, $b;` — declare tensor-variable names at this brace depth so definitions in inner blocks survive.',
  INT16: '`INT16` — signed 16-bit elements (code 3). As a term, `INT16(v)` is a constant source.',
  INT8: '`INT8` — signed 8-bit elements (code 2). As a term, `INT8(v)` is a constant source.',
  UINT8: '`UINT8` — unsigned 8-bit elements (code 4).',
};

export const STATEMENT_KEYWORDS = ['EXE_LOCKSTEP', 'EXE', 'BARRIER', 'CALLBACK', 'PRINT', 'LOG_ON', 'LOG_OFF', 'NOP', 'EXPORT', 'VAR'];
export const PREFIX_KEYWORDS = ['DTYPE', 'FOR', 'PAD', 'CONCURRENT', 'REMAP', 'LATEST', 'REPEAT'];
export const SPACE_KEYWORDS = ['PCORE', 'MEM', 'SCRATCH', 'SPU', 'PROG', 'INT16', 'INT8'];
export const DATA_TYPES = ['INT16', 'INT8', 'UINT8'];
