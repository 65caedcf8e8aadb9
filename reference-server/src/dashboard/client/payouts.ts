/**
 * The Payouts section (served as /dashboard/assets/payouts.js): what a partner is due, a confirm step before a payout
 * is recorded (in the page, not a browser dialog), the payout history with each payout's CSV, and the commission CSV
 * with the range it will export. Loads for the program app.ts announces (`svc:program`).
 */
import { $, type Answer, api, ApiError, button, clear, el, messageOf, notice, onSubmit } from './dom';
import { onProgram, type OpenProgram } from './program-event';

type Partner = Answer<'dashboardListPartners'>['data']['partners'][number];
type Payout = Answer<'dashboardRecordPayout', 201>['data'];
type Amounts = Record<string, number>;

let current: OpenProgram | null = null;
let partners: Partner[] = [];
/** The payout waiting for the owner's confirmation. */
let pending: { partner: Partner; body: Record<string, string | number> } | null = null;

function program(): OpenProgram {
  if (!current) throw new Error('No program is open.');
  return current;
}
const base = () => '/api/dashboard/programs/' + program().id;

function money(amounts: Amounts): string {
  const keys = Object.keys(amounts).filter((c) => amounts[c] !== 0);
  if (keys.length === 0) return '0';
  return keys.map((c) => (c === 'VND' ? String(amounts[c]) : ((amounts[c] ?? 0) / 100).toFixed(2)) + ' ' + c).join(' + ');
}
function paidAmounts(p: Payout): Amounts {
  const out: Amounts = {};
  for (const [currency, total] of Object.entries(p.totals)) if (total && total.amount_cents !== 0) out[currency] = total.amount_cents;
  return out;
}
/** What the next payout pays: the positive balances (a negative one carries). */
function dueOf(p: Partner): Amounts {
  const out: Amounts = {};
  for (const [currency, cents] of Object.entries(p.figures.commissions.balance_cents)) if ((cents ?? 0) > 0) out[currency] = cents ?? 0;
  return out;
}
function selected(): Partner | undefined {
  const id = Number($('po-partner', HTMLSelectElement).value);
  return partners.find((p) => p.id === id);
}
function showDue(): void {
  const p = selected();
  $('po-due').textContent = p ? 'Due to ' + p.name + ' now: ' + money(dueOf(p)) + '.' : 'Add a partner first.';
}

async function load(): Promise<void> {
  const [list, history] = await Promise.all([
    api<Answer<'dashboardListPartners'>>('GET', base() + '/partners'),
    api<Answer<'dashboardListPayouts'>>('GET', base() + '/payouts'),
  ]);
  partners = list.data.partners;
  const select = $('po-partner', HTMLSelectElement);
  const keep = select.value;
  clear(select);
  for (const p of partners) select.appendChild(el('option', { value: String(p.id), text: p.name }));
  if (partners.some((p) => String(p.id) === keep)) select.value = keep;
  showDue();
  const names: Record<number, string> = {};
  for (const p of partners) names[p.id] = p.name;
  const rows = clear($('payouts-body'));
  if (history.data.payouts.length === 0)
    rows.appendChild(el('tr', {}, [el('td', { colspan: '7', className: 'muted', text: 'No payouts recorded yet.' })]));
  for (const p of history.data.payouts) {
    rows.appendChild(
      el('tr', { 'data-payout-id': String(p.id) }, [
        el('td', { text: new Date(p.created_at).toLocaleDateString() }),
        el('td', { text: names[p.partner_id] || '#' + p.partner_id }),
        el('td', { text: money(paidAmounts(p)) }),
        el('td', { text: p.method ?? '' }),
        el('td', { text: p.reference ?? '' }),
        el('td', { text: p.created_by }),
        el('td', {}, [el('a', { className: 'button secondary small', href: base() + '/payouts/' + p.id + '.csv', text: 'CSV' })]),
      ]),
    );
  }
  csvLink();
}

function hideConfirm(): void {
  pending = null;
  $('payout-confirm').hidden = true;
}

