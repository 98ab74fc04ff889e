/**
 * The inspector's toolbar: space and core/thread pickers, value type, byte order, radix, row width,
 * ASCII, go to (address, `$variable`, tensor list), search and export; and the keyboard shortcuts that
 * reach it from anywhere in the panel (Ctrl+G, Ctrl+F, F3).
 */
import { ELEM_TYPES, type ElemType, type Overlay, type SpaceInfo } from '../../../core/protocol/webview';
import { ELEM_LABEL, RADIXES, type Radix, type SearchMode } from '../../../core/inspect/decode';
import { h, option } from '../common/dom';
import { exportPng, exportSelection, type ExportView } from './exporting';
import type { Grid } from './grid';
import type { InspectorModel } from './model';
import type { Navigation } from './navigation';
import type { InspectorView } from './view';

const WIDTHS = [4, 8, 16, 32, 64];

/** What the toolbar uses of the controller: the display and position changes its controls make, and exporting's needs. */
export type ToolbarView = Pick<InspectorView, 'selectSpace' | 'update' | 'setWidth' | 'setPartition'> & ExportView;

export class Toolbar {
  readonly el: HTMLElement;
  private readonly spaceSel: HTMLSelectElement;
  private partSels: HTMLSelectElement[] = [];
  private readonly partBox: HTMLElement;
  private readonly typeSel: HTMLSelectElement;
  private readonly endianBtn: HTMLButtonElement;
  private readonly radixSel: HTMLSelectElement;
  private readonly widthSel: HTMLSelectElement;
  private readonly asciiBox: HTMLInputElement;
  private readonly gotoInput: HTMLInputElement;
  private readonly ovSel: HTMLSelectElement;
  private readonly findInput: HTMLInputElement;
  private readonly findMode: HTMLSelectElement;
  private readonly exportFmt: HTMLSelectElement;
  private readonly model: InspectorModel;

