/** Bytes ↔ base64 for what crosses a JSON boundary (LSP requests, webview messages); the same in Node and in a browser. */
export function toBase64(b: Uint8Array): string {
  let s = '';
  // in chunks: String.fromCharCode(...b) of a large array overflows the call stack
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(s: string): Uint8Array {
  if (!s) return new Uint8Array(0);
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
