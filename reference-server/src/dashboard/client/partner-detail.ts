/**
 * A partner's page (served as /dashboard/assets/partner-detail.js): their figures and terms, links, latest
 * commissions and payouts, and the audit entries about them. The partner is its section's `data-partner-id`, the
 * program comes from onProgram.
 */
import { actionLabels } from '../audit-labels';
import { $, type Answer, button, clear, el, messageOf, notice, when } from './dom';
import { money } from './format';
import { linkItem, type Partner, setLink, termsText } from './partner-shared';
import { onProgram } from './program-event';
import { api } from './session-api';

const partnerId = Number($('partner-detail').dataset.partnerId);

function figures(p: Partner): void {
  const f = p.figures;
  const c = f.commissions;
  const shown: [string, string][] = [
    ['Clicks', String(f.clicks)],
    ['Leads', String(f.leads)],
    ['Sales', String(f.sales)],
    ['Revenue', money(f.revenue_cents)],
    ['Due', money(c.due_cents)],
    ['Held', money(c.held_cents)],
    ['Paid', money(c.paid_cents)],
    ['Balance', money(c.balance_cents)],
  ];
  clear($('partner-figures')).append(
    ...shown.map(([label, value]) => el('div', {}, [el('strong', { text: value }), el('span', { text: label })])),
  );
}

async function load(programId: number): Promise<void> {
  const base = '/api/dashboard/programs/' + programId;
  const [partners, links, commissions, payouts, audit] = await Promise.all([
    api<Answer<'dashboardListPartners'>>('GET', base + '/partners'),
    api<Answer<'dashboardListLinks'>>('GET', base + '/links?partner_id=' + partnerId),
    api<Answer<'dashboardListCommissions'>>('GET', base + '/commissions?limit=50&partner_id=' + partnerId),
    api<Answer<'dashboardListPayouts'>>('GET', base + '/payouts?partner_id=' + partnerId),
    api<Answer<'dashboardAuditLog'>>('GET', base + '/audit-log?limit=50&target=partner:' + partnerId),
  ]);
  const partner = partners.data.partners.find((p) => p.id === partnerId);
  if (!partner) {
    notice('partner-result', 'error', 'This partner is no longer in the program.');
    return;
  }
  $('partner-name').textContent = partner.name + (partner.status === 'suspended' ? ' (suspended)' : '');
  $('partner-terms').textContent = 'Terms: ' + termsText(partner.terms) + (partner.email ? ' · ' + partner.email : '');
  figures(partner);

  const linkList = clear($('partner-links'));
  if (links.data.links.length === 0) linkList.appendChild(el('li', { className: 'muted', text: 'No links yet.' }));
  for (const l of links.data.links) {
    const toggle = button(l.enabled ? 'Turn off' : 'Turn on', 'secondary small', () =>
      setLink(base + '/links/' + l.id, !l.enabled, 'partner-result', () => load(programId)),
    );
    linkList.appendChild(linkItem(l, 'partner-result', toggle));
  }

  const rows = clear($('partner-commissions'));
  if (commissions.data.length === 0)
    rows.appendChild(el('tr', {}, [el('td', { colspan: '4', className: 'muted', text: 'No commissions yet.' })]));
  for (const c of commissions.data)
    rows.appendChild(
      el('tr', { 'data-commission-id': String(c.id) }, [
        el('td', { text: when(c.created_at, '') }),
        el('td', { text: money({ [c.currency]: c.amount_cents }) }),
        el('td', { text: c.kind === 'adjustment' ? c.status + ' (adjustment)' : c.status }),
        el('td', { className: 'mono', text: c.transaction_id ?? '–' }),
      ]),
    );

  const payoutList = clear($('partner-payouts'));
  if (payouts.data.payouts.length === 0) payoutList.appendChild(el('li', { className: 'muted', text: 'No payouts yet.' }));
  for (const p of payouts.data.payouts) {
    const amounts: Record<string, number> = {};
    for (const [currency, total] of Object.entries(p.totals)) if (total && total.amount_cents !== 0) amounts[currency] = total.amount_cents;
    const how = [p.method, p.reference].filter(Boolean).join(', ');
    payoutList.appendChild(el('li', { text: when(p.created_at, '') + ': ' + money(amounts) + (how ? ' (' + how + ')' : '') }));
  }

  const entries = audit.data.entries;
  const log = clear($('partner-audit'));
  if (entries.length === 0) log.appendChild(el('li', { className: 'muted', text: 'No changes yet.' }));
  for (const e of entries)
    log.appendChild(
      el('li', {}, [
        el('strong', { text: actionLabels[e.action] }),
        el('span', { className: 'muted', text: ' ' + when(e.at, '') + ' by ' + e.actor }),
      ]),
    );
}

onProgram((program) => {
  load(program.id).catch((e: unknown) => notice('partner-result', 'error', messageOf(e)));
});
