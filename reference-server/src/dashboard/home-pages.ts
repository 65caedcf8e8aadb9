import { type AccountView, accountPage } from './account-layout';
import { scriptSubmit } from './html';

/** The **New program** form, offered only to an account that may create programs. */
const newProgramForm = `<form class="card" id="new-program-form" aria-labelledby="new-program-title">
      <h2 id="new-program-title">New program</h2>
      <div class="fields">
        <div><label for="np-name">Name</label><input id="np-name" name="name" required placeholder="Acme shop"></div>
        <div><label for="np-domain">Website domain</label><input id="np-domain" name="domain" required placeholder="shop.example"></div>
        <div><label for="np-type">Commission</label>
        <select id="np-type" name="commission_type">
          <option value="percent">Percent of the first sale</option>
          <option value="recurring_percent">Percent of every sale</option>
          <option value="fixed">Fixed amount on the first sale (cents)</option>
          <option value="recurring_fixed">Fixed amount on every sale (cents)</option>
        </select></div>
        <div><label for="np-rate">Rate</label><input id="np-rate" name="commission_rate" type="number" min="0" step="any" required value="20"></div>
      </div>
      ${scriptSubmit('Create program')}
      <div id="new-program-result" aria-live="polite"></div>
    </form>`;

/** What an account that may not create programs sees in the form's place (SVC_WORKSPACE_CREATORS). */
const newProgramClosed = `<div class="card" id="new-program-closed">
      <h2>New program</h2>
      <p class="hint">This account cannot create programs on this server. To work on a program, ask one of its workspace owners to invite you. Partner invitations appear in the partner view once a merchant adds your email.</p>
    </div>`;

/** The partner view: invitations, then each accepted program's links, figures, commissions and payouts (client/partner-view.ts). */
const partnerViewSection = (
  programId?: number,
) => `<section id="partner-view"${programId ? ` data-program-id="${programId}"` : ''} aria-label="Partner view">
      <div id="partner-view-body"></div>
      <div id="partner-view-result" aria-live="polite"></div>
    </section>`;

/** `/dashboard` for an account with no program: a welcome, New program, and the partner view when it has one. */
export function welcomePage(account: AccountView): string {
  return accountPage({
    account,
    title: 'Dashboard',
    heading: 'Welcome',
    here: { label: 'None yet', path: '/dashboard' },
    body: `<p class="hint" id="empty-view">${
      account.canCreatePrograms
        ? 'Create your first program below. You will get its API key and the tracker snippet to paste on your site.'
        : 'You have no programs yet. Ask a workspace owner to invite you to theirs; invitations to be a partner show up below.'
    }</p>
    ${account.canCreatePrograms ? newProgramForm : newProgramClosed}
    ${partnerViewSection()}`,
    scripts: ['new-program.js', 'partner-view.js'],
  });
}

/** `/dashboard/new`: the New program form on its own page (its key is shown there once, then a link opens the program). */
export function newProgramPage(account: AccountView): string {
  return accountPage({
    account,
    title: 'New program',
    heading: 'New program',
    here: { label: 'New program', path: '/dashboard/new' },
    body: account.canCreatePrograms ? newProgramForm : newProgramClosed,
    scripts: ['new-program.js'],
  });
}

/** `/dashboard/partner` (every program the account is a partner of, and invitations) or one program's part of it. */
export function partnerViewPage(account: AccountView, program?: { id: number; name: string }): string {
  return accountPage({
    account,
    title: program ? `${program.name} · Partner view` : 'Partner view',
    heading: program ? `Your links at ${program.name}` : 'Your partner links',
    here: { label: 'Partner view', path: '/dashboard/partner' },
    body: partnerViewSection(program?.id),
    scripts: ['partner-view.js'],
  });
}
