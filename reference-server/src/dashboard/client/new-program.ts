/**
 * The New program form (served as /dashboard/assets/new-program.js): creates the program, then shows its API key
 * once, here, with a link to the program's pages (the key is in no other answer).
 */
import { $, type Answer, clear, el, messageOf, notice, onSubmit } from './dom';
import { api } from './session-api';

onSubmit('new-program-form', async () => {
  try {
    const p = (
      await api<Answer<'dashboardCreateProgram', 201>>('POST', '/api/dashboard/programs', {
        name: $('np-name', HTMLInputElement).value,
        domain: $('np-domain', HTMLInputElement).value,
        commission_type: $('np-type', HTMLSelectElement).value,
        commission_rate: Number($('np-rate', HTMLInputElement).value),
      })
    ).data.program;
    $('new-program-form', HTMLFormElement).reset();
    const box = clear($('new-program-result'));
    box.appendChild(
      el('div', { className: 'notice ok', role: 'status' }, [
        el('p', { text: 'Program ' + p.name + ' created. Its API key, shown this once: copy it now.' }),
        el('code', { className: 'newkey', id: 'new-key-value', text: p.api_token }),
        el('p', {}, [
          el('a', { className: 'button', id: 'open-new-program', href: '/dashboard/programs/' + p.id, text: 'Open ' + p.name }),
        ]),
      ]),
    );
    $('open-new-program').focus();
  } catch (e) {
    notice('new-program-result', 'error', messageOf(e));
  }
});
