/** `tensor-lens map`: summaries of a `.tlayout` spec's tensors, or one coordinate → address / address → coordinate mapping. */
import { resolve } from 'node:path';
import { analyzeLayout, type LayoutAnalysis } from '../core/layout/analyze';
import type { TensorInfo } from '../core/layout/check';
import type { ForwardBase, InverseResult, Step } from '../core/layout/model';
import { SpyreLayout } from '../core/layout/models/spyre';
import { parseLayout } from '../core/layout/parse';
import { hex, list } from '../core/layout/util';
import { parseArgs, withUsage, UsageError } from './args';
import { FileError, pathKind, readFileBytes, readFileText } from '../node/files';
import { csfSparseLoader } from '../core/layout/csfLoader';
import { FileAccessError } from '../core/project/fileSystem';

export const MAP_USAGE = [
  'usage: tensor-lens map <spec.tlayout> [--tensor NAME] [--coord i,j,k | --device i,j,k | --address A [--bank N | --core x,y | ' +
    '--space main|meta]] [--json]',
  "  Without a query: every tensor's summary (bytes, padding, pages/banks/cores/sticks/cells) and the file's probes.",
  '  --coord       map a tensor coordinate to its address, with every intermediate (names allowed: A=1,B=2)',
  '  --device      map a Spyre device coordinate',
  '  --address     say what the byte at A holds (0x…, decimal, sums like 0x1000+770); without --tensor every tensor is searched',
  '  --bank/--core the bank or core of the address, for TT buffers; --space main|meta for fibered tensors',
  '  Exit status: 1 when the spec has errors (printed as file:line:col: error: …), 2 on bad usage.',
].join('\n');

function parseNumber(s: string, what: string): number {
  const f = parseLayout(`probe address ${s}`).stmts[0];
  const v = f?.kind === 'probe' ? f.address?.value : undefined;
  if (!v || v.kind !== 'num' || !Number.isSafeInteger(v.value) || parseLayout(`probe address ${s}`).errors.length)
    throw new UsageError(`${what} must be a number such as 0x1000, 4096 or 0x1000+770 (got ${s})`);
  return v.value;
}

function parseCoord(s: string, t: TensorInfo): number[] {
  const parts = s.split(',').map((x) => x.trim());
  if (parts.some((p) => p.includes('='))) {
    const out = new Array<number>(t.dimNames.length).fill(NaN);
    for (const p of parts) {
      const [k, v] = p.split('=').map((x) => x.trim());
      const i = t.dimNames.indexOf(k);
      if (i < 0) throw new UsageError(`'${t.name}' has no dimension named ${k} (dims: ${t.dimNames.map((d, j) => d ?? j).join(', ')})`);
      out[i] = Number(v);
    }
    if (out.some((v) => !Number.isInteger(v))) throw new UsageError(`--coord ${s}: give an integer for every dimension of '${t.name}'`);
    return out;
  }
  const c = parts.map(Number);
  if (!s.trim() || c.some((v) => !Number.isInteger(v))) throw new UsageError(`--coord must be integers separated by commas (got ${s})`);
  return c;
}

const stepsText = (steps: Step[], indent = '  ') => steps.map((x) => `${indent}${x.name}: ${x.value}`);

function forwardText(name: string, f: ForwardBase): string[] {
  const head = Number.isNaN(f.address)
    ? `${name}${list(f.coord)} → not stored (implicit zero)`
    : `${name}${list(f.coord)} → ${f.unit ? `${f.unit.label}: ` : ''}${hex(f.address)} (${f.address})`;
  return [head, ...stepsText(f.steps)];
}

function inverseText(name: string, r: InverseResult): string[] {
  const where = r.unit ? ` in ${r.unit.label}` : '';
  const head =
    r.kind === 'element'
      ? `${hex(r.address)}${where} → ${name}${list(r.coord ?? [])}${r.byteInElement ? `, byte ${r.byteInElement}` : ''}`
      : r.kind === 'outside'
        ? `${hex(r.address)}${where} is outside ${name}`
        : `${hex(r.address)}${where} → ${name}: ${r.kind}${r.coord ? ` (copy of ${list(r.coord)})` : ''}`;
  return [head, ...(r.reason ? [`  ${r.reason}`] : []), ...stepsText(r.steps)];
}

function tensorJson(t: TensorInfo) {
  return {
    name: t.name,
    dtype: t.dtype,
    shape: t.shape,
    dimNames: t.dimNames.some((d) => d) ? t.dimNames : undefined,
    model: t.family,
    summary: t.summary ? { ...t.summary, facts: Object.fromEntries(t.summary.facts.map((f) => [f.name, f.value])) } : undefined,
    problem: t.summary ? undefined : t.problem,
  };
}

