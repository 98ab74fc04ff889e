/**
 * C types from declaration syntax: specifiers (primitive, sized, typedef names, struct/union layout,
 * enum constants), declarators (pointers, arrays with constant sizes, function types and their
 * parameter lists), type names in casts and sizeof, and typedefs.
 */
import {
  DOUBLE,
  INT,
  LLONG,
  LONG,
  SCHAR,
  SHORT,
  UCHAR,
  UINT,
  ULLONG,
  ULONG,
  USHORT,
  arr,
  layout,
  primitive,
  ptr,
  type CType,
  type FnT,
  type StructT,
} from '../ctypes';
import type { Cx } from '../scope';
import { field, fields, named, type N } from '../syntax';
import { bad, type CompileContext, type Decl, type ParamD, type Specs } from './context';

export function specs(cc: CompileContext, n: N, cx: Cx): Specs {
  const storage = new Set<string>();
  let t: CType | undefined;
  for (const k of n.kids) {
    if (k.type === 'storage_class_specifier') storage.add(cc.text(k, cx));
    else if (k.field === 'type') t = typeSpec(cc, k, cx);
  }
  if (!t) bad(cx.src.loc(n), 'declaration without a type');
  return { t, storage };
}

export function typeSpec(cc: CompileContext, n: N, cx: Cx): CType {
  const loc = cx.src.loc(n);
  switch (n.type) {
    case 'primitive_type': {
      const t = primitive(cc.text(n, cx), cc.charT);
      if (!t) bad(loc, `unknown type '${cc.text(n, cx)}'`);
      return t;
    }
    case 'sized_type_specifier': {
      let unsigned = false;
      let longs = 0;
      let short = false;
      let base = '';
      for (const k of n.kids) {
        const w = k.field === 'type' ? cc.text(k, cx) : k.type;
        if (w === 'unsigned') unsigned = true;
        else if (w === 'long') longs++;
        else if (w === 'short') short = true;
        else if (w === 'signed') unsigned = false;
        else if (k.field === 'type') base = w;
      }
      if (base === 'char') return unsigned ? UCHAR : SCHAR;
      if (base === 'double' || base === 'float') return DOUBLE;
      if (short) return unsigned ? USHORT : SHORT;
      if (longs >= 2) return unsigned ? ULLONG : LLONG;
      if (longs === 1) return unsigned ? ULONG : LONG;
      return unsigned ? UINT : INT;
    }
    case 'type_identifier': {
      const name = cc.text(n, cx);
      const s = cx.scope.lookup(name);
      if (s?.k === 'type') return s.t;
      return bad(loc, `unknown type name '${name}'`);
    }
    case 'struct_specifier':
    case 'union_specifier':
      return structSpec(cc, n, cx);
    case 'enum_specifier':
      return enumSpec(cc, n, cx);
    case 'macro_type_specifier':
      return bad(loc, `not simulated: macro type specifier '${cc.text(n, cx)}'`, 'not-simulated');
  }
  return bad(loc, `not simulated: type ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
}

export function structSpec(cc: CompileContext, n: N, cx: Cx): StructT {
  const union = n.type === 'union_specifier';
  const nameN = field(n, 'name');
  const body = field(n, 'body');
  const tag = nameN ? cc.text(nameN, cx) : undefined;
  const mk = (): StructT => ({ k: 'struct', tag, union, fields: [], size: 0, align: 1, complete: false });
  if (!body) {
    if (!tag) bad(cx.src.loc(n), 'anonymous struct without a body');
    const found = cx.scope.tag(tag);
    if (found && found !== 'enum') return found;
    const s = mk();
    (cx.scope.parent ? cx.scope : cc.global).tags.set(tag, s);
    return s;
  }
  let s: StructT | undefined;
  if (tag) {
    const cur = cx.scope.tags.get(tag);
    if (cur && cur !== 'enum' && !cur.complete) s = cur;
  }
  if (!s) {
    s = mk();
    if (tag) cx.scope.tags.set(tag, s);
  }
  const fl: { name: string; t: CType }[] = [];
  for (const fd of named(body)) {
    if (fd.type !== 'field_declaration') continue;
    const sp = specs(cc, fd, cx);
    if (fd.kids.some((k) => k.type === 'bitfield_clause')) cc.badStructs.set(s, 'bit-fields');
    const ds = fields(fd, 'declarator');
    if (ds.length === 0 && sp.t.k === 'struct') fl.push({ name: '', t: sp.t });
    for (const dn of ds) {
      const d = declarator(cc, sp.t, dn, cx);
      fl.push({ name: d.name ?? '', t: d.t });
    }
  }
  return layout(s, fl);
}

export function enumSpec(cc: CompileContext, n: N, cx: Cx): CType {
  const body = field(n, 'body');
  const nameN = field(n, 'name');
  if (nameN) cx.scope.tags.set(cc.text(nameN, cx), 'enum');
  if (body) {
    let next = 0;
    for (const en of named(body)) {
      if (en.type !== 'enumerator') continue;
      const nm = cc.text(field(en, 'name')!, cx);
      const vn = field(en, 'value');
      const v = vn ? cc.constEval(vn, cx) : next;
      cx.scope.syms.set(nm, { k: 'const', t: INT, v });
      next = v + 1;
    }
  }
  return INT;
}

/** Derives the declared name and type from a declarator. */
export function declarator(cc: CompileContext, t: CType, n: N | undefined, cx: Cx): Decl {
  if (!n) return { t };
  switch (n.type) {
    case 'identifier':
    case 'field_identifier':
    case 'type_identifier':
      return { name: cc.text(n, cx), t };
    case 'pointer_declarator':
    case 'abstract_pointer_declarator':
      return declarator(cc, ptr(t), field(n, 'declarator'), cx);
    case 'array_declarator':
    case 'abstract_array_declarator': {
      const sz = field(n, 'size');
      let count: number | undefined;
      if (sz) {
        if (sz.type === '*') bad(cx.src.loc(n), 'not simulated: variable-length array', 'not-simulated');
        const e = cc.rval(sz, cx);
        if (e.k === undefined) bad(cx.src.loc(sz), 'not simulated: variable-length array (size is not a constant)', 'not-simulated');
        count = e.k;
        if (count < 0) bad(cx.src.loc(sz), 'array size is negative');
      }
      return declarator(cc, arr(t, count), field(n, 'declarator'), cx);
    }
    case 'function_declarator':
    case 'abstract_function_declarator': {
      const pl = field(n, 'parameters');
      const ps = pl ? paramList(cc, pl, cx) : { list: [] as ParamD[], variadic: false, proto: false };
      const ft: FnT = { k: 'fn', ret: t, params: ps.proto ? ps.list.map((p) => p.t) : undefined, variadic: ps.variadic };
      const inner = field(n, 'declarator');
      const d = declarator(cc, ft, inner, cx);
      if (!d.params && inner && (inner.type === 'identifier' || (inner.type === 'parenthesized_declarator' && named(inner)[0]?.type === 'identifier')))
        d.params = ps.list;
      return d;
    }
    case 'parenthesized_declarator':
    case 'abstract_parenthesized_declarator':
    case 'attributed_declarator':
      return declarator(
        cc,
        t,
        named(n).find((k) => k.type !== 'attribute_specifier' && k.type !== 'attribute_declaration' && k.type !== 'type_qualifier'),
        cx,
      );
    case 'init_declarator':
      return declarator(cc, t, field(n, 'declarator'), cx);
  }
  return bad(cx.src.loc(n), `not simulated: declarator ${n.type.replace(/_/g, ' ')}`, 'not-simulated');
}

export function paramList(cc: CompileContext, n: N, cx: Cx): { list: ParamD[]; variadic: boolean; proto: boolean } {
  const list: ParamD[] = [];
  let variadic = false;
  const ps = named(n);
  for (const p of ps) {
    if (p.type === 'variadic_parameter') {
      variadic = true;
      continue;
    }
    if (p.type !== 'parameter_declaration') {
      if (p.type === 'identifier') bad(cx.src.loc(p), 'not simulated: K&R-style parameter list', 'not-simulated');
      continue;
    }
    const sp = specs(cc, p, cx);
    const d = declarator(cc, sp.t, field(p, 'declarator'), cx);
    let t = d.t;
    if (t.k === 'arr') t = ptr(t.of);
    else if (t.k === 'fn') t = ptr(t);
    list.push({ name: d.name, t });
  }
  if (list.length === 1 && list[0].t.k === 'void' && !list[0].name) list.length = 0;
  const proto = ps.length > 0 || /\(\s*void\s*\)/.test(cc.text(n, cx));
  return { list, variadic, proto: proto || list.length > 0 };
}

export function typeDescriptor(cc: CompileContext, n: N, cx: Cx): CType {
  const tn = field(n, 'type');
  if (!tn) bad(cx.src.loc(n), 'type expected');
  const base = typeSpec(cc, tn, cx);
  return declarator(cc, base, field(n, 'declarator'), cx).t;
}

export function typedef(cc: CompileContext, n: N, cx: Cx): void {
  const tn = field(n, 'type');
  if (!tn) bad(cx.src.loc(n), 'typedef without a type');
  const base = typeSpec(cc, tn, cx);
  for (const dn of fields(n, 'declarator')) {
    const d = declarator(cc, base, dn, cx);
    if (d.name) cx.scope.syms.set(d.name, { k: 'type', t: d.t });
  }
}
