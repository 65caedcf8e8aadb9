/**
 * The Commissions section (served as /dashboard/assets/commissions.js): the program's commissions with filters and
 * "Show more" (the list's cursor), approve and decline (with a reason) on pending and held commissions, and bonuses
 * or clawbacks (adjustments). Owners decide; members see the list. The dashboard script (app.ts) announces the open
 * program with a `svc:program` event.
 */
import { $, type Answer, api, button, clear, el, messageOf, notice as noticeIn, type NoticeKind, onSubmit, when } from './dom';
import { onProgram, type OpenProgram } from './program-event';

type Page = Answer<'dashboardListCommissions'>;
type Commission = Page['data'][number];

let current: OpenProgram | null = null;
let next: string | null = null;

function notice(kind: NoticeKind, text: string): void {
  noticeIn('commissions-result', kind, text);
}
function base(): string {
  if (!current) throw new Error('No program is open.');
  return '/api/dashboard/programs/' + current.id;
}
function amount(c: Commission): string {
  return (c.currency === 'VND' ? String(c.amount_cents) : (c.amount_cents / 100).toFixed(2)) + ' ' + c.currency;
}
function query(): string {
  const params = new URLSearchParams({ limit: '25' });
  for (const [id, name] of [
    ['cm-status', 'status'],
    ['cm-partner', 'partner_id'],
    ['cm-from', 'from'],
    ['cm-to', 'to'],
  ] as const) {
    const value = ($(id) as HTMLInputElement | HTMLSelectElement).value.trim();
    if (value) params.set(name, value);
  }
  if (next) params.set('cursor', next);
  return params.toString();
}

function actions(c: Commission): HTMLElement {
  const cell = el('td', { className: 'inline' });
  if (current?.role !== 'owner' || (c.status !== 'pending' && c.status !== 'held' && c.status !== 'due')) return cell;
  if (c.status !== 'due') cell.appendChild(button('Approve', 'secondary small', () => decide(c, 'approve')));
  const reason = el('input', {
    type: 'text',
    maxlength: '500',
    'aria-label': 'Reason to decline commission ' + c.id,
    placeholder: 'Reason',
  });
  cell.appendChild(reason);
  cell.appendChild(button('Decline', 'danger small', () => decide(c, 'decline', reason.value.trim())));
  return cell;
}
function row(c: Commission): HTMLTableRowElement {
  return el('tr', { 'data-commission-id': String(c.id), 'data-status': c.status }, [
    el('td', { text: String(c.id) }),
    el('td', { text: when(c.created_at, '') }),
    el('td', { text: String(c.partner_id) }),
    el('td', { text: c.kind === 'adjustment' ? 'adjustment' : 'sale ' + (c.transaction_id ?? '') }),
    el('td', { text: amount(c) }),
    el('td', {}, [el('span', { className: c.status === 'due' || c.status === 'paid' ? 'badge ok' : 'badge', text: c.status })]),
    el('td', { text: c.status === 'pending' ? when(c.due_at, '') : '' }),
    actions(c),
  ]);
}

async function load(more = false): Promise<void> {
  if (!more) next = null;
  const page = await api<Page>('GET', base() + '/commissions?' + query());
  const body = $('commissions-body');
  if (!more) clear(body);
  for (const c of page.data) body.appendChild(row(c));
  next = page.next_cursor;
  $('commissions-more').hidden = next === null;
  $('commissions-empty').hidden = body.childElementCount > 0;
}

async function decide(c: Commission, action: 'approve' | 'decline', reason?: string): Promise<void> {
  try {
    await api('POST', base() + '/commissions/' + c.id + '/' + action, action === 'decline' ? { reason } : undefined);
    notice('ok', 'Commission ' + c.id + (action === 'approve' ? ' approved: due now.' : ' declined.'));
    await load();
  } catch (err) {
    notice('error', messageOf(err));
  }
}

onSubmit('commissions-filter', async () => {
  try {
    await load();
  } catch (err) {
    notice('error', messageOf(err));
  }
});
$('commissions-more').addEventListener('click', () => {
  load(true).catch((err: unknown) => notice('error', messageOf(err)));
});
onSubmit('adjustment-form', async () => {
  const partner = $('adj-partner', HTMLInputElement).value.trim();
  try {
    const made = await api<Answer<'dashboardCreateAdjustment', 201>>(
      'POST',
      base() + '/partners/' + encodeURIComponent(partner) + '/adjustments',
      {
        amount_cents: Number($('adj-amount', HTMLInputElement).value),
        currency: $('adj-currency', HTMLSelectElement).value,
        reason: $('adj-reason', HTMLInputElement).value.trim(),
      },
    );
    $('adjustment-form', HTMLFormElement).reset();
    notice('ok', 'Adjustment ' + made.data.id + ' recorded: ' + amount(made.data) + ', due now.');
    await load();
  } catch (err) {
    notice('error', messageOf(err));
  }
});
onProgram((opened) => {
  current = opened;
  clear($('commissions-result'));
  $('adjustment-form').hidden = opened.role !== 'owner';
  load().catch((err: unknown) => notice('error', messageOf(err)));
});
