/**
 * The Partners page (served as /dashboard/assets/partners.js): add a partner, create and copy a link, turn a link
 * off, per-partner figures and terms; each partner's name opens their own page. The program comes from onProgram.
 */
import { $, type Answer, api, button, type Child, clear, el, messageOf, notice, onSubmit } from './dom';
import { copyButton, figuresCells, type Partner, setLink, termsText } from './partner-shared';
import { onProgram, type OpenProgram } from './program-event';

type Link = Answer<'dashboardListLinks'>['data']['links'][number];

let current: OpenProgram | null = null;

/** The program whose section is shown (set before any control of the section can be used). */
function program(): OpenProgram {
  if (!current) throw new Error('No program is open.');
  return current;
}

/** The partner's risk events, counted under the status (the Risk page, client/risk.ts, lists them). */
function riskCount(p: { risk_events: number }): Child[] {
  if (p.risk_events === 0) return [];
  return [' ', el('span', { className: 'badge warn', 'data-risk-count': String(p.risk_events), text: p.risk_events + ' risk' })];
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
        el('td', {}, [
          el('a', { href: '/dashboard/programs/' + program().id + '/partners/' + p.id }, [el('strong', { text: p.name })]),
          el('div', { className: 'muted', text: invitationText(p) }),
        ]),
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
