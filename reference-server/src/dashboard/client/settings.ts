/**
 * The settings page (served as /dashboard/assets/settings.js): the masked API key and its regeneration (owners), the
 * program's settings, and the payment processor (Connect with Stripe, disconnect).
 */
import { $, type Answer, clear, el, messageOf, notice, onSubmit } from './dom';
import { onProgram, type OpenProgram } from './program-event';
import { api } from './session-api';

let current: OpenProgram | null = null;

function programId(): number {
  if (!current) throw new Error('No program is open.');
  return current.id;
}

async function loadStatus(id: number): Promise<void> {
  const d = (await api<Answer<'dashboardStatus'>>('GET', '/api/tracking/status/' + id)).data;
  const p = d.program;
  $('pv-key').textContent = p.api_token;
  $('regenerate-key', HTMLButtonElement).disabled = d.role !== 'owner';
  $('regenerate-owner-only').hidden = d.role === 'owner';
  if (document.activeElement === null || !$('settings-form').contains(document.activeElement)) {
    $('st-window', HTMLInputElement).value = String(p.attribution_window_days);
    $('st-leadauth', HTMLSelectElement).value = p.lead_auth;
    $('st-origins', HTMLTextAreaElement).value = (p.allowed_origins ?? []).join('\n');
    $('st-hold', HTMLInputElement).value = String(p.commission_hold_days);
    $('st-min-payout', HTMLInputElement).value = String(p.min_payout_cents);
  }
  const i = d.integration;
  $('processor-state').textContent = i.processor_connected
    ? 'Connected to Stripe account ' + i.processor_account + '.'
    : 'No Stripe Connect account connected.';
  const connect = document.getElementById('processor-connect');
  if (connect instanceof HTMLAnchorElement) {
    connect.href = '/api/dashboard/programs/' + p.id + '/processor/connect';
    connect.textContent = i.processor_connected ? 'Connect another Stripe account' : 'Connect with Stripe';
    // The row, not the link: the link's button style would show it anyway.
    $('processor-connect-row').hidden = d.role !== 'owner';
  }
  $('processor-disconnect', HTMLButtonElement).disabled = d.role !== 'owner' || !i.processor_connected;
}

// Key regeneration (owners only; the server refuses members)
$('regenerate-key').addEventListener('click', () => {
  $('regenerate-confirm').hidden = false;
  $('regenerate-yes').focus();
});
$('regenerate-no').addEventListener('click', () => {
  $('regenerate-confirm').hidden = true;
  $('regenerate-key').focus();
});
$('regenerate-yes').addEventListener('click', () => {
  void (async () => {
    $('regenerate-confirm').hidden = true;
    try {
      const p = (await api<Answer<'dashboardRegenerateKey'>>('POST', '/api/dashboard/programs/' + programId() + '/regenerate-key', {})).data
        .program;
      const box = clear($('pv-newkey'));
      box.appendChild(
        el('div', { className: 'card' }, [
          el('p', {
            className: 'notice ok',
            role: 'status',
            text: 'New key issued. The old key no longer works. Copy it now: it will not be shown again.',
          }),
          el('code', { className: 'newkey', id: 'new-key-value', text: p.api_token }),
        ]),
      );
      await loadStatus(p.id);
    } catch (e) {
      notice('key-result', 'error', messageOf(e));
    }
  })();
});

onSubmit('settings-form', async () => {
  const origins = $('st-origins', HTMLTextAreaElement)
    .value.split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    const id = programId();
    await api('PATCH', '/api/dashboard/programs/' + id, {
      attribution_window_days: Number($('st-window', HTMLInputElement).value),
      lead_auth: $('st-leadauth', HTMLSelectElement).value,
      allowed_origins: origins.length ? origins : null,
      commission_hold_days: Number($('st-hold', HTMLInputElement).value),
      min_payout_cents: Number($('st-min-payout', HTMLInputElement).value),
    });
    notice('settings-result', 'ok', 'Settings saved.');
    await loadStatus(id);
  } catch (e) {
    notice('settings-result', 'error', messageOf(e));
  }
});

// Connecting is a link to Stripe's consent (GET …/processor/connect); only disconnecting happens here.
$('processor-disconnect').addEventListener('click', () => {
  void (async () => {
    try {
      const id = programId();
      await api<Answer<'dashboardConnectProcessor'>>('PUT', '/api/dashboard/programs/' + id + '/processor', { processor_account: null });
      notice('processor-result', 'ok', 'Disconnected.');
      await loadStatus(id);
    } catch (e) {
      notice('processor-result', 'error', messageOf(e));
    }
  })();
});

onProgram((opened) => {
  current = opened;
  loadStatus(opened.id).catch((e: unknown) => notice('settings-result', 'error', messageOf(e)));
});
