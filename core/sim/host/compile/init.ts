/**
 * Initialisers of arrays, structs and scalars (braced lists, designators, string literals for char
 * arrays, brace elision), compiled to ops that write the object given its base address.
 */
import { isInt, sizeOf, typeName, type CType } from '../ctypes';
import { storer } from '../memops';
import type { Runtime } from '../hostState';
import type { Cx } from '../scope';
import { field, fields, named, type N } from '../syntax';
import { bad, type CompileContext, type InitOp } from './context';
import { conv, strBytes } from './values';

/** Element count of `T a[] = init`. */
export function initCount(cc: CompileContext, t: CType & { k: 'arr' }, init: N, cx: Cx): number {
  if (init.type === 'string_literal' || init.type === 'concatenated_string') return strBytes(cc, init, cx).length + 1;
  if (init.type !== 'initializer_list') bad(cx.src.loc(init), 'array initialiser must be a list');
  const sink: InitOp[] = [];
  return fillAgg(cc, t, named(init), { i: 0 }, { ...cx, hoist: null }, sink, 0, true);
}

/** Initialisation of one object of type `t` at offset 0 (ops get the object's base address). */
export function initOps(cc: CompileContext, t: CType, init: N, cx: Cx): InitOp[] {
  const ops: InitOp[] = [];
  initAt(cc, t, init, cx, ops, 0);
  return ops;
}

export function initAt(cc: CompileContext, t: CType, init: N, cx: Cx, ops: InitOp[], off: number): void {
  if (init.type === 'initializer_list') {
    initList(cc, t, init, cx, ops, off);
    return;
  }
  if (t.k === 'arr') {
    if (isInt(t.of) && t.of.size === 1 && (init.type === 'string_literal' || init.type === 'concatenated_string')) {
      const bytes = strBytes(cc, init, cx);
      const n = Math.min(t.n ?? bytes.length + 1, bytes.length + 1);
      const data = new Uint8Array(n);
      data.set(bytes.subarray(0, n));
      const rt: Runtime = cc.rt;
      ops.push((_fr, base) => {
        rt.writing(base + off, data.length);
        rt.mem.set(data, base + off);
      });
      return;
    }
    bad(cx.src.loc(init), 'array initialiser must be a list or a string');
  }
  const E = cc.rval(init, cx);
  if (t.k === 'struct') {
    if (E.t !== t) bad(cx.src.loc(init), `cannot initialise ${typeName(t)} from ${typeName(E.t)}`);
    const size = sizeOf(t);
    const rt: Runtime = cc.rt;
    const loc = cx.src.loc(init);
    ops.push((fr, base) => rt.memcpy(base + off, E.f(fr), size, loc));
    return;
  }
  const V = conv(E, t, init, cx).f;
  const st = storer(cc.rt, t, cx.src.loc(init), true);
  ops.push((fr, base) => st(base + off, V(fr)));
}

export function initList(cc: CompileContext, t: CType, list: N, cx: Cx, ops: InitOp[], off: number): void {
  const items = named(list);
  if (t.k !== 'arr' && t.k !== 'struct') {
    if (items.length > 0) initAt(cc, t, items[0].type === 'initializer_pair' ? field(items[0], 'value')! : items[0], cx, ops, off);
    return;
  }
  fillAgg(cc, t, items, { i: 0 }, cx, ops, off, true);
}

