import type { DashboardAsset } from './built-assets';
import { dashboardAssetUrl } from './built-assets';
import { escapeHtml, page } from './html';
import type { OpenProgram } from './open-program';

/** The signed-in account as every page's frame shows it. */
export interface AccountView {
  email: string;
  /** The programs the account works on (the switcher). */
  programs: readonly { id: number; name: string }[];
  /** `SVC_WORKSPACE_CREATORS` lets this account create programs. */
  canCreatePrograms: boolean;
}

/** The program a page is about, with what its frame shows of it. */
export interface PageProgram extends OpenProgram {
  name: string;
}

/**
 * One link of a page's navigation. `current`: `page` for the page itself, `true` for the place it is part of (the
 * program a page is about, the list a partner's page belongs to), as `aria-current` says it.
 */
export interface NavLink {
  href: string;
  label: string;
  current: 'page' | 'true' | false;
}

const navList = (label: string, links: readonly NavLink[]) =>
  `<ul class="nav" aria-label="${escapeHtml(label)}">
      ${links
        .map((l) => `<li><a href="${escapeHtml(l.href)}"${l.current ? ` aria-current="${l.current}"` : ''}>${escapeHtml(l.label)}</a></li>`)
        .join('\n      ')}
    </ul>`;

/**
 * The switcher: the account's programs, the partner view and New program, behind a disclosure (a `<details>`, so
 * it opens with the keyboard and without a script), whose summary names where the page is.
 */
function switcher(account: AccountView, here: { programId?: number; label: string; path: string }): string {
  const at = (href: string): NavLink['current'] => (here.path === href ? 'page' : here.path.startsWith(href + '/') ? 'true' : false);
  const links: NavLink[] = account.programs.map((p) => ({
    href: `/dashboard/programs/${p.id}`,
    label: p.name,
    current: at(`/dashboard/programs/${p.id}`),
  }));
  // Always offered: whether the account is someone's partner is the partner view's own (costlier) question.
  links.push({ href: '/dashboard/partner', label: 'Partner view', current: at('/dashboard/partner') });
  if (account.canCreatePrograms) links.push({ href: '/dashboard/new', label: 'New program', current: at('/dashboard/new') });
  return `<details class="switcher">
    <summary><span class="muted">Program</span> <strong id="switcher-current">${escapeHtml(here.label)}</strong></summary>
    ${navList('Your programs', links)}
  </details>`;
}

/**
 * Every signed-in page: the account bar, the switcher, the page's own navigation (`nav`, if any) and its body. The
 * section scripts (`scripts`) learn the program from the page's root element (html.ts).
 */
export function accountPage(input: {
  account: AccountView;
  title: string;
  heading: string;
  body: string;
  scripts: readonly DashboardAsset[];
  here: { programId?: number; label: string; path: string };
  nav?: readonly NavLink[];
  program?: PageProgram;
}): string {
  const { account, program } = input;
  const open = program ? { id: program.id, domain: program.domain, role: program.role } : undefined;
  const role = program ? `<span class="badge" id="pv-role">${program.role === 'owner' ? 'Owner' : 'Member'}</span>` : '';
  const domain = program ? `<span class="muted" id="pv-domain">${escapeHtml(program.domain)}</span>` : '';
  return page(
    `${input.title} · svc`,
    `<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/dashboard">svc · affiliate tracking</a>
  <span class="account">Signed in as <strong id="account-email">${escapeHtml(account.email)}</strong>
    <form method="post" action="/auth/sign-out"><button type="submit">Sign out</button></form></span>
</header>
<div class="layout">
  <nav class="side" aria-label="Dashboard">
    ${switcher(account, input.here)}
    ${input.nav ? navList('Program pages', input.nav) : ''}
  </nav>
  <main id="main" tabindex="-1">
    <div class="title"><h1 id="page-title">${escapeHtml(input.heading)}</h1>${role}${domain}</div>
    ${input.body}
  </main>
</div>`,
    input.scripts.map((file) => dashboardAssetUrl(file)),
    open,
  );
}
