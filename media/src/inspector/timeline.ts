/**
 * The step timeline: previous/next, a scrubber over the executed tensor statements with a track of what
 * each step wrote or read in the shown space, the current statement (a link to it in the editor), the
 * read/written bytes of the step, and "changes since step".
 */
import { h, setText } from '../common/dom';
import type { InspectorModel } from './model';
import type { Navigation } from './navigation';
import type { InspectorView } from './view';

/** What the timeline uses of the controller: the model, step and "changes since" changes, reveal in the editor. */
export type TimelineView = Pick<InspectorView, 'model' | 'rpc' | 'setStep' | 'update'>;

export class Timeline {
  readonly el: HTMLElement;
  private readonly scrub: HTMLInputElement;
  private readonly track: HTMLCanvasElement;
  private readonly stepText: HTMLElement;
  private readonly sinceBox: HTMLInputElement;
  private readonly sinceInput: HTMLInputElement;

  private readonly model: InspectorModel;

  constructor(
    private readonly view: TimelineView,
    nav: Pick<Navigation, 'goToTouched'>,
  ) {
    const m = (this.model = view.model);
    const prev = h(
      'button',
      {
        id: 'tl-prev',
        class: 'tl-btn',
        type: 'button',
        'aria-label': 'Previous step',
        title: 'Previous step ([)',
        onclick: () => view.setStep(m.st.step - 1, true),
      },
      '◀',
    );
    const next = h(
      'button',
      { id: 'tl-next', class: 'tl-btn', type: 'button', 'aria-label': 'Next step', title: 'Next step (])', onclick: () => view.setStep(m.st.step + 1, true) },
      '▶',
    );
    this.scrub = h('input', {
      id: 'tl-scrub',
      type: 'range',
      min: -1,
      max: 0,
      value: -1,
      'aria-label': 'Step',
      oninput: () => view.setStep(Number(this.scrub.value), true),
    });
    this.track = h('canvas', {
      id: 'tl-track',
      class: 'tl-track',
      height: 10,
      'aria-hidden': 'true',
      onclick: (e: MouseEvent) => {
        const rect = this.track.getBoundingClientRect();
        const s = Math.floor(((e.clientX - rect.left) / rect.width) * m.totalSteps);
        view.setStep(Math.max(-1, Math.min(m.totalSteps - 1, s)), true);
      },
    });
    this.stepText = h('span', { id: 'tl-step', class: 'tl-steptext', 'aria-live': 'polite' });
    const goRead = h(
      'button',
      { id: 'tl-go-read', class: 'tl-btn', type: 'button', title: 'Show the bytes this step read', onclick: () => nav.goToTouched('read') },
      'Read',
    );
    const goWritten = h(
      'button',
      { id: 'tl-go-written', class: 'tl-btn', type: 'button', title: 'Show the bytes this step wrote', onclick: () => nav.goToTouched('written') },
      'Written',
    );
    this.sinceBox = h('input', {
      type: 'checkbox',
      id: 'tl-since-on',
      onchange: () => view.update({ since: this.sinceBox.checked ? Number(this.sinceInput.value) || 0 : null }),
    });
    this.sinceInput = h('input', {
      id: 'tl-since',
      class: 'tl-input tl-num',
      type: 'number',
      min: -1,
      value: 0,
      'aria-label': 'Changes since step',
      onchange: () => {
        if (this.sinceBox.checked) view.update({ since: Number(this.sinceInput.value) });
      },
    });
    this.el = h(
      'div',
      { class: 'tl-timeline', role: 'group', 'aria-label': 'Executed tensor statements' },
      prev,
      h('div', { class: 'tl-scrubwrap' }, this.scrub, this.track),
      next,
      this.stepText,
      h(
        'div',
        { class: 'tl-group' },
        goRead,
        goWritten,
        h('label', { class: 'tl-field' }, this.sinceBox, h('span', { class: 'tl-label' }, 'changes since step')),
        this.sinceInput,
      ),
    );
  }

  /** Controls from the state. */
  sync(): void {
    const { st, totalSteps } = this.model;
    this.scrub.max = String(Math.max(-1, totalSteps - 1));
    this.scrub.value = String(st.step);
    this.scrub.disabled = totalSteps === 0;
    this.sinceBox.checked = st.since !== null;
    if (st.since !== null) this.sinceInput.value = String(st.since);
  }

  /** The step changed. */
  showStep(step: number): void {
    this.scrub.value = String(step);
    this.updateStepText();
    this.drawTrack();
  }

  updateStepText(): void {
    const { st, totalSteps } = this.model;
    const s = this.model.stepRec();
    if (st.step < 0) {
      setText(this.stepText, totalSteps ? `Before step 0 of ${totalSteps}` : 'No steps executed');
      return;
    }
    const base = `Step ${st.step} of ${totalSteps}`;
    if (!s) {
      setText(this.stepText, base);
      return;
    }
    const file = s.file.split(/[\\/]/).pop();
    this.stepText.replaceChildren(
      h('span', { class: 'tl-stepno' }, `${base} · `),
      h(
        'a',
        {
          class: 'tl-loc',
          href: '#',
          title: `Reveal ${s.file}:${s.line}`,
          onclick: (e: Event) => {
            e.preventDefault();
            this.view.rpc.notify('reveal', { loc: { file: s.file, line: Math.max(1, s.line), column: Math.max(1, s.column) } });
          },
        },
        `${file}:${s.line}`,
      ),
      ' ',
      h('code', { class: 'tl-stmt' }, s.text.length > 160 ? s.text.slice(0, 157) + '…' : s.text),
    );
  }

  /** The track: per step, whether it wrote (top half) and/or read (bottom half) the shown space; the current step. */
  drawTrack(): void {
    const c = this.track;
    const w = Math.max(1, Math.floor(c.clientWidth || 300));
    if (c.width !== w) c.width = w;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, c.width, c.height);
    const { totalSteps: n, stepRecs, st } = this.model;
    if (!n) return;
    const cs = getComputedStyle(this.el);
    const colW = cs.getPropertyValue('--tl-written').trim() || '#d19a66';
    const colR = cs.getPropertyValue('--tl-read').trim() || '#61afef';
    const colO = cs.getPropertyValue('--tl-faint').trim() || '#888';
    const sp = this.model.info?.id;
    for (let i = 0; i < n; i++) {
      const s = stepRecs[i];
      const x = Math.floor((i / n) * c.width);
      const x1 = Math.max(x + 1, Math.floor(((i + 1) / n) * c.width));
      const wrote = s?.written?.space === sp || (s && sp && s.changed[sp]);
      const read = s?.read?.space === sp;
      ctx.fillStyle = wrote ? colW : read ? colR : colO;
      ctx.globalAlpha = wrote || read ? 1 : 0.35;
      ctx.fillRect(x, wrote && read ? 0 : wrote ? 0 : read ? 5 : 3, x1 - x, wrote && read ? 10 : wrote ? 5 : read ? 5 : 4);
    }
    ctx.globalAlpha = 1;
    if (st.step >= 0) {
      ctx.fillStyle = cs.getPropertyValue('--tl-cursor').trim() || '#fff';
      ctx.fillRect(Math.floor(((st.step + 0.5) / n) * c.width) - 1, 0, 2, 10);
    }
  }
}
