/** Document URIs ↔ engine paths. `file:` URIs map to file-system paths; others to `/<scheme>/<authority><path>`. */
const known = new Map<string, string>();
/** `/<scheme>/<authority>` → `<scheme>://<authority>` for every non-`file:` URI seen: a path under one (a `.p` beside a virtual `.m`) maps back to its scheme. */
const virtualRoots = new Map<string, string>();

export function uriToPath(uri: string): string {
  const m = /^([a-zA-Z][\w+.-]*):\/\/([^/]*)(.*)$/.exec(uri);
  if (!m) {
    known.set(uri, uri);
    return uri;
  }
  const [, scheme, authority, rest] = m;
  const path = decodeURIComponent(rest.split(/[?#]/)[0]);
  if (scheme !== 'file') virtualRoots.set(`/${scheme}/${authority}`, `${scheme}://${authority}`);
  const p = scheme === 'file' ? path.replace(/^\/([A-Za-z]:)/, '$1') : `/${scheme}/${authority}${path}`;
  known.set(p, uri);
  return p;
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

export function pathToUri(path: string): string {
  const k = known.get(path);
  if (k) return k;
  const [, scheme, authority] = /^\/([^/]+)\/([^/]*)/.exec(path) ?? [];
  const root = scheme !== undefined ? virtualRoots.get(`/${scheme}/${authority}`) : undefined;
  if (root) return root + encodePath(path.slice(scheme.length + authority.length + 2));
  // a URI without an authority (`memfs:/a/b.m`) is its own path: a sibling keeps the scheme (two letters at least: not a drive)
  const bare = /^([a-zA-Z][\w+.-]+):(\/.*)$/.exec(path);
  if (bare) return `${bare[1]}:${encodePath(bare[2])}`;
  return 'file://' + encodePath(path);
}

/** Whether `path` is a file-system path (its URI is `file:`), which a host with a file system reads itself. */
export function isFilePath(path: string): boolean {
  return pathToUri(path).startsWith('file:');
}
