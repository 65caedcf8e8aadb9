/**
 * What the Partners section (partners.ts), a partner's page (partner-detail.ts) and the partner view
 * (partner-view.ts) show alike: figures, terms, links with Copy and on/off.
 */
import { type Answer, api, button, el, messageOf, notice } from './dom';
import { money } from './format';

export type Partner = Answer<'dashboardListPartners'>['data']['partners'][number];
export type Figures = Partner['figures'];

export function copyButton(url: string, resultId: string): HTMLButtonElement {
  return button('Copy', 'secondary small', async () => {
    try {
      await navigator.clipboard.writeText(url);
      notice(resultId, 'ok', 'Copied ' + url);
    } catch {
      notice(resultId, 'warn', 'Copy it by hand: ' + url);
    }
  });
}
export function figuresCells(f: Figures): HTMLTableCellElement[] {
  const c = f.commissions;
  return [
    f.clicks,
    f.leads,
    f.sales,
    money(f.revenue_cents),
    money(c.due_cents),
    money(c.held_cents),
    money(c.paid_cents),
    money(c.reversed_cents),
    money(c.balance_cents),
  ].map((v) => el('td', { text: String(v) }));
}

/** A referral link's row: its address, Copy, its on/off badge, then `action` (what the viewer may do with it). */
export function linkItem(link: { short_link: string; url: string; enabled: boolean }, resultId: string, action: Node): HTMLLIElement {
  const state = link.enabled ? 'on' : 'off';
  return el('li', { 'data-short-link': link.short_link }, [
    el('code', { className: 'link-url', text: link.url }),
    ' ',
    copyButton(link.url, resultId),
    ' ',
    el('span', { className: link.enabled ? 'badge ok' : 'badge warn', text: state }),
    ' ',
    action,
  ]);
}

export async function setLink(path: string, enabled: boolean, resultId: string, reload: () => Promise<void>): Promise<void> {
  try {
    await api('PATCH', path, { enabled });
    notice(resultId, 'ok', enabled ? 'Link turned on.' : 'Link turned off: visits through it are no longer recorded.');
    await reload();
  } catch (e) {
    notice(resultId, 'error', messageOf(e));
  }
}

export function termsText(t: Partner['terms']): string {
  const rate = t.commission_type.endsWith('percent') ? t.commission_rate + ' %' : money({ USD: t.commission_rate }).replace(' USD', '');
  return t.commission_type.replace('_', ' ') + ' ' + rate + (t.source === 'program' ? ' (program)' : ' (own)');
}
