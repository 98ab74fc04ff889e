/**
 * The run's regions to jump to (named buffers, loads, dumps, pointer arguments of the entry), grouped by
 * kind in the header; choosing one shows its bytes in the grid (and its picture when the Views pane is
 * open). The "View" button opens the Views pane on the chosen region, else on the hex selection or the
 * tensor under the cursor.
 */
import type { Region } from '../../../../core/protocol/webview';
import { h, option } from '../../common/dom';
import type { InspectorView } from '../view';
import type { Navigation } from '../navigation';
import type { ViewsPane } from './viewsPane';
import { regionChoices, viewOfRegion } from './regions';

export type JumpView = Pick<InspectorView, 'model' | 'selectSpace' | 'say'>;

const GROUPS: [Region['kind'], string][] = [
  ['buffer', 'Buffers'],
  ['load', 'Loads'],
  ['dump', 'Dumps'],
  ['argument', 'Pointer arguments'],
  ['global', 'Globals'],
];

export class JumpList {
  /** The list (hidden when the run has no regions) and the View button; the toolbar places them. */
  readonly sel: HTMLSelectElement;
  readonly btn: HTMLButtonElement;

  constructor(
    private readonly view: JumpView,
    private readonly nav: Pick<Navigation, 'goToOffset'>,
    private readonly pane: Pick<ViewsPane, 'open' | 'showRegion' | 'show'>,
  ) {
    this.sel = h('select', { id: 'tl-jump', 'aria-label': "The run's buffers, loads, dumps and pointer arguments", onchange: () => this.jump() });
    this.sel.classList.add('tl-jump');
    this.sel.hidden = true;
    this.btn = h(
      'button',
      { id: 'tl-view', class: 'tl-btn', type: 'button', title: 'View the region as an image or a heatmap', onclick: () => this.openView() },
      'View',
    );
  }

  fill(): void {
    const regions = this.view.model.regions;
    const groups = GROUPS.map(([kind, label]) => {
      const items = regions.map((r, i) => [r, i] as const).filter(([r]) => r.kind === kind);
      if (!items.length) return undefined;
      const g = h('optgroup', { label });
      g.append(...items.map(([r, i]) => option(String(i), r.name)));
      return g;
    }).filter((g): g is HTMLOptGroupElement => !!g);
    this.sel.replaceChildren(option('', 'Go to a buffer or dump…', true), ...groups);
    this.sel.hidden = regions.length === 0;
  }

  private chosen(): Region | undefined {
    return this.sel.value === '' ? undefined : this.view.model.regions[Number(this.sel.value)];
  }

  private jump(): void {
    const r = this.chosen();
    if (!r) return;
    const m = this.view.model;
    if (!m.spaces.some((s) => s.id === r.space)) {
      this.view.say(`${r.name}: no memory space ${r.space}`, true);
      return;
    }
    if (m.info?.id !== r.space) this.view.selectSpace(r.space, false);
    this.nav.goToOffset(r.offset, r.bytes, true);
    this.view.say(`${r.kind} ${r.name}: ${m.fmtAddr(r.offset)}, ${r.bytes} bytes`);
    if (this.pane.open) this.pane.showRegion(r);
  }

  /** Opens the Views pane on the chosen region, else the selection, else the tensor at the cursor, else the first region. */
  private openView(): void {
    const m = this.view.model;
    const r = this.chosen();
    if (r) return this.pane.showRegion(r);
    const choices = regionChoices(m);
    const sel = choices.find((c) => c.kind === 'selection');
    const at = choices.find((c) => c.space === m.info?.id && m.st.cursor >= c.offset && m.st.cursor < c.offset + c.bytes);
    const c = sel ?? at ?? choices[0];
    if (!c) {
      this.view.say('select bytes, or run with buffers or dumps, to view them as a picture', true);
      return;
    }
    this.pane.show(viewOfRegion(c, m));
  }
}
