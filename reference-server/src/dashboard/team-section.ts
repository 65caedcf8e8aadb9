import { scriptSubmit } from './html';

/**
 * The Team section of a program (its script: client/team.ts): the workspace's members and pending invitations;
 * owners invite by email, change roles and remove members; members see the list only.
 */
export const teamSection = `<section class="card" id="team-card" aria-labelledby="team-title">
        <h3 id="team-title">Team</h3>
        <p class="hint">Everyone here can open every program of this workspace. Owners manage money, keys and the team; members view and work with partners, links and webhooks. An invited person joins when they sign in with the invited email.</p>
        <div id="team-result" aria-live="polite"></div>
        <ul class="team-list" id="team-members"></ul>
        <h4 id="team-invitations-title" hidden>Pending invitations</h4>
        <ul class="team-list" id="team-invitations" aria-labelledby="team-invitations-title"></ul>
        <form id="team-invite-form" hidden>
          <h4>Invite someone</h4>
          <label for="team-email">Email</label><input id="team-email" name="email" type="email" required maxlength="254" autocomplete="off" placeholder="colleague@shop.example">
          <label for="team-role">Role</label>
          <select id="team-role" name="role">
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </select>
          ${scriptSubmit('Invite')}
        </form>
        <p class="muted" id="team-owner-only" hidden>Only a workspace owner can invite, change roles or remove members.</p>
      </section>`;
