/**
 * The partner view (served as /dashboard/assets/partner-view.js): the signed-in account's invitations to accept or
 * decline, then, per program it is a partner of, its links, figures, latest commissions and payouts, from
 * GET /api/partner. On /dashboard/partner/{programId} the section names that program (`data-program-id`): only its
 * part is shown.
 */
import { $, type Answer, api, button, clear, el, messageOf, notice, scrollRegion, when } from './dom';
import { money } from './format';
import { figuresCells, linkItem, setLink, termsText } from './partner-shared';

const only = Number($('partner-view').dataset.programId ?? '') || undefined;

async function loadPartnerView(): Promise<void> {
  const { partners: entries, invitations } = (await api<Answer<'partnerView'>>('GET', '/api/partner')).data;
  // On the welcome page: a partner has somewhere to go after all.
  const welcome = document.getElementById('empty-view');
  if (welcome) welcome.hidden = entries.length + invitations.length > 0;
  const body = clear($('partner-view-body'));
  const shownEntries = entries.filter((entry) => only === undefined || entry.program.id === only);
  const shownInvitations = only === undefined ? invitations : [];
  if (shownEntries.length + shownInvitations.length === 0)
    body.appendChild(
      el('p', { className: 'muted', text: 'No partner programs yet: invitations appear here once a merchant adds your email.' }),
    );
  for (const invitation of shownInvitations) {
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
  for (const entry of shownEntries) {
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
        linkItem(
          l,
          'partner-view-result',
          // Only the merchant turns back on a link the merchant turned off.
          l.disabled_by === 'merchant'
            ? el('span', { className: 'muted', text: 'Turned off by the merchant' })
            : button(l.enabled ? 'Turn off' : 'Turn on', 'secondary small', () =>
                setLink('/api/partner/links/' + l.id, !l.enabled, 'partner-view-result', loadPartnerView),
              ),
        ),
      ),
    );
    if (entry.links.length === 0)
      links.appendChild(el('li', { className: 'muted', text: 'No links yet: ask ' + entry.program.name + ' for one.' }));
    body.appendChild(
      el('div', { className: 'card', 'data-program-id': String(entry.program.id) }, [
        el('h3', {}, [
          only === undefined
            ? el('a', { href: '/dashboard/partner/' + entry.program.id, text: entry.program.name })
            : el('span', { text: entry.program.name }),
          ' (' + entry.program.domain + ')',
        ]),
        el('p', {
          className: 'hint',
          text:
            'You are ' +
            entry.partner.name +
            (entry.partner.status === 'suspended' ? ' (suspended: your links do not record visits)' : '') +
            '.',
        }),
        scrollRegion('Your figures at ' + entry.program.name, table),
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
  return scrollRegion(
    'Your latest commissions',
    el('table', { className: 'own-commissions' }, [el('thead', {}, [el('tr', {}, headings)]), el('tbody', {}, rows)]),
  );
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
