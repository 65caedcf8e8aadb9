import { trackerSnippet } from '@svc/types';
import { type AccountView, accountPage, type PageProgram } from './account-layout';
import { auditSection } from './audit-section';
import type { DashboardAsset } from './built-assets';
import { commissionsSection } from './commissions-section';
import { eventsSection } from './events-section';
import { performanceSection, type RangeQuery, statusSections } from './overview-sections';
import { partnerDetailSection } from './partner-detail-section';
import { partnersSection } from './partners-section';
import { payoutsSection } from './payouts-section';
import { riskSection } from './risk-section';
import { settingsSections, type SettingsView } from './settings-sections';
import { teamSection } from './team-section';
import { webhookEndpointSection } from './webhook-endpoint-section';
import { webhooksSection } from './webhooks-section';

/** What a program's page is drawn from: the account, the program, the address's ids and query, the server's setup. */
export interface ProgramPageView {
  account: AccountView;
  program: PageProgram;
  publicUrl: string;
  settings: Omit<SettingsView, 'snippet'>;
  /** The report period the address asks for (the overview). */
  range: RangeQuery;
  /** Today's UTC day by the server's clock (the period control's "This month"). */
  today: string;
  /** `/partners/{partnerId}` and `/webhooks/{endpointId}`: checked to be the program's before the page is drawn. */
  partnerId?: number;
  endpointId?: number;
}

type NavKey = 'overview' | 'events' | 'partners' | 'commissions' | 'payouts' | 'risk' | 'webhooks' | 'settings';

/** A page of a program: its heading, its navigation entry, its sections (HTML fragments) and their scripts. */
interface ProgramPage {
  title: string;
  nav: NavKey;
  sections: (view: ProgramPageView) => string[];
  scripts: DashboardAsset[];
}

/**
 * Every page under /dashboard/programs/{programId}, by the rest of its address. Mounting a section on a page is one
 * line: its fragment in `sections`, its script in `scripts` (each script finds the program through onProgram in
 * client/program-event.ts, and its own section's `data-*` for a partner or an endpoint).
 */
export const programPages = {
  '': {
    title: 'Overview',
    nav: 'overview',
    sections: (v) => [statusSections, performanceSection(v.range, v.today)],
    scripts: ['overview.js'],
  },
  '/events': { title: 'Events', nav: 'events', sections: () => [eventsSection], scripts: ['events.js'] },
  '/partners': { title: 'Partners', nav: 'partners', sections: () => [partnersSection], scripts: ['partners.js'] },
  '/partners/{partnerId}': {
    title: 'Partner',
    nav: 'partners',
    sections: (v) => [partnerDetailSection(v.program.id, v.partnerId as number)],
    scripts: ['partner-detail.js'],
  },
  '/commissions': { title: 'Commissions', nav: 'commissions', sections: () => [commissionsSection], scripts: ['commissions.js'] },
  '/payouts': { title: 'Payouts', nav: 'payouts', sections: () => [payoutsSection], scripts: ['payouts.js'] },
  '/risk': { title: 'Risk', nav: 'risk', sections: () => [riskSection], scripts: ['risk.js'] },
  '/webhooks': { title: 'Webhooks', nav: 'webhooks', sections: () => [webhooksSection], scripts: ['webhooks.js'] },
  '/webhooks/{endpointId}': {
    title: 'Webhook endpoint',
    nav: 'webhooks',
    sections: (v) => [webhookEndpointSection(v.program.id, v.endpointId as number)],
    scripts: ['webhook-endpoint.js'],
  },
  '/settings': {
    title: 'Settings',
    nav: 'settings',
    sections: (v) => [settingsSections({ ...v.settings, snippet: trackerSnippet(v.publicUrl, v.program.id) }), teamSection, auditSection],
    scripts: ['settings.js', 'team.js', 'audit.js'],
  },
} satisfies Record<string, ProgramPage>;

export type ProgramPagePath = keyof typeof programPages;

/** The navigation's entries, in order, and the page each opens. */
const navEntries: [NavKey, ProgramPagePath][] = [
  ['overview', ''],
  ['events', '/events'],
  ['partners', '/partners'],
  ['commissions', '/commissions'],
  ['payouts', '/payouts'],
  ['risk', '/risk'],
  ['webhooks', '/webhooks'],
  ['settings', '/settings'],
];

/** The page at `path` of the program in `view`. */
export function programPage(path: ProgramPagePath, view: ProgramPageView): string {
  const definition: ProgramPage = programPages[path];
  const base = `/dashboard/programs/${view.program.id}`;
  return accountPage({
    account: view.account,
    program: view.program,
    title: `${definition.title} · ${view.program.name}`,
    heading: path === '' ? view.program.name : definition.title,
    body: definition.sections(view).join('\n      '),
    scripts: definition.scripts,
    here: { programId: view.program.id, label: view.program.name, path: base + path },
    nav: navEntries.map(([key, to]) => ({
      href: base + to,
      label: programPages[to].title,
      // The page itself, or the list a partner's or an endpoint's page belongs to.
      current: to === path ? 'page' : key === definition.nav ? 'true' : false,
    })),
  });
}
