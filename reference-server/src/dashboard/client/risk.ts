/**
 * The Risk section (served as /dashboard/assets/risk.js): the program's risk events newest first with their evidence,
 * a filter by signal, "Older events" following `next_cursor`; for an event's partner, their held commissions with
 * approve, decline and decline-and-ban (owners); and the risk settings. The dashboard script (app.ts) announces the
 * open program with a `svc:program` event.
 */
import type { RiskKind } from '@svc/types';
import { riskKindLabels } from '../risk-labels';
import { $, type Answer, button, clear, el, messageOf, notice, onSubmit, when } from './dom';
import { api } from './session-api';
import { onProgram, type OpenProgram } from './program-event';

type RiskEvent = Answer<'dashboardListRiskEvents'>['data'][number];
type Commission = Answer<'dashboardListCommissions'>['data'][number];

let current: OpenProgram | null = null;
let cursor: string | null = null;
let names: Record<number, string> = {};
/** Bumped by every fresh load: an answer for an older program or filter is dropped. */
let generation = 0;

const base = () => '/api/dashboard/programs/' + current!.id;

/** The evidence as lines: "email: jane@…", "ip: 203.0.113.9". */
function evidence(details: Record<string, unknown>): string[] {
  return Object.entries(details).map(([key, value]) => {
    const shown = key.endsWith('partner_id') && typeof value === 'number' ? (names[value] ?? '#' + value) : String(value);
    return key.replaceAll('_', ' ') + ': ' + shown;
  });
}

function eventItem(e: RiskEvent): HTMLLIElement {
  const review = el('div', { className: 'risk-review' });
  const children: Node[] = [
    el('p', { className: 'risk-head' }, [
      el('strong', { text: riskKindLabels[e.kind] ?? e.kind }),
      ' · ' + (names[e.partner_id] ?? 'partner #' + e.partner_id) + ' · ',
      el('code', { text: e.subject.type + ' ' + e.subject.id }),
    ]),
    el('p', { className: 'muted', text: when(e.at, '') }),
    el(
      'ul',
      { className: 'risk-evidence' },
      evidence(e.details).map((l) => el('li', { text: l })),
    ),
  ];
  if (current?.role === 'owner') children.push(button('Review held commissions', 'secondary small', () => loadHeld(e.partner_id, review)));
  children.push(review);
  return el('li', { 'data-risk-id': String(e.id), 'data-kind': e.kind }, children);
}

/** The partner's held commissions, each with approve, decline and decline-and-ban, under one reason field. */
async function loadHeld(partnerId: number, into: HTMLElement): Promise<void> {
  try {
    const held = (await api<Answer<'dashboardListCommissions'>>('GET', base() + '/commissions?status=held&partner_id=' + partnerId)).data;
    clear(into);
    if (held.length === 0) {
      into.appendChild(el('p', { className: 'muted', text: 'No held commissions for this partner.' }));
      return;
    }
    const reasonId = 'risk-reason-' + partnerId + '-' + Math.random().toString(36).slice(2, 8);
    const reason = el('input', { id: reasonId, type: 'text', maxlength: '500', value: 'Risk review' });
    into.append(el('label', { for: reasonId, text: 'Reason for a decline' }), reason);
    for (const c of held) into.appendChild(heldRow(c, reason, partnerId, into));
  } catch (err) {
    notice('risk-result', 'error', messageOf(err));
  }
}

function heldRow(c: Commission, reason: HTMLInputElement, partnerId: number, panel: HTMLElement): HTMLElement {
  const decide = async (path: string, body?: unknown) => {
    try {
      await api('POST', base() + '/commissions/' + c.id + path, body);
      notice('risk-result', 'ok', 'Commission #' + c.id + ' updated.');
      await loadHeld(partnerId, panel);
    } catch (err) {
      notice('risk-result', 'error', messageOf(err));
    }
  };
  return el('p', { className: 'inline', 'data-commission-id': String(c.id) }, [
    '#' + c.id + ' · ' + (c.amount_cents / 100).toFixed(2) + ' ' + c.currency + ' ',
    button('Approve', 'small', () => decide('/approve')),
    button('Decline', 'secondary small', () => decide('/decline', { reason: reason.value })),
    button('Decline and ban partner', 'danger small', () => decide('/decline', { reason: reason.value, ban: true })),
  ]);
}

async function load(more: boolean): Promise<void> {
  if (!current) return;
  const mine = more ? generation : ++generation;
  const kind = $('risk-kind', HTMLSelectElement).value;
  const query = new URLSearchParams({ limit: '25' });
  if (kind) query.set('kind', kind);
  if (more && cursor) query.set('cursor', cursor);
  try {
    if (!more) {
      const partners = (await api<Answer<'dashboardListPartners'>>('GET', base() + '/partners')).data.partners;
      names = Object.fromEntries(partners.map((p) => [p.id, p.name]));
    }
    const page = await api<Answer<'dashboardListRiskEvents'>>('GET', base() + '/risk-events?' + query.toString());
    if (mine !== generation) return;
    const list = $('risk-list');
    if (!more) clear(list);
    for (const e of page.data) list.appendChild(eventItem(e));
    cursor = page.next_cursor;
    $('risk-older', HTMLButtonElement).hidden = cursor === null;
    if (!more && page.data.length === 0) notice('risk-result', 'ok', kind ? 'No events of this signal.' : 'No risk events yet.');
    else if (!more) clear($('risk-result'));
  } catch (err) {
    if (mine === generation) notice('risk-result', 'error', messageOf(err));
  }
}

/** Fills the settings form with the program's risk settings. */
async function loadSettings(): Promise<void> {
  const programs = (await api<Answer<'dashboardListPrograms'>>('GET', '/api/dashboard/programs')).data.programs;
  const program = programs.find((p) => p.id === current?.id);
  if (!program) return;
  for (const box of document.querySelectorAll<HTMLInputElement>('#risk-settings input[name="risk_hold_kinds"]')) {
    box.checked = program.risk_hold_kinds.includes(box.value as RiskKind);
  }
  $('risk-flood', HTMLInputElement).value = String(program.click_flood_threshold);
  $('risk-fast', HTMLInputElement).value = String(program.fast_conversion_seconds);
}

onSubmit('risk-settings', async () => {
  if (!current) return;
  const kinds = Array.from(
    document.querySelectorAll<HTMLInputElement>('#risk-settings input[name="risk_hold_kinds"]:checked'),
    (b) => b.value,
  );
  try {
    await api('PATCH', base(), {
      risk_hold_kinds: kinds,
      click_flood_threshold: Number($('risk-flood', HTMLInputElement).value),
      fast_conversion_seconds: Number($('risk-fast', HTMLInputElement).value),
    });
    notice('risk-settings-result', 'ok', 'Risk settings saved. They apply to what is recorded from now on.');
  } catch (err) {
    notice('risk-settings-result', 'error', messageOf(err));
  }
});

onProgram((program) => {
  current = program;
  cursor = null;
  void load(false);
  void loadSettings().catch((err: unknown) => notice('risk-settings-result', 'error', messageOf(err)));
});
$('risk-kind', HTMLSelectElement).addEventListener('change', () => void load(false));
$('risk-older', HTMLButtonElement).addEventListener('click', () => void load(true));
$('risk-refresh', HTMLButtonElement).addEventListener('click', () => void load(false));