function summaryText(t: TensorInfo): string[] {
  const shape = list(t.shape?.map((s, i) => (t.dimNames[i] ? `${t.dimNames[i]}=${s}` : String(s))) ?? []);
  if (!t.summary) return [`tensor ${t.name}: ${t.dtype ?? '?'}${shape} — ${t.problem ?? 'no layout'}`];
  const br = Object.entries(t.summary.breakdown)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
    .join(', ');
  return [
    `tensor ${t.name}: ${t.dtype}${shape} (${t.family})`,
    ...stepsText(t.summary.facts),
    `  byte breakdown: ${br} = ${t.summary.bytes.toLocaleString('en-US')} B`,
  ];
}

/**
 * `fibers(file="….csfbin")` of a spec the user named on the command line: any file they can read (no workspace to
 * confine it to, unlike the language server); missing is "not found", a directory or device is refused by name.
 */
function readCsfbin(path: string): Uint8Array | undefined {
  if (pathKind(path) === undefined) return undefined;
  try {
    return readFileBytes(path);
  } catch (e) {
    throw e instanceof FileError ? new FileAccessError(e.message.replace(/^cannot read [^:]*: /, '')) : e;
  }
}

export function runMap(argv: string[], out: (s: string) => void): number {
  return withUsage(MAP_USAGE, () => map(argv, out));
}

