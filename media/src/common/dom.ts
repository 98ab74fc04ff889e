/** Tiny DOM helpers (no framework; strict CSP allows CSSOM writes but no inline style attributes). */

type Attrs = Record<string, string | number | boolean | undefined | ((ev: any) => void)>;

/** `h('button', { class: 'x', 'aria-label': 'Next', onclick: f }, 'text')` */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== undefined && c !== false) el.append(c);
  return el;
}

export function option(value: string, label: string, selected = false): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  o.selected = selected;
  return o;
}

/** Sets text only when it differs (cheap re-render of recycled cells). */
export function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setClass(el: HTMLElement, cls: string): void {
  if (el.className !== cls) el.className = cls;
}

/** A CSS custom property's computed value on an element. */
export function cssVar(el: Element, name: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim();
}

/** Debounced call. */
export function debounce<A extends unknown[]>(f: (...a: A) => void, ms: number): (...a: A) => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return (...a: A) => {
    if (t) clearTimeout(t);
    t = setTimeout(() => f(...a), ms);
  };
}

/** Canvas PNG as bytes. */
export function canvasPng(c: HTMLCanvasElement): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) =>
    c.toBlob((b) => {
      if (!b) reject(new Error('canvas could not be encoded as PNG'));
      else b.arrayBuffer().then(resolve, reject);
    }, 'image/png'),
  );
}