/** Fills aggregate `t` from `items[pos.i..]`; returns the element count reached (arrays). */
export function fillAgg(cc: CompileContext, t: CType, items: N[], pos: { i: number }, cx: Cx, ops: InitOp[], off: number, braced: boolean): number {
  if (t.k === 'arr') {
    const es = sizeOf(t.of);
    let idx = 0;
    let max = 0;
    while (pos.i < items.length) {
      const it = items[pos.i];
      if (it.type === 'initializer_pair') {
        if (!braced) break;
        const ds = fields(it, 'designator');
        const d0 = ds[0];
        if (!d0 || d0.type !== 'subscript_designator') bad(cx.src.loc(it), 'field designator in an array initialiser');
        idx = cc.constEval(named(d0)[0], cx);
        pos.i++;
        designated(cc, t.of, ds.slice(1), field(it, 'value')!, cx, ops, off + idx * es);
        idx++;
        max = Math.max(max, idx);
        continue;
      }
      if (t.n !== undefined && idx >= t.n) break;
      fillElem(cc, t.of, items, pos, cx, ops, off + idx * es);
      idx++;
      max = Math.max(max, idx);
    }
    return max;
  }
  if (t.k === 'struct') {
    if (cc.badStructs.has(t)) bad(cx.src.loc(items[pos.i] ?? items[0]), `not simulated: initialiser of a struct with ${cc.badStructs.get(t)}`, 'not-simulated');
    let fi = 0;
    while (pos.i < items.length) {
      const it = items[pos.i];
      if (it.type === 'initializer_pair') {
        if (!braced) break;
        const ds = fields(it, 'designator');
        const d0 = ds[0];
        if (!d0 || d0.type !== 'field_designator') bad(cx.src.loc(it), 'array designator in a struct initialiser');
        const name = cc.text(named(d0)[0], cx);
        const k = t.fields.findIndex((f) => f.name === name);
        if (k < 0) bad(cx.src.loc(d0), `${typeName(t)} has no member '${name}'`);
        pos.i++;
        designated(cc, t.fields[k].t, ds.slice(1), field(it, 'value')!, cx, ops, off + t.fields[k].off);
        fi = k + 1;
        continue;
      }
      if (fi >= t.fields.length || (t.union && fi > 0)) break;
      fillElem(cc, t.fields[fi].t, items, pos, cx, ops, off + t.fields[fi].off);
      fi++;
    }
    return 1;
  }
  fillElem(cc, t, items, pos, cx, ops, off);
  return 1;
}

export function designated(cc: CompileContext, t: CType, rest: N[], value: N, cx: Cx, ops: InitOp[], off: number): void {
  if (rest.length === 0) {
    if (value.type === 'initializer_list') initList(cc, t, value, cx, ops, off);
    else fillElem(cc, t, [value], { i: 0 }, cx, ops, off);
    return;
  }
  const d = rest[0];
  if (d.type === 'subscript_designator' && t.k === 'arr') {
    const i = cc.constEval(named(d)[0], cx);
    designated(cc, t.of, rest.slice(1), value, cx, ops, off + i * sizeOf(t.of));
    return;
  }
  if (d.type === 'field_designator' && t.k === 'struct') {
    const name = cc.text(named(d)[0], cx);
    const f = t.fields.find((x) => x.name === name);
    if (!f) bad(cx.src.loc(d), `${typeName(t)} has no member '${name}'`);
    designated(cc, f.t, rest.slice(1), value, cx, ops, off + f.off);
    return;
  }
  bad(cx.src.loc(d), 'designator does not match the type');
}

export function fillElem(cc: CompileContext, t: CType, items: N[], pos: { i: number }, cx: Cx, ops: InitOp[], off: number): void {
  const it = items[pos.i];
  if (it.type === 'initializer_list') {
    pos.i++;
    initList(cc, t, it, cx, ops, off);
    return;
  }
  if (t.k === 'arr' || t.k === 'struct') {
    if (t.k === 'arr' && isInt(t.of) && t.of.size === 1 && (it.type === 'string_literal' || it.type === 'concatenated_string')) {
      pos.i++;
      initAt(cc, t, it, cx, ops, off);
      return;
    }
    if (t.k === 'struct' && it.type !== 'initializer_pair') {
      const E = cc.rval(it, cx);
      if (E.t === t) {
        pos.i++;
        initAt(cc, t, it, cx, ops, off);
        return;
      }
    }
    fillAgg(cc, t, items, pos, cx, ops, off, false);
    return;
  }
  pos.i++;
  initAt(cc, t, it.type === 'initializer_pair' ? field(it, 'value')! : it, cx, ops, off);
}