function map(argv: string[], out: (s: string) => void): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], options: ['tensor', 'coord', 'address', 'bank', 'core', 'space', 'device'] });
  if (args.flags.has('help')) {
    out(MAP_USAGE);
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'map takes one .tlayout file' : 'map needs a .tlayout file');
  const path = args.positionals[0];
  const abs = resolve(path);
  let text: string;
  try {
    // regular files only: a directory, a device or a FIFO is named as what it is
    text = readFileText(abs);
  } catch (e) {
    throw e instanceof FileError ? new UsageError(e.message.replace(abs, path)) : e;
  }
  const one = (k: string) => {
    const v = args.options.get(k);
    if (v && v.length > 1) throw new UsageError(`--${k} is given twice`);
    return v?.[0];
  };
  const tensorName = one('tensor');
  const coordS = one('coord');
  const deviceS = one('device');
  const addressS = one('address');
  const bankS = one('bank');
  const coreS = one('core');
  const spaceS = one('space');
  if ([coordS, deviceS, addressS].filter((x) => x !== undefined).length > 1) throw new UsageError('give one of --coord, --device, --address');
  if ([bankS, coreS, spaceS].filter((x) => x !== undefined).length > 1) throw new UsageError('give one of --bank, --core, --space');
  if ((bankS || coreS || spaceS) && addressS === undefined) throw new UsageError('--bank, --core and --space go with --address');
  const json = args.flags.has('json');

  const a: LayoutAnalysis = analyzeLayout(text, abs, { loadSparse: csfSparseLoader(readCsfbin) });
  const errors = a.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    const results = errors.map((d) => ({
      file: path,
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      severity: d.severity,
      code: d.code,
      message: d.message,
    }));
    if (json) out(JSON.stringify({ file: path, errors: results }, null, 2));
    else for (const r of results) out(`${r.file}:${r.line}:${r.column}: error: ${r.message} [${r.code}]`);
    return 1;
  }
  let tensors = a.tensors;
  if (tensorName !== undefined) {
    const t = a.tensors.find((x) => x.name === tensorName);
    if (!t) throw new UsageError(`no tensor named ${tensorName} in ${path} (tensors: ${a.tensors.map((x) => x.name).join(', ') || 'none'})`);
    tensors = [t];
  }
  const pick = (what: string): TensorInfo => {
    if (tensors.length === 1) return tensors[0];
    throw new UsageError(`${what} needs --tensor NAME (the file declares ${a.tensors.map((x) => x.name).join(', ') || 'no tensors'})`);
  };

  if (coordS !== undefined || deviceS !== undefined) {
    const t = pick(coordS !== undefined ? '--coord' : '--device');
    const m = t.model!;
    if (deviceS !== undefined) {
      if (!(m instanceof SpyreLayout)) throw new UsageError(`--device is for Spyre layouts; '${t.name}' is ${m.kind}`);
      const x = parseCoord(deviceS, { ...t, dimNames: [] });
      let r: InverseResult;
      try {
        r = m.deviceProbe(x);
      } catch (e) {
        throw new UsageError(`${(e as Error).message} (device_size ${list(m.deviceSize)})`);
      }
      if (json) out(JSON.stringify({ tensor: t.name, device: x, ...r }, null, 2));
      else for (const l of inverseText(t.name, r)) out(l);
      return 0;
    }
    const c = parseCoord(coordS!, t);
    const p = m.checkCoord(c);
    if (p) {
      // a well-formed coordinate outside the tensor: an error located at the tensor's declaration (exit 1), like a spec error
      const e = {
        file: path,
        line: t.nameRange.start.line + 1,
        column: t.nameRange.start.character + 1,
        severity: 'error',
        code: 'coord-out-of-range',
        message: `--coord ${coordS}: ${p} ('${t.name}' has shape ${list(t.shape ?? [])})`,
      };
      if (json) out(JSON.stringify({ file: path, errors: [e] }, null, 2));
      else out(`${e.file}:${e.line}:${e.column}: error: ${e.message} [${e.code}]`);
      return 1;
    }
    const f = m.forward(c);
    if (json) out(JSON.stringify({ tensor: t.name, ...f, address: Number.isNaN(f.address) ? null : f.address }, null, 2));
    else for (const l of forwardText(t.name, f)) out(l);
    return 0;
  }

  if (addressS !== undefined) {
    const address = parseNumber(addressS, '--address');
    const unitText: string | number[] | undefined =
      bankS ??
      spaceS ??
      (coreS !== undefined
        ? coreS
            .replace(/[()\s]/g, '')
            .split(',')
            .map(Number)
        : undefined);
    if (Array.isArray(unitText) && unitText.some((v) => !Number.isInteger(v))) throw new UsageError(`--core is x,y (got ${coreS})`);
    const unitOf = (t: TensorInfo, strict: boolean): number | undefined | null => {
      const m = t.model!;
      if (unitText === undefined) {
        if (m.unitCount() > 1 && m.kind !== 'sparse') {
          if (strict)
            throw new UsageError(`'${t.name}' is spread over ${m.unitCount()} ${m.unitKind === 'core' ? 'cores: add --core x,y' : 'banks: add --bank N'}`);
          return null;
        }
        return undefined;
      }
      const kindOk =
        (bankS !== undefined && m.unitKind === 'bank') || (coreS !== undefined && m.unitKind === 'core') || (spaceS !== undefined && m.kind === 'sparse');
      const i = kindOk && m.unitIndex ? m.unitIndex(unitText) : undefined;
      if (i === undefined) {
        if (strict)
          throw new UsageError(`'${t.name}' has no ${bankS !== undefined ? `bank ${bankS}` : coreS !== undefined ? `core ${coreS}` : `space ${spaceS}`}`);
        return null;
      }
      return i;
    };
    if (tensorName !== undefined || a.tensors.length === 1) {
      const t = tensors[0];
      const unit = unitOf(t, true);
      const r = t.model!.inverse(address, unit ?? undefined);
      if (json) out(JSON.stringify({ tensor: t.name, ...r }, null, 2));
      else for (const l of inverseText(t.name, r)) out(l);
      return 0;
    }
    const hits: { tensor: string; result: InverseResult }[] = [];
    for (const t of a.tensors) {
      if (!t.model) continue;
      const unit = unitOf(t, false);
      if (unit === null) continue;
      const r = t.model.inverse(address, unit);
      if (r.kind !== 'outside') hits.push({ tensor: t.name, result: r });
    }
    if (json) out(JSON.stringify({ address, hits }, null, 2));
    else if (!hits.length) {
      const banked = unitText === undefined && a.tensors.some((t) => t.model && t.model.unitCount() > 1 && t.model.kind !== 'sparse');
      out(`${hex(address)}: no tensor holds it${banked ? ' (banked tensors need --bank or --core)' : ''}`);
    } else for (const h of hits) for (const l of inverseText(h.tensor, h.result)) out(l);
    return 0;
  }

  // summaries
  if (json) {
    out(
      JSON.stringify(
        {
          file: path,
          targets: a.targets.map((t) => ({ family: t.family, name: t.name })),
          tensors: tensors.map(tensorJson),
          probes:
            tensorName === undefined
              ? a.probes.map((p) => ({
                  text: a.text.slice(p.stmt.span.start, p.stmt.span.end),
                  kind: p.kind,
                  tensor: p.tensor?.name,
                  forward: p.forward,
                  inverse: p.inverse,
                  hits: p.hits?.map((h) => ({ tensor: h.tensor.name, result: h.result })),
                  error: p.error,
                }))
              : undefined,
          warnings: a.diagnostics
            .filter((d) => d.severity === 'warning')
            .map((d) => ({ line: d.range.start.line + 1, column: d.range.start.character + 1, code: d.code, message: d.message })),
        },
        null,
        2,
      ),
    );
    return 0;
  }
  for (const d of a.diagnostics.filter((x) => x.severity === 'warning'))
    out(`${path}:${d.range.start.line + 1}:${d.range.start.character + 1}: warning: ${d.message} [${d.code}]`);
  for (const t of tensors) for (const l of summaryText(t)) out(l);
  if (tensorName === undefined)
    for (const p of a.probes) {
      const src = a.text.slice(p.stmt.span.start, p.stmt.span.end).replace(/\s+/g, ' ');
      if (p.forward) out([`${src}:`, ...forwardText(p.tensor!.name, p.forward).map((l, i) => (i ? '  ' + l : '  ' + l))].join('\n'));
      else if (p.inverse) out([`${src}:`, ...inverseText(p.tensor!.name, p.inverse).map((l) => '  ' + l)].join('\n'));
      else if (p.hits)
        out(
          [`${src}:`, ...(p.hits.length ? p.hits.flatMap((h) => inverseText(h.tensor.name, h.result)) : ['no tensor holds it']).map((l) => '  ' + l)].join(
            '\n',
          ),
        );
    }
  return 0;
}