  constructor(
    private readonly view: ToolbarView,
    private readonly nav: Pick<Navigation, 'goTo' | 'goToOffset' | 'find'>,
    grid: Grid,
    /** Controls of other components placed in the toolbar's groups (the run's regions beside "go to", View beside the exports). */
    extras: { goTo?: HTMLElement[]; export?: HTMLElement[] } = {},
  ) {
    const m = (this.model = view.model);
    const st = m.st;
    const lbl = (text: string, control: HTMLElement) => h('label', { class: 'tl-field' }, h('span', { class: 'tl-label' }, text), control);
    this.spaceSel = h('select', { id: 'tl-space', 'aria-label': 'Memory space', onchange: () => view.selectSpace(this.spaceSel.value, false) });
    this.partBox = h('span', { class: 'tl-parts' });
    this.typeSel = h(
      'select',
      { id: 'tl-type', 'aria-label': 'Value type', onchange: () => view.update({ type: this.typeSel.value as ElemType }) },
      ...ELEM_TYPES.map((t) => option(t, ELEM_LABEL[t])),
    );
    this.endianBtn = h(
      'button',
      {
        id: 'tl-endian',
        class: 'tl-btn',
        type: 'button',
        'aria-pressed': 'false',
        title: 'Byte order of multi-byte values',
        onclick: () => view.update({ bigEndian: !m.st.bigEndian }),
      },
      'LE',
    );
    this.radixSel = h(
      'select',
      { id: 'tl-radix', 'aria-label': 'Radix', onchange: () => view.update({ radix: this.radixSel.value as Radix }) },
      ...RADIXES.map((x) => option(x, x)),
    );
    this.widthSel = h(
      'select',
      { id: 'tl-width', 'aria-label': 'Bytes per row', onchange: () => view.setWidth(Number(this.widthSel.value)) },
      ...WIDTHS.map((w) => option(String(w), `${w} B`)),
    );
    this.asciiBox = h('input', {
      type: 'checkbox',
      id: 'tl-ascii',
      checked: st.ascii,
      onchange: (e: Event) => view.update({ ascii: (e.target as HTMLInputElement).checked }),
    });
    this.gotoInput = h('input', {
      id: 'tl-goto',
      class: 'tl-input',
      type: 'text',
      placeholder: 'Go to 0x…, $var, tensor',
      'aria-label': 'Go to address, $variable or tensor',
      spellcheck: 'false',
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === 'Enter') void nav.goTo(this.gotoInput.value);
        if (e.key === 'Escape') grid.scroller.focus();
      },
    });
    this.ovSel = h(
      'select',
      {
        id: 'tl-overlay',
        'aria-label': 'Go to tensor',
        disabled: true,
        onchange: () => {
          const o = m.overlays.list[Number(this.ovSel.value)];
          if (o) nav.goToOffset(o.offset, o.length, true);
          this.ovSel.value = '';
        },
      },
      option('', 'Go to tensor…'),
    );
    this.findInput = h('input', {
      id: 'tl-find',
      class: 'tl-input',
      type: 'text',
      placeholder: 'Search value',
      'aria-label': 'Search for a value',
      spellcheck: 'false',
      value: st.findText,
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === 'Enter') void this.find(e.shiftKey);
        if (e.key === 'Escape') grid.scroller.focus();
      },
    });
    this.findMode = h(
      'select',
      { id: 'tl-find-mode', 'aria-label': 'Search as', onchange: () => view.update({ findMode: this.findMode.value }) },
      option('hex', 'hex bytes'),
      option('ascii', 'text'),
      ...ELEM_TYPES.map((t) => option(t, ELEM_LABEL[t])),
    );
    const findNext = h(
      'button',
      { id: 'tl-find-next', class: 'tl-btn', type: 'button', title: 'Find next (Enter, F3)', 'aria-label': 'Find next', onclick: () => void this.find(false) },
      '↓',
    );
    const findPrev = h(
      'button',
      {
        id: 'tl-find-prev',
        class: 'tl-btn',
        type: 'button',
        title: 'Find previous (Shift+Enter)',
        'aria-label': 'Find previous',
        onclick: () => void this.find(true),
      },
      '↑',
    );
    this.exportFmt = h(
      'select',
      { id: 'tl-export-format', 'aria-label': 'Export format' },
      option('bin', '.bin'),
      option('npy', '.npy'),
      option('hex', 'hex text'),
    );
    const exportBtn = h(
      'button',
      {
        id: 'tl-export',
        class: 'tl-btn',
        type: 'button',
        title: 'Export the selected bytes',
        onclick: () => void exportSelection(view, this.exportFmt.value as 'bin' | 'npy' | 'hex'),
      },
      'Export',
    );
    const pngBtn = h(
      'button',
      { id: 'tl-png', class: 'tl-btn', type: 'button', title: 'Save the visible rows as PNG', onclick: () => void exportPng(view, grid) },
      'PNG',
    );

    this.el = h(
      'div',
      { class: 'tl-toolbar', role: 'toolbar', 'aria-label': 'Memory view options' },
      h('div', { class: 'tl-group' }, lbl('Space', this.spaceSel), this.partBox),
      h(
        'div',
        { class: 'tl-group' },
        lbl('Type', this.typeSel),
        this.endianBtn,
        lbl('Radix', this.radixSel),
        lbl('Row', this.widthSel),
        h('label', { class: 'tl-field' }, this.asciiBox, h('span', { class: 'tl-label' }, 'ASCII')),
      ),
      h('div', { class: 'tl-group' }, this.gotoInput, this.ovSel, ...(extras.goTo ?? [])),
      h('div', { class: 'tl-group' }, this.findInput, this.findMode, findPrev, findNext),
      h('div', { class: 'tl-group' }, this.exportFmt, exportBtn, pngBtn, ...(extras.export ?? [])),
    );
    window.addEventListener('keydown', (e) => this.onShortcut(e));
  }

  /** Ctrl+G: go to; Ctrl+F: search; F3 (Shift+F3): find next (previous). */
  private onShortcut(e: KeyboardEvent): void {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'g') {
      e.preventDefault();
      this.gotoInput.focus();
      this.gotoInput.select();
    } else if (mod && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      this.findInput.focus();
      this.findInput.select();
    } else if (e.key === 'F3') {
      e.preventDefault();
      void this.find(e.shiftKey);
    }
  }

  /** Searches for the search box's value, read as the chosen mode (Enter, the arrows, F3). */
  private find(backward: boolean): Promise<void> {
    return this.nav.find(this.findInput.value, this.findMode.value as SearchMode, backward);
  }

  /** The space picker, grouped (optgroups) as the host groups them. */
  fillSpaces(spaces: readonly SpaceInfo[]): void {
    const groups = new Map<string, SpaceInfo[]>();
    for (const s of spaces) {
      const g = s.group ?? '';
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g)!.push(s);
    }
    const kids: HTMLElement[] = [];
    for (const [g, list] of groups) {
      const opts = list.map((s) => option(s.id, s.label, s.id === this.model.st.space));
      if (g) kids.push(h('optgroup', { label: g }, ...opts));
      else kids.push(...opts);
    }
    this.spaceSel.replaceChildren(...kids);
    this.spaceSel.value = this.model.st.space;
  }

  /** The space shown changed: select it and rebuild the core/thread pickers of its partitions. */
  showSpace(info: SpaceInfo): void {
    this.spaceSel.value = info.id;
    const parts = info.partitions ?? [];
    this.partSels = parts.map((p, i) => {
      const sel = h(
        'select',
        { id: `tl-part-${p.name}`, 'aria-label': p.name, onchange: () => this.view.setPartition(i, sel.value === '' ? null : Number(sel.value)) },
        option('', `all ${p.name}s`),
        ...Array.from({ length: p.count }, (_, k) => option(String(k), `${p.name} ${k}`)),
      );
      return sel;
    });
    this.partBox.replaceChildren(...this.partSels.map((s, i) => h('label', { class: 'tl-field' }, h('span', { class: 'tl-label' }, parts[i].name), s)));
    this.syncPartitions();
  }

  /** Partition pickers from the state (a level is off while the one above is "all"). */
  syncPartitions(): void {
    const part = this.model.st.part;
    this.partSels.forEach((s, i) => {
      const v = part[i];
      s.value = v === null || v === undefined ? '' : String(v);
      s.disabled = i > 0 && (part[i - 1] === null || part[i - 1] === undefined);
    });
  }

  /** The tensor list of "Go to tensor…". */
  fillOverlays(list: readonly Overlay[]): void {
    this.ovSel.replaceChildren(
      option('', 'Go to tensor…'),
      ...list.map((o, i) => option(String(i), `${o.name}${o.shape ? ` [${o.shape.join('×')}]` : ''} @${this.model.fmtAddr(o.offset)}`)),
    );
    this.ovSel.disabled = list.length === 0;
  }

  /** Controls from the state. */
  sync(): void {
    const st = this.model.st;
    this.typeSel.value = st.type;
    this.radixSel.value = st.radix;
    this.widthSel.value = String(st.width);
    this.endianBtn.textContent = st.bigEndian ? 'BE' : 'LE';
    this.endianBtn.setAttribute('aria-pressed', String(st.bigEndian));
    this.endianBtn.setAttribute('aria-label', st.bigEndian ? 'Big endian (switch to little endian)' : 'Little endian (switch to big endian)');
    this.findMode.value = st.findMode;
    this.asciiBox.checked = st.ascii;
  }
}
