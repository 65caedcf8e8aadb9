/**
 * The Partners section and the partner view (served as /dashboard/assets/partners.js). The dashboard script
 * (app.ts) announces the open program with a `svc:program` event; the partner view loads on its own from
 * GET /api/partner.
 */
import { $, type Answer, api, button, type Child, clear, el, messageOf, notice, onSubmit, when } from './dom';
import { onProgram, type OpenProgram } from './program-event';

type Partner = Answer<'dashboardListPartners'>['data']['partners'][number];
type Figures = Partner['figures'];
type Link = Answer<'dashboardListLinks'>['data']['links'][number];

let current: OpenProgram | null = null;

/** The program whose section is shown (set before any control of the section can be used). */
function program(): OpenProgram {
  if (!current) throw new Error('No program is open.');
  return current;
}

function money(amounts: Record<string, number>): string {
  const keys = Object.keys(amounts);
  if (keys.length === 0) return '0';
  return keys.map((c) => (c === 'VND' ? String(amounts[c]) : ((amounts[c] ?? 0) / 100).toFixed(2)) + ' ' + c).join(' + ');
}
function copyButton(url: string, resultId: string): HTMLButtonElement {
  return button('Copy', 'secondary small', async () => {
    try {
      await navigator.clipboard.writeText(url);
      notice(resultId, 'ok', 'Copied ' + url);
    } catch {
      notice(resultId, 'warn', 'Copy it by hand: ' + url);
    }
  });
}
/** The partner's risk events, counted under the status (the Risk section, client/risk.ts, lists them). */
function riskCount(p: { risk_events: number }): Child[] {
  if (p.risk_events === 0) return [];
  return [' ', el('span', { className: 'badge warn', 'data-risk-count': String(p.risk_events), text: p.risk_events + ' risk' })];
}

