/**
 * Semantic tokens of `.tlayout` documents, in the server's one legend (core/common/semanticTokens),
 * which the tensor-program tokens use too.
 */
import type { Span, Value } from '../ast';
import type { LayoutAnalysis } from '../analyze';
import { TARGETS } from '../check';
import { parseDtype } from '../dtypes';
import { type SemToken, TOKEN_MODIFIERS, TOKEN_TYPES, type TokenType } from '../../common/semanticTokens';

const MOD_DECLARATION = 1 << TOKEN_MODIFIERS.indexOf('declaration');
const MOD_READONLY = 1 << TOKEN_MODIFIERS.indexOf('readonly');
const MOD_LIBRARY = 1 << TOKEN_MODIFIERS.indexOf('defaultLibrary');

export function semanticTokens(a: LayoutAnalysis): SemToken[] {
  const out: SemToken[] = [];
  const push = (span: Span, type: TokenType, mods = 0) => {
    if (span.end <= span.start) return;
    const p = a.lines.position(span.start);
    const q = a.lines.position(span.end);
    if (p.line !== q.line) return;
    out.push({ line: p.line, char: p.character, length: q.character - p.character, type: TOKEN_TYPES.indexOf(type), modifiers: mods });
  };
  const value = (v: Value, role: 'term' | 'value' | 'target') => {
    switch (v.kind) {
      case 'num':
      case 'dims':
        push(v.span, 'number');
        break;
      case 'name':
        if (role === 'term') push(v.span, 'function', MOD_LIBRARY);
        else if (role === 'target') push(v.span, 'namespace');
        else push(v.span, 'property', MOD_READONLY);
        break;
      case 'call':
        push(v.callee.span, role === 'target' ? 'namespace' : 'function', MOD_LIBRARY);
        for (const arg of v.args) {
          if (arg.name) push(arg.name.span, 'parameter');
          value(arg.value, 'value');
        }
        break;
      case 'list':
        for (const i of v.items) value(i, role === 'target' ? 'value' : role);
        break;
      case 'range':
        value(v.from, 'value');
        value(v.to, 'value');
        break;
      default:
        break;
    }
  };
  for (const s of a.ast.stmts) {
    push(s.keyword, 'keyword');
    if (s.kind === 'target') {
      if (s.value)
        value(
          s.value,
          TARGETS[(s.value.kind === 'call' ? s.value.callee.text : s.value.kind === 'name' ? s.value.text : '').toLowerCase()] ? 'target' : 'term',
        );
    } else if (s.kind === 'tensor') {
      if (s.name) push(s.name.span, 'variable', MOD_DECLARATION);
      if (s.dtype) push(s.dtype.span, parseDtype(s.dtype.text) ? 'type' : 'variable');
      for (const it of s.shape?.items ?? []) {
        if (it.name) push(it.name.span, 'parameter', MOD_DECLARATION);
        value(it.value, 'value');
      }
      if (s.eq) push(s.eq, 'operator');
      for (const t of s.layout) value(t, 'term');
      if (s.at) {
        push(s.at.keyword, 'keyword');
        if (s.at.value) value(s.at.value, 'value');
      }
    } else {
      if (s.tensor) push(s.tensor.span, 'variable');
      if (s.device) push(s.device, 'keyword');
      for (const it of s.coords?.items ?? []) {
        if (it.name) push(it.name.span, 'parameter');
        value(it.value, 'value');
      }
      if (s.address) {
        push(s.address.keyword, 'keyword');
        if (s.address.value) value(s.address.value, 'value');
        if (s.address.unit) {
          push(s.address.unit.keyword.span, 'keyword');
          if (s.address.unit.value) value(s.address.unit.value, 'value');
        }
      }
    }
  }
  out.sort((x, y) => x.line - y.line || x.char - y.char);
  return out;
}
