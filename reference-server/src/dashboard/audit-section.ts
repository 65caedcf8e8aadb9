import { auditActions } from '../domain/audit/record';
import { actionLabels } from './audit-labels';

/**
 * The Audit log section of a program (its script: client/audit.ts): who did what to the program's money and access,
 * newest first, with a filter by action and "Older entries". Read-only: the log has no write route.
 */
export const auditSection = `<section class="card" id="audit-card" aria-labelledby="audit-title">
        <h3 id="audit-title">Audit log</h3>
        <p class="hint">Every change to commissions, partners, links, settings, the API key, the payment processor and webhook endpoints, with who made it. Entries are never edited or removed.</p>
        <div class="inline audit-filter">
          <label for="audit-action">Action</label>
          <select id="audit-action">
            <option value="">All actions</option>
            ${auditActions.map((a) => `<option value="${a}">${actionLabels[a]}</option>`).join('\n            ')}
          </select>
          <button type="button" class="secondary" id="audit-refresh">Refresh</button>
        </div>
        <div id="audit-result" aria-live="polite"></div>
        <ol class="audit-list" id="audit-list"></ol>
        <button type="button" class="secondary" id="audit-older" hidden>Older entries</button>
      </section>`;