function figuresCells(f: Figures): HTMLTableCellElement[] {
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

// Merchant: the Partners section of the open program
async function loadPartners(): Promise<void> {
  const base = '/api/dashboard/programs/' + program().id;
  const [partnersAnswer, linksAnswer] = await Promise.all([
    api<Answer<'dashboardListPartners'>>('GET', base + '/partners'),
    api<Answer<'dashboardListLinks'>>('GET', base + '/links'),
  ]);
  const partners = partnersAnswer.data.partners;
  const links = linksAnswer.data.links;
  const names: Record<number, string> = {};
  const rows = clear($('partners-body'));
  const select = clear($('ln-partner'));
  if (partners.length === 0)
    rows.appendChild(el('tr', {}, [el('td', { colspan: '13', className: 'muted', text: 'No partners yet: add your first one below.' })]));
  for (const p of partners) {
    names[p.id] = p.name;
    select.appendChild(el('option', { value: String(p.id), text: p.name }));
    const actions = el('td', {}, [
      button(p.status === 'active' ? 'Suspend' : 'Reactivate', 'secondary small', () =>
        changePartner(p.id, { status: p.status === 'active' ? 'suspended' : 'active' }),
      ),
    ]);
    actions.appendChild(button('Terms', 'secondary small', () => editTerms(p)));
    rows.appendChild(
      el('tr', { 'data-partner-id': String(p.id) }, [
        el('td', {}, [el('strong', { text: p.name }), el('div', { className: 'muted', text: invitationText(p) })]),
        el('td', {}, [el('span', { className: p.status === 'active' ? 'badge ok' : 'badge warn', text: p.status }), ...riskCount(p)]),
        el('td', { className: 'terms', text: termsText(p.terms) }),
        ...figuresCells(p.figures),
        actions,
      ]),
    );
  }
  const linkRows = clear($('links-body'));
  if (links.length === 0)
    linkRows.appendChild(el('tr', {}, [el('td', { colspan: '4', className: 'muted', text: 'No referral links yet.' })]));
  for (const l of links) {
    linkRows.appendChild(
      el('tr', { 'data-short-link': l.short_link }, [
        el('td', { text: names[l.partner_id] || '#' + l.partner_id }),
        el('td', {}, [el('code', { className: 'link-url', text: l.url }), ' ', copyButton(l.url, 'partners-result')]),
        el('td', {}, [el('span', { className: l.enabled ? 'badge ok' : 'badge warn', text: linkState(l) })]),
        el('td', {}, [
          button(l.enabled ? 'Turn off' : 'Turn on', 'secondary small', () =>
            setLink(base + '/links/' + l.id, !l.enabled, 'partners-result', loadPartners),
          ),
        ]),
      ]),
    );
  }
  // The Payouts section reads what is due from the partners too.
  document.dispatchEvent(new CustomEvent('svc:partners-changed'));
}
function invitationText(p: Partner): string {
  if (!p.email) return 'not invited';
  const state = { pending: 'invitation not yet accepted', accepted: 'invitation accepted', declined: 'invitation declined' };
  return p.email + ' · ' + (p.invitation ? state[p.invitation] : '');
}
function linkState(l: Link): string {
  if (l.enabled) return 'on';
  return l.disabled_by === 'partner' ? 'off (by the partner)' : 'off';
}
async function changePartner(id: number, body: { status: 'active' | 'suspended' }): Promise<void> {
  try {
    await api('PATCH', '/api/dashboard/programs/' + program().id + '/partners/' + id, body);
    await loadPartners();
  } catch (e) {
    notice('partners-result', 'error', messageOf(e));
  }
}
async function setLink(path: string, enabled: boolean, resultId: string, reload: () => Promise<void>): Promise<void> {
  try {
    await api('PATCH', path, { enabled });
    notice(resultId, 'ok', enabled ? 'Link turned on.' : 'Link turned off: visits through it are no longer recorded.');
    await reload();
  } catch (e) {
    notice(resultId, 'error', messageOf(e));
  }
}
function termsText(t: Partner['terms']): string {
  const rate = t.commission_type.endsWith('percent') ? t.commission_rate + ' %' : money({ USD: t.commission_rate }).replace(' USD', '');
  return t.commission_type.replace('_', ' ') + ' ' + rate + (t.source === 'program' ? ' (program)' : ' (own)');
}
/** The partner's own terms, in a form under the table: applied to the sales recorded after saving. */
function editTerms(p: Partner): void {
  $('terms-partner').textContent = p.name;
  $('terms-form').dataset.partnerId = String(p.id);
  $('terms-type', HTMLSelectElement).value = p.terms.source === 'partner' ? p.terms.commission_type : '';
  $('terms-rate', HTMLInputElement).value = p.terms.source === 'partner' ? String(p.terms.commission_rate) : '';
  $('terms-form').hidden = false;
  $('terms-type').focus();
}
onSubmit('terms-form', async () => {
  const form = $('terms-form');
  const type = $('terms-type', HTMLSelectElement).value;
  const body = type
    ? { commission_type: type, commission_rate: Number($('terms-rate', HTMLInputElement).value) }
    : { commission_type: null, commission_rate: null };
  try {
    await api('PATCH', '/api/dashboard/programs/' + program().id + '/partners/' + form.dataset.partnerId, body);
    form.hidden = true;
    notice(
      'partners-result',
      'ok',
      type ? 'Terms saved: they apply to sales recorded from now on.' : "The partner follows the program's terms again.",
    );
    await loadPartners();
  } catch (e) {
    notice('partners-result', 'error', messageOf(e));
  }
});
onSubmit('new-partner-form', async () => {
  const email = $('pa-email', HTMLInputElement).value.trim();
  const name = $('pa-name', HTMLInputElement).value;
  try {
    const p = (
      await api<Answer<'dashboardCreatePartner', 201>>(
        'POST',
        '/api/dashboard/programs/' + program().id + '/partners',
        email ? { name, email } : { name },
      )
    ).data;
    $('new-partner-form', HTMLFormElement).reset();
    notice('partners-result', 'ok', 'Partner ' + p.name + ' added. Create a referral link for them.');
    await loadPartners();
    $('ln-partner', HTMLSelectElement).value = String(p.id);
  } catch (e) {
    notice('partners-result', 'error', messageOf(e));
  }
});
onSubmit('new-link-form', async () => {
  const short = $('ln-short', HTMLInputElement).value.trim();
  const body: { partner_id: number; short_link?: string } = { partner_id: Number($('ln-partner', HTMLSelectElement).value) };
  if (short) body.short_link = short;
  try {
    const l = (await api<Answer<'dashboardCreateLink', 201>>('POST', '/api/dashboard/programs/' + program().id + '/links', body)).data;
    $('ln-short', HTMLInputElement).value = '';
    const box = clear($('partners-result'));
    box.appendChild(
      el('p', { className: 'notice ok', role: 'status' }, [
        'Link created. The partner shares: ',
        el('code', { id: 'new-link-url', text: l.url }),
        ' ',
        copyButton(l.url, 'partners-result'),
      ]),
    );
    await loadPartners();
  } catch (e) {
    notice('partners-result', 'error', messageOf(e));
  }
});
document.addEventListener('svc:payout-recorded', () => {
  loadPartners().catch((e: unknown) => notice('partners-result', 'error', messageOf(e)));
});
onProgram((opened) => {
  current = opened;
  clear($('partners-result'));
  loadPartners().catch((e: unknown) => notice('partners-result', 'error', messageOf(e)));
});

// Partner: invitations, their own links and figures
async function loadPartnerView(): Promise<void> {
  const { partners: entries, invitations } = (await api<Answer<'partnerView'>>('GET', '/api/partner')).data;
  const shown = entries.length + invitations.length > 0;
  $('partner-view').hidden = !shown;
  document.body.classList.toggle('has-partner-view', shown);
  const body = clear($('partner-view-body'));
  for (const invitation of invitations) {
    body.appendChild(
      el('div', { className: 'card', 'data-invitation-id': String(invitation.partner_id) }, [
        el('h3', { text: 'Invitation: ' + invitation.program_name }),
        el('p', { text: invitation.invited_by + ' invited you to be a partner of ' + invitation.program_name + '.' }),
        button('Accept', 'small', () => answerInvitation(invitation.partner_id, 'accept')),
        ' ',
        button('Decline', 'secondary small', () => answerInvitation(invitation.partner_id, 'decline')),
      ]),
    );
  }
  for (const entry of entries) {
    const headings = ['Clicks', 'Leads', 'Sales', 'Revenue', 'Due', 'Held', 'Paid', 'Reversed', 'Balance'].map((h) =>
      el('th', { text: h }),
    );
    const table = el('table', {}, [
      el('thead', {}, [el('tr', {}, headings)]),
      el('tbody', {}, [el('tr', {}, figuresCells(entry.partner.figures))]),
    ]);
    const links = el(
      'ul',
      { className: 'partner-links' },
      entry.links.map((l) =>
        el('li', { 'data-short-link': l.short_link }, [
          el('code', { className: 'link-url', text: l.url }),
          ' ',
          copyButton(l.url, 'partner-view-result'),
          ' ',
          el('span', { className: l.enabled ? 'badge ok' : 'badge warn', text: l.enabled ? 'on' : 'off' }),
          ' ',
          // Only the merchant turns back on a link the merchant turned off.
          l.disabled_by === 'merchant'
            ? el('span', { className: 'muted', text: 'Turned off by the merchant' })
            : button(l.enabled ? 'Turn off' : 'Turn on', 'secondary small', () =>
                setLink('/api/partner/links/' + l.id, !l.enabled, 'partner-view-result', loadPartnerView),
              ),
        ]),
      ),
    );
    if (entry.links.length === 0)
      links.appendChild(el('li', { className: 'muted', text: 'No links yet: ask ' + entry.program.name + ' for one.' }));
    body.appendChild(
      el('div', { className: 'card', 'data-program-id': String(entry.program.id) }, [
        el('h3', { text: entry.program.name + ' (' + entry.program.domain + ')' }),
        el('p', {
          className: 'hint',
          text:
            'You are ' +
            entry.partner.name +
            (entry.partner.status === 'suspended' ? ' (suspended: your links do not record visits)' : '') +
            '.',
        }),
        table,
        el('p', { className: 'hint', text: 'Your terms: ' + termsText(entry.partner.terms) + '.' }),
        el('h4', { text: 'Your links' }),
        links,
        el('h4', { text: 'Your latest commissions' }),
        ownCommissions(entry.commissions),
        el('h4', { text: 'Payouts' }),
        payoutList(entry.payouts),
      ]),
    );
  }
}
/** The partner's latest 50 commissions in a program: pending ones show when they become due. */
function ownCommissions(list: Answer<'partnerView'>['data']['partners'][number]['commissions']): HTMLElement {
  if (list.length === 0) return el('p', { className: 'muted', text: 'No commissions yet.' });
  const rows = list.map((c) =>
    el('tr', { 'data-commission-id': String(c.id), 'data-status': c.status }, [
      el('td', { text: when(c.created_at, '') }),
      el('td', { text: money({ [c.currency]: c.amount_cents }) }),
      el('td', { text: c.kind === 'adjustment' ? c.status + ' (adjustment)' : c.status }),
      el('td', { text: c.status === 'pending' ? 'due ' + when(c.due_at, '') : '' }),
    ]),
  );
  const headings = ['Created', 'Amount', 'Status', 'Due'].map((h) => el('th', { text: h }));
  return el('table', { className: 'own-commissions' }, [el('thead', {}, [el('tr', {}, headings)]), el('tbody', {}, rows)]);
}
/** The partner's payouts: date, amount, method and reference. */
function payoutList(payouts: Answer<'partnerView'>['data']['partners'][number]['payouts']): HTMLElement {
  if (payouts.length === 0) return el('p', { className: 'muted', text: 'No payouts yet.' });
  return el(
    'ul',
    { className: 'partner-payouts' },
    payouts.map((p) => {
      const amounts: Record<string, number> = {};
      for (const [currency, total] of Object.entries(p.totals))
        if (total && total.amount_cents !== 0) amounts[currency] = total.amount_cents;
      const how = [p.method, p.reference].filter(Boolean).join(', ');
      return el('li', {
        'data-payout-id': String(p.id),
        text: new Date(p.created_at).toLocaleDateString() + ': ' + money(amounts) + (how ? ' (' + how + ')' : ''),
      });
    }),
  );
}
async function answerInvitation(partnerId: number, answer: 'accept' | 'decline'): Promise<void> {
  try {
    await api('POST', '/api/partner/invitations/' + partnerId + '/' + answer);
    notice('partner-view-result', 'ok', answer === 'accept' ? 'Invitation accepted.' : 'Invitation declined.');
    await loadPartnerView();
  } catch (e) {
    notice('partner-view-result', 'error', messageOf(e));
  }
}
loadPartnerView().catch((e: unknown) => notice('partner-view-result', 'error', messageOf(e)));