/** The review step: the amount and the partner, then Confirm or Cancel. */
onSubmit('payout-form', () => {
  const partner = selected();
  if (!partner) return notice('payouts-result', 'error', 'Choose a partner.');
  const due = dueOf(partner);
  if (Object.keys(due).length === 0) return notice('payouts-result', 'warn', 'Nothing is due to ' + partner.name + ' now.');
  const body: Record<string, string | number> = { partner_id: partner.id };
  const fields = {
    method: $('po-method', HTMLInputElement),
    reference: $('po-reference', HTMLInputElement),
    note: $('po-note', HTMLTextAreaElement),
  };
  for (const [field, input] of Object.entries(fields)) if (input.value.trim()) body[field] = input.value.trim();
  pending = { partner, body };
  clear($('payouts-result'));
  $('payout-confirm-text').textContent =
    'Record that you paid ' + partner.name + ' ' + money(due) + (body.method ? ' by ' + String(body.method) : '') + '?';
  $('payout-confirm').hidden = false;
  $('payout-confirm-yes').focus();
});

async function pay(force: boolean): Promise<void> {
  if (!pending) return;
  const { partner, body } = pending;
  hideConfirm();
  try {
    const payout = (await api<Answer<'dashboardRecordPayout', 201>>('POST', base() + '/payouts', force ? { ...body, force } : body)).data;
    $('payout-form', HTMLFormElement).reset();
    notice('payouts-result', 'ok', 'Payout recorded: ' + partner.name + ', ' + money(paidAmounts(payout)) + '.');
    document.dispatchEvent(new CustomEvent('svc:payout-recorded'));
    await load();
  } catch (e) {
    const minimum = e instanceof ApiError ? e.details.min_payout_cents : undefined;
    if (typeof minimum !== 'number') return notice('payouts-result', 'error', messageOf(e));
    // Below the program's minimum: say so, and let the owner record it anyway.
    pending = { partner, body };
    const box = clear($('payouts-result'));
    box.appendChild(
      el('p', { className: 'notice warn', role: 'status' }, [
        'This is below your minimum payout of ' + (minimum / 100).toFixed(2) + ' per currency. ',
        button('Record anyway', 'small', () => pay(true)),
      ]),
    );
  }
}
$('payout-confirm-yes').addEventListener('click', () => void pay(false));
$('payout-confirm-no').addEventListener('click', () => {
  hideConfirm();
  notice('payouts-result', 'ok', 'Nothing recorded.');
});
$('po-partner').addEventListener('change', () => {
  hideConfirm();
  showDue();
});

/** The commission CSV: each date optional; the hint says what the link exports now. */
function csvLink(): void {
  const from = $('csv-from', HTMLInputElement).value;
  const to = $('csv-to', HTMLInputElement).value;
  const query = [from ? 'from=' + from : '', to ? 'to=' + to : ''].filter(Boolean).join('&');
  $('csv-link').setAttribute('href', base() + '/commissions.csv' + (query ? '?' + query : ''));
  let range = 'every commission (no dates chosen)';
  if (from && to) range = 'the commissions created from ' + from + ' to ' + to;
  else if (from) range = 'the commissions created from ' + from + ' to now';
  else if (to) range = 'the commissions created up to ' + to;
  $('csv-range').textContent = 'Exports ' + range + '.';
}
$('csv-from').addEventListener('change', csvLink);
$('csv-to').addEventListener('change', csvLink);

onProgram((opened) => {
  current = opened;
  hideConfirm();
  clear($('payouts-result'));
  // Only owners record payouts; members see the history and the export.
  $('payout-form').hidden = opened.role !== 'owner';
  load().catch((e: unknown) => notice('payouts-result', 'error', messageOf(e)));
});
// The Partners section changes what is due (a partner added, a commission released): read it again.
document.addEventListener('svc:partners-changed', () => {
  if (current) load().catch((e: unknown) => notice('payouts-result', 'error', messageOf(e)));
});
