/**
 * The Team section (served as /dashboard/assets/team.js): the workspace's members and pending invitations. Owners
 * invite by email, change a member's role and remove members, and withdraw invitations; the server keeps the last
 * owner. The open program comes from `svc:program` (program-event.ts).
 */
import { $, type Answer, button, clear, el, messageOf, notice, onSubmit, when } from './dom';
import { api } from './session-api';
import { onProgram, type OpenProgram } from './program-event';

type Team = Answer<'dashboardTeam'>['data'];
type Member = Team['members'][number];
type Invitation = Team['invitations'][number];

let current: OpenProgram | null = null;
let generation = 0;
const roleNames = { owner: 'Owner', member: 'Member' } as const;

function base(): string {
  if (!current) throw new Error('No program is open.');
  return '/api/dashboard/programs/' + current.id + '/team';
}
const isOwner = () => current?.role === 'owner';

function memberRow(m: Member): HTMLLIElement {
  const children: (HTMLElement | string)[] = [
    el('p', {}, [el('strong', { text: m.email }), ' ', el('span', { className: 'badge', text: roleNames[m.role] })]),
    el('p', { className: 'muted', text: 'Joined ' + when(m.joined_at, '') }),
  ];
  if (isOwner()) {
    const select = el('select', { id: 'team-role-' + m.account_id, 'aria-label': 'Role of ' + m.email }, [
      el('option', { value: 'member', text: 'Member' }),
      el('option', { value: 'owner', text: 'Owner' }),
    ]);
    select.value = m.role;
    select.addEventListener('change', () => void changeRole(m, select));
    children.push(
      el('div', { className: 'inline' }, [
        el('label', { for: select.id, text: 'Role' }),
        select,
        button('Remove', 'danger', () => remove(m)),
      ]),
    );
  }
  return el('li', { 'data-account-id': String(m.account_id), 'data-role': m.role }, children);
}

function invitationRow(i: Invitation): HTMLLIElement {
  const children: HTMLElement[] = [
    el('p', {}, [el('strong', { text: i.email }), ' ', el('span', { className: 'badge warn', text: 'invited · ' + roleNames[i.role] })]),
    el('p', { className: 'muted', text: 'Invited ' + when(i.invited_at, '') + '; joins when they sign in with this email.' }),
  ];
  if (isOwner()) children.push(button('Withdraw', 'secondary', () => withdraw(i)));
  return el('li', { 'data-invitation-id': String(i.id) }, children);
}

async function load(): Promise<void> {
  if (!current) return;
  const mine = ++generation;
  const team = (await api<Answer<'dashboardTeam'>>('GET', base())).data;
  if (mine !== generation) return;
  clear($('team-members')).append(...team.members.map(memberRow));
  clear($('team-invitations')).append(...team.invitations.map(invitationRow));
  $('team-invitations-title').hidden = team.invitations.length === 0;
  $('team-invite-form').hidden = !isOwner();
  $('team-owner-only').hidden = isOwner();
}

async function changeRole(m: Member, select: HTMLSelectElement): Promise<void> {
  try {
    const changed = (await api<Answer<'dashboardChangeTeamRole'>>('PATCH', base() + '/members/' + m.account_id, { role: select.value }))
      .data;
    notice('team-result', 'ok', m.email + ' is now ' + (changed.role === 'owner' ? 'an owner' : 'a member') + '.');
    await load();
  } catch (err) {
    select.value = m.role;
    notice('team-result', 'error', messageOf(err));
  }
}

async function remove(m: Member): Promise<void> {
  if (!window.confirm('Remove ' + m.email + ' from the team? They lose access to every program of this workspace.')) return;
  try {
    await api('DELETE', base() + '/members/' + m.account_id);
    notice('team-result', 'ok', m.email + ' was removed.');
    await load();
  } catch (err) {
    notice('team-result', 'error', messageOf(err));
  }
}

async function withdraw(i: Invitation): Promise<void> {
  try {
    await api('DELETE', base() + '/invitations/' + i.id);
    notice('team-result', 'ok', 'Invitation to ' + i.email + ' withdrawn.');
    await load();
  } catch (err) {
    notice('team-result', 'error', messageOf(err));
  }
}

onSubmit('team-invite-form', async () => {
  const email = $('team-email', HTMLInputElement).value.trim();
  try {
    const invited = (
      await api<Answer<'dashboardInviteTeamMember', 201>>('POST', base() + '/invitations', {
        email,
        role: $('team-role', HTMLSelectElement).value,
      })
    ).data;
    $('team-invite-form', HTMLFormElement).reset();
    notice('team-result', 'ok', 'Invited ' + invited.email + '. They join when they sign in with that email.');
    await load();
  } catch (err) {
    notice('team-result', 'error', messageOf(err));
  }
});
onProgram((opened) => {
  current = opened;
  clear($('team-result'));
  load().catch((err: unknown) => notice('team-result', 'error', messageOf(err)));
});
