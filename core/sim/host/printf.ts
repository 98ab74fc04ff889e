/**
 * printf-family formatting: %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %%, flags `-+ #0`, width,
 * precision, `*`, length modifiers hh h l ll z t j (values are already C-typed JS numbers;
 * `%lld` prints the 64-bit approximation).
 */
export function cformat(fmt: string, args: number[], str: (addr: number) => string): string {
  let out = '';
  let ai = 0;
  const next = (): number => (ai < args.length ? args[ai++] : 0);
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    let j = i + 1;
    let flags = '';
    while (j < fmt.length && '-+ #0'.includes(fmt[j])) flags += fmt[j++];
    let width = -1;
    if (fmt[j] === '*') {
      width = next() | 0;
      if (width < 0) {
        flags += '-';
        width = -width;
      }
      j++;
    } else {
      let w = '';
      while (j < fmt.length && fmt[j] >= '0' && fmt[j] <= '9') w += fmt[j++];
      if (w) width = parseInt(w, 10);
    }
    let prec = -1;
    if (fmt[j] === '.') {
      j++;
      if (fmt[j] === '*') {
        prec = next() | 0;
        j++;
      } else {
        let p = '';
        while (j < fmt.length && fmt[j] >= '0' && fmt[j] <= '9') p += fmt[j++];
        prec = p ? parseInt(p, 10) : 0;
      }
    }
    let len = '';
    while (j < fmt.length && 'hlLqjzt'.includes(fmt[j])) len += fmt[j++];
    const conv = fmt[j];
    i = j;
    if (conv === undefined) break;
    let body: string;
    let sign = '';
    let numeric = true;
    const wide = len === 'll' || len === 'L' || len === 'q' || len === 'j';
    switch (conv) {
      case 'd':
      case 'i': {
        let v = next();
        if (len === 'hh') v = (v << 24) >> 24;
        else if (len === 'h') v = (v << 16) >> 16;
        else if (!wide) v = v | 0;
        if (v < 0) {
          sign = '-';
          v = -v;
        } else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        body = intDigits(v, 10, prec);
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        let v = next();
        if (len === 'hh') v &= 255;
        else if (len === 'h') v &= 65535;
        else if (!wide) v = v >>> 0;
        else if (v < 0) v += 18446744073709551616;
        const base = conv === 'u' ? 10 : conv === 'o' ? 8 : 16;
        body = intDigits(v, base, prec);
        if (conv === 'X') body = body.toUpperCase();
        if (flags.includes('#') && v !== 0) {
          if (conv === 'x') sign = '0x';
          else if (conv === 'X') sign = '0X';
          else if (conv === 'o' && !body.startsWith('0')) body = '0' + body;
        }
        break;
      }
      case 'p': {
        body = (next() >>> 0).toString(16);
        sign = '0x';
        break;
      }
      case 'c':
        body = String.fromCharCode(next() & 255);
        numeric = false;
        break;
      case 's': {
        let s = str(next());
        if (prec >= 0) s = s.slice(0, prec);
        body = s;
        numeric = false;
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G': {
        let v = next();
        if (v < 0 || Object.is(v, -0)) {
          sign = '-';
          v = -v;
        } else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        body = floatText(v, conv, prec < 0 ? 6 : prec, flags.includes('#'));
        break;
      }
      case '%':
        out += '%';
        continue;
      case 'n':
        next();
        continue;
      default:
        out += fmt.slice(i - (j - i), i + 1);
        continue;
    }
    let text = sign + body;
    if (width > text.length) {
      if (flags.includes('-')) text = text.padEnd(width);
      else if (numeric && flags.includes('0') && (prec < 0 || 'fFeEgG'.includes(conv))) text = sign + body.padStart(width - sign.length, '0');
      else text = text.padStart(width);
    }
    out += text;
  }
  return out;
}

function intDigits(v: number, base: number, prec: number): string {
  let s = v === 0 && prec === 0 ? '' : Math.trunc(v).toString(base);
  if (prec > s.length) s = s.padStart(prec, '0');
  return s;
}

function floatText(v: number, conv: string, prec: number, alt: boolean): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? (conv === conv.toUpperCase() ? 'NAN' : 'nan') : conv === conv.toUpperCase() ? 'INF' : 'inf';
  let s: string;
  switch (conv) {
    case 'f':
    case 'F':
      s = v.toFixed(Math.min(prec, 100));
      if (alt && prec === 0) s += '.';
      return s;
    case 'e':
    case 'E':
      s = expText(v, prec);
      return conv === 'E' ? s.toUpperCase() : s;
    default: {
      const p = prec === 0 ? 1 : prec;
      const x = v === 0 ? 0 : Math.floor(Math.log10(Math.abs(Number(v.toExponential(p - 1)))));
      if (x < -4 || x >= p) {
        s = expText(v, p - 1);
        if (!alt) s = s.replace(/\.?0+e/, 'e');
      } else {
        s = v.toFixed(Math.max(0, p - 1 - x));
        if (!alt && s.includes('.')) s = s.replace(/\.?0+$/, '');
      }
      return conv === 'G' ? s.toUpperCase() : s;
    }
  }
}

function expText(v: number, prec: number): string {
  const s = v.toExponential(Math.min(prec, 100));
  const [m, e] = s.split('e');
  const n = parseInt(e, 10);
  return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}
