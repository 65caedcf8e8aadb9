import { riskKinds } from '../domain/risk/kinds';
import { scriptSubmit } from './html';
import { riskKindLabels } from './risk-labels';

/**
 * The Risk section of a program (its script: client/risk.ts): the risk events with their evidence, newest first,
 * filtered by signal; for each, the partner's held commissions with approve, decline and decline-and-ban (owners);
 * and which signals hold money, with the two signals' settings.
 */
export const riskSection = `<section class="card" id="risk-card" aria-labelledby="risk-title">
        <h3 id="risk-title">Risk</h3>
        <p class="hint">Signals that deserve a second look: self-referrals, throwaway emails, click floods, instant signups and shared identities. They inform your decision; they decide nothing. VPNs, shared offices and mobile networks explain many of them.</p>
        <div class="inline risk-filter">
          <label for="risk-kind">Signal</label>
          <select id="risk-kind">
            <option value="">All signals</option>
            ${riskKinds.map((k) => `<option value="${k}">${riskKindLabels[k]}</option>`).join('\n            ')}
          </select>
          <button type="button" class="secondary" id="risk-refresh">Show latest</button>
        </div>
        <div id="risk-result" aria-live="polite"></div>
        <ol class="risk-list" id="risk-list"></ol>
        <button type="button" class="secondary" id="risk-older" hidden>Older events</button>
        <form id="risk-settings">
          <h4>Hold commissions for review on</h4>
          <fieldset class="risk-hold">
            <legend>Signals whose commissions wait for an owner's approval</legend>
            ${riskKinds.map((k) => `<label><input type="checkbox" name="risk_hold_kinds" value="${k}"> ${riskKindLabels[k]}</label>`).join('\n            ')}
          </fieldset>
          <label for="risk-flood">Click flood: more than this many clicks on one link from one IP in 10 minutes</label>
          <input id="risk-flood" name="click_flood_threshold" type="number" min="1" max="10000" required>
          <label for="risk-fast">Fast conversion: a browser signup within this many seconds of its click (0: off)</label>
          <input id="risk-fast" name="fast_conversion_seconds" type="number" min="0" max="3600" required>
          ${scriptSubmit('Save risk settings')}
          <div id="risk-settings-result" aria-live="polite"></div>
        </form>
      </section>`;
