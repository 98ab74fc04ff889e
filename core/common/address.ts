/**
 * `0x…` of a byte address as a C program holds it: 32-bit, so a value computed as a negative int
 * (a `uint32_t` past 0x7fffffff, or a negative constant) is shown as its unsigned 32-bit view.
 */
export function byteAddress(n: number): string {
  const v = n < 0 && n >= -0x80000000 ? n >>> 0 : n;
  return v < 0 ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`;
}
