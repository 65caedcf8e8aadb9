/**
 * The Audit log section (served as /dashboard/assets/audit.js): the program's entries newest first, each with who,
 * when, what and why, its details in words; a filter by action; "Older entries" follows `next_cursor`. The dashboard
 * script (app.ts) announces the open program with a `svc:program` event.
 */
import { actionLabels } from '../audit-labels';
import { $, type Answer, api, clear, el, messageOf, notice, when } from './dom';
import { onProgram, type OpenProgram } from './program-event';

type Page = Answer<'dashboardAuditLog'>['data'];
type Entry = Page['entries'][number];

let current: OpenProgram | null = null;
let cursor: string | null = null;
/** Bumped by every fresh load: an answer for an older program or filter is dropped. */
let generation = 0;

/** A value as the log shows it: text as is, lists joined, nothing as "none". */
function shown(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(shown).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const fieldNames: Record<string, string> = {
  amount_cents: 'amount',
  api_key_last4: 'key ending',
  attribution_window_days: 'attribution window (days)',
  allowed_origins: 'allowed origins',
  lead_auth: 'lead authentication',
  processor_account: 'Stripe account',
  disabled_by: 'turned off by',
  partner_id: 'partner',
  short_link: 'short link',
};

/** Amounts in cents as money ("12.34 USD"); totals per currency (a release) likewise. */
function money(cents: unknown, currency: unknown): string {
  return typeof cents === 'number' ? (cents / 100).toFixed(2) + ' ' + shown(currency) : shown(cents);
}

/** The details as lines: "name: Jane → Jane Doe", "amount: 20.00 USD". */
function detailLines(details: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (key === 'currency') continue;
    const name = fieldNames[key] ?? key.replaceAll('_', ' ');
    if (key === 'amount_cents') lines.push(name + ': ' + money(value, details.currency));
    else if (key === 'totals' && Array.isArray(value)) {
      const sums = value.map((t: { amount_cents?: unknown; currency?: unknown }) => money(t.amount_cents, t.currency));
      lines.push('total: ' + sums.join(', '));
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'from' in value && 'to' in value) {
      lines.push(name + ': ' + shown(value.from) + ' → ' + shown(value.to));
    } else lines.push(name + ': ' + shown(value));
  }
  return lines;
}

function entryItem(e: Entry): HTMLLIElement {
  const label = (actionLabels as Record<string, string>)[e.action] ?? e.action;
  const children: Node[] = [
    el('p', { className: 'audit-head' }, [el('strong', { text: label }), ' ', el('code', { text: e.target })]),
    el('p', { className: 'muted audit-who', text: e.actor + ' · ' + when(e.at, '') }),
  ];
  const lines = detailLines(e.details);
  if (lines.length > 0)
    children.push(
      el(
        'ul',
        { className: 'audit-details' },
        lines.map((l) => el('li', { text: l })),
      ),
    );
  if (e.reason) children.push(el('p', { className: 'audit-reason', text: 'Reason: ' + e.reason }));
  return el('li', { 'data-audit-id': String(e.id), 'data-action': e.action }, children);
}

async function load(more: boolean): Promise<void> {
  if (!current) return;
  const mine = more ? generation : ++generation;
  const action = $('audit-action', HTMLSelectElement).value;
  const query = new URLSearchParams({ limit: '25' });
  if (action) query.set('action', action);
  if (more && cursor) query.set('cursor', cursor);
  const older = $('audit-older', HTMLButtonElement);
  try {
    const page = (await api<Answer<'dashboardAuditLog'>>('GET', '/api/dashboard/programs/' + current.id + '/audit-log?' + query.toString()))
      .data;
    if (mine !== generation) return;
    const list = $('audit-list');
    if (!more) clear(list);
    for (const e of page.entries) list.appendChild(entryItem(e));
    cursor = page.next_cursor;
    older.hidden = cursor === null;
    if (!more && page.entries.length === 0) notice('audit-result', 'ok', action ? 'No entries for this action.' : 'No entries yet.');
    else if (more) notice('audit-result', 'ok', page.entries.length + ' older entries shown.');
    else clear($('audit-result'));
  } catch (err) {
    if (mine === generation) notice('audit-result', 'error', messageOf(err));
  }
}

onProgram((program) => {
  current = program;
  cursor = null;
  void load(false);
});
$('audit-action', HTMLSelectElement).addEventListener('change', () => void load(false));
$('audit-older', HTMLButtonElement).addEventListener('click', () => void load(true));
$('audit-refresh', HTMLButtonElement).addEventListener('click', () => void load(false));
