/** Document URIs ↔ engine paths. `file:` URIs map to file-system paths; others to `/<scheme>/<authority><path>`. */
const known = new Map<string, string>();

export function uriToPath(uri: string): string {
  const m = /^([a-zA-Z][\w+.-]*):\/\/([^/]*)(.*)$/.exec(uri);
  if (!m) {
    known.set(uri, uri);
    return uri;
  }
  const [, scheme, authority, rest] = m;
  const path = decodeURIComponent(rest.split(/[?#]/)[0]);
  const p = scheme === 'file' ? path.replace(/^\/([A-Za-z]:)/, '$1') : `/${scheme}/${authority}${path}`;
  known.set(p, uri);
  return p;
}

export function pathToUri(path: string): string {
  const k = known.get(path);
  if (k) return k;
  return 'file://' + path.split('/').map(encodeURIComponent).join('/');
}
