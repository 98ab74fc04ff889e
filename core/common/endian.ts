/** True on little-endian hosts (all current JS engines); typed-array views of little-endian file data assume it. */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
