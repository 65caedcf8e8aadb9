/**
 * The performance chart: clicks, leads and sales per day as bars, drawn at the width of its box in CSS pixels (so a
 * label of 12 is 12 px on a phone too), with day labels spaced so they never overlap. Screen readers get the table
 * beside it (overview-sections.ts) instead: the chart is hidden from them.
 */
import type { Answer } from './dom';

export type Day = Answer<'dashboardPerformance'>['data']['by_day'][number];

const NS = 'http://www.w3.org/2000/svg';
const fontPx = 12;
/** Room one day label takes (`03-14` at 12 px, about 36 px, with a gap). */
const labelPx = 52;

export function drawChart(box: HTMLElement, days: Day[]): void {
  const W = Math.max(280, Math.floor(box.clientWidth || 720));
  const H = 200;
  const pad = { left: 32, bottom: 22, top: 8 };
  const n = Math.max(1, days.length);
  const max = Math.max(1, ...days.map((d) => Math.max(d.clicks, d.leads, d.sales)));
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', String(W));
  svg.setAttribute('height', String(H));
  svg.setAttribute('class', 'chart');
  svg.setAttribute('aria-hidden', 'true');
  const add = (tag: string, attrs: Record<string, string | number>, text?: string) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  const plotH = H - pad.bottom - pad.top;
  const slot = (W - pad.left) / n;
  const bw = Math.max(1, slot / 4);
  add('line', { x1: pad.left, y1: H - pad.bottom, x2: W, y2: H - pad.bottom, stroke: '#dde2ea' });
  add('text', { x: 0, y: pad.top + fontPx, 'font-size': fontPx, fill: '#5b6576' }, String(max));
  add('text', { x: 0, y: H - pad.bottom, 'font-size': fontPx, fill: '#5b6576' }, '0');
  const series = [
    ['clicks', 'var(--click)'],
    ['leads', 'var(--lead)'],
    ['sales', 'var(--sale)'],
  ] as const;
  // Every `step`-th day is labelled, counted from the last, so today (or the range's end) always is.
  const step = Math.max(1, Math.ceil((labelPx * n) / (W - pad.left)));
  days.forEach((d, i) => {
    series.forEach(([key, color], j) => {
      const h = (d[key] / max) * plotH;
      add('rect', {
        x: pad.left + i * slot + j * bw,
        y: H - pad.bottom - h,
        width: Math.max(0.5, bw - 0.5),
        height: Math.max(0, h),
        fill: color,
      });
    });
    if ((n - 1 - i) % step === 0) {
      // Centred under its day; the last one ends at the chart's edge, so it is never cut off.
      const last = i === n - 1;
      const x = last ? W : pad.left + (i + 0.5) * slot;
      add('text', { x, y: H - 5, 'font-size': fontPx, fill: '#5b6576', 'text-anchor': last ? 'end' : 'middle' }, d.date.slice(5));
    }
  });
  box.replaceChildren(svg);
}
