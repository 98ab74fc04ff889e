/**
 * tree-sitter-c loading (the wasm bytes or paths come from the caller, so core/ needs no Node
 * module) and conversion of a tree-sitter tree into plain JS nodes, so nothing keeps wasm
 * memory alive after compilation.
 */
import { Language, Parser } from 'web-tree-sitter';

export interface WasmSources {
  /** web-tree-sitter's runtime wasm: bytes, or a path/URL the runtime can load. */
  runtime: Uint8Array | string;
  /** tree-sitter-c.wasm: bytes, or a path/URL. */
  c: Uint8Array | string;
}

export type WasmLoader = () => Promise<WasmSources>;

let ready: Promise<Parser> | undefined;

/** The shared C parser (the first loader given wins; later calls reuse it). */
export function cParser(load: WasmLoader): Promise<Parser> {
  ready ??= (async () => {
    const w = await load();
    if (typeof w.runtime === 'string') {
      const path = w.runtime;
      await Parser.init({ locateFile: () => path });
    } else {
      // the wasm bytes themselves (Emscripten's wasmBinary, which web-tree-sitter's option type does not list)
      const opts: object = { wasmBinary: w.runtime };
      await Parser.init(opts);
    }
    const lang = await Language.load(w.c);
    const p = new Parser();
    p.setLanguage(lang);
    return p;
  })();
  ready.catch(() => {
    ready = undefined;
  });
  return ready;
}

/** A syntax node: tree-sitter's node type, offsets in the parsed text, children with field names. */
export interface N {
  type: string;
  named: boolean;
  start: number;
  end: number;
  field: string | null;
  kids: N[];
  missing: boolean;
  /** Sequential id within the tree (for per-node caches). */
  id: number;
}

let nextId = 1;

/** Parses `text` and converts the tree (the wasm tree is deleted). */
export function parseToNodes(parser: Parser, text: string): N {
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  const cur = tree.walk();
  const mk = (): N => ({
    type: cur.nodeType,
    named: cur.nodeIsNamed,
    start: cur.startIndex,
    end: cur.endIndex,
    field: cur.currentFieldName,
    kids: [],
    missing: cur.nodeIsMissing,
    id: nextId++,
  });
  // iterative (pre-order ids, as a recursive walk would give): deeply nested C must not overflow the JS stack
  const conv = (): N => {
    const root = mk();
    const path: N[] = [root];
    for (;;) {
      if (cur.gotoFirstChild()) {
        const c = mk();
        path[path.length - 1].kids.push(c);
        path.push(c);
        continue;
      }
      for (;;) {
        if (path.length === 1) return root;
        path.pop();
        if (cur.gotoNextSibling()) {
          const c = mk();
          path[path.length - 1].kids.push(c);
          path.push(c);
          break;
        }
        cur.gotoParent();
      }
    }
  };
  try {
    return conv();
  } finally {
    cur.delete();
    tree.delete();
  }
}

export function field(n: N, name: string): N | undefined {
  for (const k of n.kids) if (k.field === name) return k;
  return undefined;
}

export function fields(n: N, name: string): N[] {
  return n.kids.filter((k) => k.field === name);
}

export function named(n: N): N[] {
  return n.kids.filter((k) => k.named && k.type !== 'comment');
}

/** Calls `visit` on `n` and every node below it (pre-order, without recursion). */
export function eachNode(n: N, visit: (x: N) => void): void {
  const todo: N[] = [n];
  for (let x = todo.pop(); x; x = todo.pop()) {
    visit(x);
    for (let i = x.kids.length - 1; i >= 0; i--) todo.push(x.kids[i]);
  }
}

/** First error or missing node (depth first), if any. */
export function firstError(n: N): N | undefined {
  // iterative: deeply nested C must not overflow the JS stack
  const todo: N[] = [n];
  for (let x = todo.pop(); x; x = todo.pop()) {
    if (x.type === 'ERROR' || x.missing) return x;
    for (let i = x.kids.length - 1; i >= 0; i--) todo.push(x.kids[i]);
  }
  return undefined;
}
